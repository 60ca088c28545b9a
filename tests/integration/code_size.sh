#!/usr/bin/env bash
# Size limits of src/: no .c file over 1,200 lines, no function over 150
# (from the first line of its signature to its closing brace).  The longest
# files and functions are printed either way, so growth shows before it
# fails.  Functions are found as the code is formatted (.clang-format): a
# signature starting in column 0, the body's braces alone in column 0.
#
# The measurement first runs on a file of its own making with one function
# over the limit and must report it, so it is known to be able to fail.
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
file_max=1200
func_max=150

# functions FILE...: "LINES FILE:LINE NAME" for every function definition.
functions() {
	awk 'FNR == 1 { sig = 0; body = 0 }
	     /^[A-Za-z_]/ && /\(/ && !/;[ \t]*$/ && !body { sig = FNR; head = $0 }
	     /^\{/ && sig && !body { body = 1; start = sig }
	     /^\}/ && body {
		name = head; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
		printf "%d %s:%d %s\n", FNR - start + 1, FILENAME, start, name
		body = 0; sig = 0
	     }' "$@"
}

# 1. the measurement finds a long function, and only the function
{
	printf '/* a file */\nstatic int small(void)\n{\n\treturn 0;\n}\n\n'
	printf 'int long_one(int a,\n             int b)\n{\n'
	for i in $(seq 1 $((func_max - 4))); do printf '\ta += b * %d;\n' "$i"; done
	printf '\treturn a;\n}\n'
} >probe.c
functions probe.c >probe.out
grep -qx "$((func_max + 1)) probe.c:7 long_one" probe.out ||
	{ cat probe.out; fail "the measurement does not find a function of $((func_max + 1)) lines"; }
grep -qx "4 probe.c:2 small" probe.out || { cat probe.out; fail "the measurement misses a small function"; }

# 2. src/
mapfile -t files < <(cd "$top" && find src -name '*.c' | sort)
[ ${#files[@]} -gt 0 ] || fail "no .c files under $top/src"
(cd "$top" && wc -l "${files[@]}") | grep -v ' total$' | sort -rn >"$T/sizes"
(cd "$top" && functions "${files[@]}") | sort -rn >"$T/funcs"
echo "longest files (limit $file_max lines):"
head -n 5 "$T/sizes" | sed 's/^/  /'
echo "longest functions (limit $func_max lines):"
head -n 10 "$T/funcs" | sed 's/^/  /'
bad=0
while read -r n f; do
	[ "$n" -gt "$file_max" ] || break
	echo "FAIL: $f has $n lines, over $file_max" >&2
	bad=$((bad + 1))
done <"$T/sizes"
while read -r n at name; do
	[ "$n" -gt "$func_max" ] || break
	echo "FAIL: $name ($at) has $n lines, over $func_max" >&2
	bad=$((bad + 1))
done <"$T/funcs"
[ "$bad" -eq 0 ] || fail "$bad file(s) or function(s) over the size limits"
echo "ok: ${#files[@]} files, $(wc -l <"$T/funcs") functions within the limits"
