#!/usr/bin/env bash
# Shell completion (completion/raidlab.bash, completion/_raidlab): bash
# registers _raidlab for raidlab (complete -p), and driven the way bash
# drives it (COMP_LINE, COMP_POINT, COMP_WORDS split at COMP_WORDBREAKS) it
# completes commands, options, job option values (--rw=, --ioengine=: every
# value offered is one run accepts), suites, target types, profiles inside
# ssd( and controller( (the profile files of the tree), and file names.
# The zsh function loads in zsh.
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
need bash
ln -s "$RAIDLAB" raidlab
touch jobfile-one.fio
# comp LINE: COMPREPLY for LINE, one a line (COMP_WORDS as bash splits it)
comp() {
	PATH=$T:$PATH bash -c '
		source "$1/completion/raidlab.bash"
		COMP_LINE=$2 COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"$(sed "s/\([=:(]\)/ \1 /g" <<<"$2")"
		[[ $2 == *[[:space:]] ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_raidlab
		printf "%s\n" "${COMPREPLY[@]}"' _ "$top" "$1"
}
has() { grep -qxF -- "$2" <<<"$1" || { echo "$1"; fail "completion lacks '$2'"; }; }

reg=$(bash -c 'source "$1/completion/raidlab.bash"; complete -p raidlab' _ "$top")
[ "$reg" = "complete -F _raidlab raidlab" ] || fail "complete -p raidlab: '$reg'"

out=$(comp "raidlab ")
for c in $("$RAIDLAB" help | awk '/^commands:/ { on = 1; next } on && NF { print $1 }'); do
	has "$out" "$c"
done
grep -q "__" <<<"$out" && fail "a hidden command is offered: $out"
[ "$(comp "raidlab ser")" = serve ] || fail "'raidlab ser' does not complete to serve"
has "$(comp "raidlab run --io")" "--ioengine="
has "$(comp "raidlab run --tar")" "--target"
has "$(comp "raidlab serve --")" "--port"

# option values: each one offered is accepted by run, a made-up one is not
# what an engine needs beside it to make a job (cpuio's load, exec's program, net's
# peer, nbd's server)
needs() {
	case "$1=$2" in
	ioengine=cpuio) echo --cpuload=50 ;;
	ioengine=exec) echo --program=true --runtime=1 ;;
	ioengine=net) echo --port=8888 --hostname=localhost ;;
	ioengine=nbd) echo --uri=nbd+unix:///?socket=/nonexistent ;;
	esac
}
# shellcheck disable=SC2046 # needs' words are separate options
accepts() {
	"$RAIDLAB" run --parse-only --target 'mem(size=1m)' --size=64k "--$1=$2" $(needs "$1" "$2") \
		>/dev/null 2>&1
}
accepts rw nonsense && fail "run accepts --rw=nonsense: the check below proves nothing"
for o in rw ioengine; do
	vals=$(comp "raidlab run --$o=")
	[ "$(wc -l <<<"$vals")" -ge 3 ] || fail "--$o= offers only: $vals"
	for v in $vals; do accepts "$o" "$v" || fail "--$o=$v is offered but refused by run"; done
done
has "$(comp "raidlab run --rw=rand")" randread
has "$(comp "raidlab run --ioengine=io_")" io_uring

# suites, target types, profiles (the tree's files), job files
out=$(comp "raidlab run cd")
has "$out" cdm
has "$out" cdm5
has "$(comp "raidlab run job")" jobfile-one.fio
out=$(comp "raidlab run --target ")
has "$out" "raid0("
has "$out" "ssd("
for f in "$top"/profiles/*.profile; do
	n=$(sed -n 's/^name *= *//p' "$f")
	has "$(comp "raidlab run --target ssd(")" "$n"
done
for f in "$top"/profiles/*.controller; do
	n=$(sed -n 's/^name *= *//p' "$f")
	has "$(comp "raidlab run --target raid0(controller(")" "$n"
done
has "$(comp "raidlab run --target=raid0(ssd(x), ch")" "chunk="
# inside quotes readline replaces the whole quoted word, and a single
# match inside a spec gets no space and its open quote back
has "$(comp "raidlab run --target 'ssd(samsung-sm")" "'ssd(samsung-sm951-512"
has "$(comp "raidlab run --target 'ssd(s")" "ssd(samsung-sm951-512"
# an escaped spec completes escaped
has "$(comp "raidlab run --target ssd\\(samsung-sm")" "ssd\\(samsung-sm951-512"

if command -v zsh >/dev/null; then
	zsh -c "fpath=($top/completion \$fpath); autoload -Uz compinit && compinit -u -d $T/zcd &&
		autoload -Uz _raidlab && whence -w _raidlab" >zsh.txt 2>&1
	grep -q function zsh.txt || { cat zsh.txt; fail "zsh cannot load _raidlab"; }
else
	skip "zsh is not installed"
fi
echo "install_completion: ok"
