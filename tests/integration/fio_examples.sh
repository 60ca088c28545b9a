#!/usr/bin/env bash
# fio's own example job files (tests/fio-examples) run under raidlab unchanged
# but for where and how much.  The ones that use options raidlab lacks must
# fail with exit status 2 and a message naming the option; every file must
# also pass fio's own --parse-only.
. "$(dirname "$0")/lib.sh"
need jq
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/fio-examples
export SCRATCH=$T/scratch

# file -> the option raidlab names when it refuses the file
declare -A refuse=(
	[cmdprio-bssplit.fio]="option 'bssplit': per-direction bssplit"
	[cross-stripe-verify.fio]="verify=crc32c with numjobs and offset_increment needs offset_increment >= size"
)

total=0 ran=0
for f in "$dir"/*.fio; do
	name=$(basename "$f")
	total=$((total + 1))
	rm -rf "$SCRATCH"
	mkdir -p "$SCRATCH"
	if [ -n "${refuse[$name]:-}" ]; then
		expect_fail 2 "$name:[0-9]*: .*${refuse[$name]}" $RAIDLAB run "$f" --quiet
		continue
	fi
	rc=0
	$RAIDLAB run "$f" --output-format=json >"$T/out.json" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/err"; fail "$name: exit status $rc"; }
	n=$(jq '.jobs | length' "$T/out.json")
	[ "$n" -ge 1 ] || fail "$name: no job in the output"
	jq -e '[.jobs[] | .read.io_bytes + .write.io_bytes + .trim.io_bytes] | add > 0' \
		"$T/out.json" >/dev/null || fail "$name: no I/O"
	ran=$((ran + 1))
done
echo "fio examples: $ran of $total run; $((total - ran)) refused, each naming the option"
[ "$ran" -eq $((total - ${#refuse[@]})) ] || fail "not every file ran"

if command -v fio >/dev/null; then
	# one fio for all files (fio takes several job files)
	fio --parse-only "$dir"/*.fio >/dev/null 2>"$T/err" || { cat "$T/err"; fail "fio --parse-only"; }
fi
exit 0
