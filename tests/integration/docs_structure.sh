#!/usr/bin/env bash
# The structure docs follow the tree: every folder under src/ appears in
# docs/ARCHITECTURE.md's diagram and README's layout, every other top-level
# folder in README's layout; every command (those
# `raidlab help` lists and those src/cli registers) appears on the diagram's
# cli/ line; the layout comment of src/serve/serve.h names only files that
# exist and every file of src/serve/.
#
# "The tree" is what git tracks (git ls-files), not the working folder:
# outputs git ignores (demo-results/ and report.html from `make run`, build
# folders) are not project folders.  Outside a git checkout (an unpacked
# source tarball) it is the working folder less the top-level folders
# .gitignore names.  The test first proves that on a scratch copy of the
# tree: ignored outputs added there pass, a new tracked folder does not.
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$self")/../.." && pwd)}
arch=$top/docs/ARCHITECTURE.md
readme=$top/README.md
errors=0
problem() { echo "docs_structure: $*" >&2; errors=$((errors + 1)); }

# in_git: $top is the top of a git checkout (not a folder inside another one)
in_git() { [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top" && pwd -P)" ]; }
# folders [src]: the top-level folders of the tree (or those of src/), one a
# line; hidden ones (.ci/) aside, as in the layout.
folders() {
	local d f sub=${1:-}
	if in_git; then
		git -C "$top" ls-files -z -- ${sub:+"$sub"} | tr '\0' '\n' |
			awk -F/ -v depth=$((${sub:+1} + 1)) 'NF > depth && $depth !~ /^\./ { print $depth }' | sort -u
		return
	fi
	for d in "$top/$sub"/*/; do
		f=$(basename "$d")
		[ -n "$sub" ] || ! ignored_folder "$f" || continue
		echo "$f"
	done
}
# ignored_folder NAME: .gitignore names top-level folder NAME ("/NAME/", globs too)
ignored_folder() {
	local pat
	[ -f "$top/.gitignore" ] || return 1
	while read -r pat; do
		# shellcheck disable=SC2254 # the pattern is a glob on purpose
		case $1 in $pat) return 0 ;; esac
	done < <(sed -n 's|^/\([^/]*\)/$|\1|p' "$top/.gitignore")
	return 1
}

# The self-test (skipped in the runs it starts): a scratch copy of the
# tracked files, as a git checkout and as a plain folder.
if [ -z "${DOCS_STRUCTURE_INNER:-}" ] && in_git; then
	mkdir scratch
	git -C "$top" ls-files -z | (cd "$top" && tar --null -T - -cf -) | tar -xf - -C scratch
	git -C scratch init -q && git -C scratch add -A
	inner() { DOCS_STRUCTURE_INNER=1 RAIDLAB_TOP=$T/scratch bash "$self" >inner.out 2>&1; }
	inner || { cat inner.out; fail "the check fails on a scratch copy of the tree"; }
	# what `make run` leaves: ignored by git, not project folders
	mkdir -p scratch/demo-results scratch/build-x
	echo '{}' >scratch/demo-results/r.json
	echo '<html>' >scratch/report.html
	inner || { cat inner.out; fail "ignored outputs (demo-results/, report.html) count as project folders"; }
	# a tracked folder the README does not show is still found
	mkdir scratch/newdir && echo x >scratch/newdir/f && git -C scratch add newdir/f
	! inner || fail "a tracked folder missing from README's layout passed"
	grep -q 'newdir/ is missing from README' inner.out || { cat inner.out; fail "no problem named for newdir/"; }
	git -C scratch rm -q --cached newdir/f && rm -r scratch/newdir
	# no git: the working folder less the folders .gitignore names
	rm -rf scratch/.git
	inner || { cat inner.out; fail "outside git, ignored outputs count as project folders"; }
	mkdir scratch/newdir
	! inner || fail "outside git, a folder missing from README's layout passed"
	rm -r scratch
fi

# The ARCHITECTURE diagram: the first fenced block.
awk '/^```/ { n++; next } n == 1' "$arch" >diagram
[ -s diagram ] || fail "$arch: no diagram (fenced block) found"

# 1. folders: " NAME/" opening a diagram line; "    src/NAME/" in README.
n=0
for f in $(folders src); do
	n=$((n + 1))
	grep -Eq "^ *$f/ " diagram || problem "src/$f/ is missing from the diagram of docs/ARCHITECTURE.md"
	grep -Eq "^ +src/$f/ " "$readme" || problem "src/$f/ is missing from README's layout"
done
[ "$n" -gt 0 ] || fail "no folders under $top/src"
# and every top-level folder of the project (not build output) in README's layout
for f in $(folders); do
	case $f in src) continue ;; esac # src: folder by folder above
	grep -Eq "^ +$f/ " "$readme" || problem "$f/ is missing from README's layout"
done

# 2. commands: tokens of the diagram's cli/ line.
read -ra cli_line <<<"$(grep -E '^ *cli/ ' diagram | head -n 1)"
[ ${#cli_line[@]} -gt 1 ] || fail "the diagram of docs/ARCHITECTURE.md has no cli/ line"
on_cli_line() {
	local w
	for w in "${cli_line[@]:1}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}
# Registered in src/cli: the .name of each command a file registers.
registered=$(for f in "$top"/src/cli/*.c; do
	grep -q 'CLI_COMMAND_REGISTER(' "$f" || continue
	sed -n 's/^ *\.name = "\([a-z0-9-]*\)",.*/\1/p' "$f"
done | sort -u)
# Listed by `raidlab help`: the first word of each indented line of its
# "commands" section, which ends at the first blank line.
"$RAIDLAB" help >help.txt
listed=$(awk '/^[Cc]ommands/ { on = 1; next } on && /^$/ { exit } on && /^  +[a-z]/ { print $1 }' help.txt | sort -u)
[ -n "$registered" ] || fail "no CLI_COMMAND_REGISTER with a .name in src/cli"
[ -n "$listed" ] || { cat help.txt; fail "'raidlab help' lists no commands"; }
for c in $registered; do
	grep -qx -- "$c" <<<"$listed" || problem "command $c is registered in src/cli but 'raidlab help' does not list it"
