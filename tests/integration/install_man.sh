#!/usr/bin/env bash
# The manual pages the build writes (make man: raidlab __manpage) from
# raidlab's own tables: one page per listed command plus raidlab(1); each
# one formats under man -l without a groff warning; every option the
# tables hold appears in its command's page (the job option table in
# raidlab-run(1)), and every target type with its parameters, suite, and
# drive and controller profile appears in raidlab(1) or raidlab-run(1).
. "$(dirname "$0")/lib.sh"
need man
man_dir=${RAIDLAB_BUILD:?run through tests/run.sh}/man
[ -f "$man_dir/raidlab.1" ] || fail "no $man_dir/raidlab.1: the build writes the pages (make man)"
# render PAGE: the page as plain text, groff's warnings in PAGE.warn
render() {
	MANWIDTH=200 man --warnings=w -l "$man_dir/$1.1" 2>"$1.warn" | col -bx >"$1.txt"
	[ ! -s "$1.warn" ] || { cat "$1.warn"; fail "$1.1: groff warnings"; }
	grep -q "^NAME" "$1.txt" || fail "$1.1 renders no NAME section"
}
render raidlab
commands=$("$RAIDLAB" help | awk '/^commands:/ { on = 1; next } on && NF { print $1 }')
[ -n "$commands" ] || fail "raidlab help lists no command"
for c in $commands; do
	render "raidlab-$c"
	grep -q "raidlab-$c(1)" raidlab.txt || fail "raidlab(1) does not list raidlab-$c"
	# each option the command's completion knows (its usage, and for run
	# the whole job option table) is in its page
	for o in $("$RAIDLAB" __complete "$c" --); do
		grep -qF -- "${o%=}" "raidlab-$c.txt" || fail "raidlab-$c(1) lacks option ${o%=}"
	done
done
n=$("$RAIDLAB" __complete run -- | grep -c '=$')
[ "$n" -gt 50 ] || fail "only $n job options offered: the table is not read"
# the job option table, name by name, in raidlab-run(1), with its help
"$RAIDLAB" help options | awk '/^  [a-z]/ { print $1 }' >opts.txt
[ -s opts.txt ] || fail "raidlab help options lists nothing"
while read -r o; do
	grep -qF -- "--$o=" raidlab-run.txt || fail "raidlab-run(1) lacks job option --$o"
done <opts.txt
# target types and their parameters, drive and controller profiles
for t in $("$RAIDLAB" __complete run --target ''); do
	t=${t%(}
	grep -q "^       $t\b" raidlab.txt || fail "raidlab(1) lacks target type $t"
	for k in $("$RAIDLAB" __complete run --target "$t(x," | grep '=$'); do
		grep -qF -- "${k#"$t(x,"}" raidlab.txt || fail "raidlab(1) lacks $t parameter ${k#"$t(x,"}"
	done
done
for p in $("$RAIDLAB" __complete run --target 'ssd(') $("$RAIDLAB" __complete run --target 'controller('); do
	grep -q "^       ${p#*(}\b" raidlab.txt || fail "raidlab(1) lacks profile ${p#*(}"
done
for s in $("$RAIDLAB" __complete run ''); do
	[ "$s" = @files ] && continue
	grep -q "^       $s\b" raidlab-run.txt || fail "raidlab-run(1) lacks suite $s"
done
echo "install_man: $(echo $commands | wc -w) command pages checked"
