#!/usr/bin/env bash
# The structure docs follow the tree: every folder under src/ appears in
# docs/ARCHITECTURE.md's diagram and README's layout, every other top-level
# folder in README's layout; every command (those
# `raidlab help` lists and those src/cli registers) appears on the diagram's
# cli/ line; the layout comment of src/serve/serve.h names only files that
# exist and every file of src/serve/.
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
arch=$top/docs/ARCHITECTURE.md
readme=$top/README.md
errors=0
problem() { echo "docs_structure: $*" >&2; errors=$((errors + 1)); }

# The ARCHITECTURE diagram: the first fenced block.
awk '/^```/ { n++; next } n == 1' "$arch" >diagram
[ -s diagram ] || fail "$arch: no diagram (fenced block) found"

# 1. folders: " NAME/" opening a diagram line; "    src/NAME/" in README.
n=0
for d in "$top"/src/*/; do
	f=$(basename "$d")
	n=$((n + 1))
	grep -Eq "^ *$f/ " diagram || problem "src/$f/ is missing from the diagram of docs/ARCHITECTURE.md"
	grep -Eq "^ +src/$f/ " "$readme" || problem "src/$f/ is missing from README's layout"
done
[ "$n" -gt 0 ] || fail "no folders under $top/src"
# and every top-level folder of the project (not build output) in README's layout
for d in "$top"/*/; do
	f=$(basename "$d")
	case $f in build* | src) continue ;; esac # src: folder by folder above
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
echo "ok: $n folders, $(wc -w <<<"$registered") commands, $(wc -l <named) serve files checked"