done
for c in $(printf '%s\n' $registered $listed | sort -u); do
	on_cli_line "$c" || problem "command $c is missing from the cli/ line of docs/ARCHITECTURE.md"
done

# 3. src/serve/serve.h: the layout comment ("Layers inside src/serve/:" to
# the end of the comment) names files that exist, and every file there.
serve=$top/src/serve
awk '/Layers inside src\/serve\// { on = 1; next } on && /\*\// { exit } on' "$serve/serve.h" >layout
[ -s layout ] || fail "src/serve/serve.h has no 'Layers inside src/serve/:' comment"
grep -Eo '[A-Za-z0-9_/]+\.[ch]\b' layout | sort -u >named
[ -s named ] || fail "the layout comment of src/serve/serve.h names no file"
while read -r f; do
	case $f in
	*/*) p=$top/src/$f ;;
	*) p=$serve/$f ;;
	esac
	[ -f "$p" ] || problem "src/serve/serve.h names $f, which does not exist"
done <named
for p in "$serve"/*.[ch]; do
	f=$(basename "$p")
	[ "$f" = serve.h ] && continue
	grep -qx -- "$f" named || problem "src/serve/$f is missing from the layout comment of src/serve/serve.h"
done

[ "$errors" -eq 0 ] || fail "$errors structure doc(s) out of step with the tree"
# outside git the rule was checked but not its self-test above
[ -n "${DOCS_STRUCTURE_INNER:-}" ] || in_git ||
	skip_env "checked, but $top is no git checkout: the self-test (ignored outputs in a scratch clone) needs one"
echo "ok: $n folders, $(wc -w <<<"$registered") commands, $(wc -l <named) serve files checked"
