#!/usr/bin/env bash
# Every job file of fio's examples/ (Debian's fio-examples), edited only in
# where and how much by tests/fio-examples/derive.py, is run by fio 3.33 and
# then, if fio completed it, by raidlab in the same way.  No file is chosen
# before fio has run it: the files fio completes here are the corpus.
# raidlab must complete each of them, except those listed with the reason
# in tests/fio-examples/README.md ("Known failures"), and each listed file
# must still fail with the message the list gives (so the list only
# shrinks).  fio's own outcome per file is recorded in
# tests/fio-examples/fio-outcomes.txt; a difference is reported.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need python3
top=$(cd "$(dirname "$0")/../.." && pwd)
src=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
[ -r "$src/fio-seq-read.fio" ] || fail "fio's examples are not in $src (fio-examples)"
python3 "$top/tests/fio-examples/derive.py" "$src" "$T/ex" || fail "derive.py"
export SCRATCH=$T/scratch

# README's known failures: | `FILE` | message raidlab gives (a grep -E pattern) | reason |
declare -A known=()
while IFS='|' read -r _ file msg _; do
	file=$(echo "$file" | tr -d ' `')
	msg=$(echo "$msg" | sed 's/^ *`//; s/` *$//')
	[ -n "$file" ] && known[$file]=$msg
done < <(sed -n '/^## Known failures/,/^## /p' "$top/tests/fio-examples/README.md" | grep '^| `')
# the list may be empty, but its section and table must be there to be read
known_section=$(sed -n '/^## Known failures/,/^## /p' "$top/tests/fio-examples/README.md")
grep -q '^| file | raidlab' <<<"$known_section" ||
	fail "README.md has no known-failures table (parse error?)"

# run TOOL FILE: in a fresh scratch folder and working directory; the exit status
run() {
	rm -rf "$SCRATCH" "$T/wd"
	mkdir -p "$SCRATCH" "$T/wd"
	FIO_PORT=$(free_port) # derive.py's port= of the network examples
	export FIO_PORT
	local rc=0
	(cd "$T/wd" && timeout -k 5 20 "$@" --output-format=json >"$T/out.json" 2>"$T/err") || rc=$?
	# a job process that outlived its parent (some of fio's examples ignore
	# SIGTERM) must not run on beside the rest of the suite
	pkill -KILL -f -- "$T/ex/" 2>/dev/null || true
	return $rc
}

total=0 fio_ok=0 rl_ok=0 bad=""
: >"$T/outcomes"
for f in "$T"/ex/*.fio; do
	name=$(basename "$f")
	total=$((total + 1))
	rc=0
	run fio "$f" || rc=$?
	case $rc in
	0) echo "$name completes" ;;
	124 | 137) echo "$name does not finish in 20 s" ;;
	*) echo "$name fails" ;;
	esac >>"$T/outcomes"
	[ $rc -eq 0 ] || continue
	fio_ok=$((fio_ok + 1))
	rc=0
	run $RAIDLAB run "$f" || rc=$?
	if [ $rc -eq 0 ] &&
		jq -e '.jobs | length >= 1' "$T/out.json" >/dev/null 2>&1; then
		rl_ok=$((rl_ok + 1))
		[ -z "${known[$name]:-}" ] ||
			bad+="$name: runs now; remove it from README.md's known failures"$'\n'
	elif [ -z "${known[$name]:-}" ]; then
		bad+="$name: fio completes it, raidlab exits $rc: $(head -c 300 "$T/err")"$'\n'
	elif ! grep -Eq -- "${known[$name]}" "$T/err"; then
		bad+="$name: fails otherwise than README.md says: $(head -c 300 "$T/err")"$'\n'
	else
		echo "known failure: $name: $(head -1 "$T/err" | cut -c1-160)"
	fi
done
for name in "${!known[@]}"; do
	[ -e "$T/ex/$name" ] || bad+="$name: listed in README.md, but not one of fio's examples"$'\n'
	# (fio's own outcome of a few files varies with the machine's load: a note)
	grep -q "^$name completes" "$T/outcomes" ||
		echo "note: $name is listed in README.md, but fio did not complete it this time"
done
if ! diff -u "$top/tests/fio-examples/fio-outcomes.txt" "$T/outcomes" >"$T/odiff"; then
	echo "note: fio's outcomes differ from tests/fio-examples/fio-outcomes.txt:"
	grep '^[-+][^-+]' "$T/odiff" || true
fi
echo "fio examples: $total files; fio completes $fio_ok; raidlab completes $rl_ok of those" \
	"($((rl_ok * 100 / (fio_ok ? fio_ok : 1)))%), ${#known[@]} listed as known failures"
[ -z "$bad" ] || fail "$(printf '\n%s' "$bad")"
[ "$fio_ok" -ge 20 ] || fail "fio completed only $fio_ok files: is fio working here?"
exit 0
