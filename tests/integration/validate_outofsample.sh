#!/usr/bin/env bash
# The out-of-sample sets: published measurements that no parameter of any
# profile was set from (validation/README.md, "Out-of-sample sets").  Each
# is found by validate --list, carries no "fit" anywhere (so every cell
# and finding is out-of-sample), replays with its figures in the JSON and
# holds the agreement its thresholds record; a change to the model that
# moves one of them past its threshold fails here.
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles RAIDLAB_VALIDATION=$top/validation

sets=(pm9a3-md-raid0-fio)
for s in "${sets[@]}"; do
	$RAIDLAB validate --list | grep -qx "$s" || fail "validate --list does not find $s"
	jq -e '[.. | objects | select(has("fit"))] | length == 0' "$top/validation/$s.json" >/dev/null ||
		fail "$s: a cell or finding carries \"fit\"; an out-of-sample set has none"
done

rc=0
$RAIDLAB validate "${sets[@]}" -j 1 --json v.json >out.txt 2>err.txt || rc=$?
cat out.txt
[ "$rc" -eq 0 ] || { cat err.txt; fail "validate of the out-of-sample sets exited $rc"; }
jq -e 'all(.sets[]; .summary.pass and .summary.in_sample.cells == 0
	and .summary.out_of_sample.cells == .summary.cells)' v.json >/dev/null ||
	fail "an out-of-sample set fails or reports in-sample cells"

# pm9a3-md-raid0-fio: fio's 4 KiB random reads at QD1 on md RAID 0 of two
# PM9A3 published 57.2 MB/s; the figure comes from a simulated run, within
# the set's 10 %, and the same as raidlab run gives for the configuration
sim=$(jq -r '.sets[] | select(.name == "pm9a3-md-raid0-fio") | .configs[0].cells[0].simulated' v.json)
awk -v s="$sim" 'BEGIN { r = s / 57.2; exit !(r > 0.9 && r < 1.1) }' ||
	fail "pm9a3-md-raid0-fio: simulated $sim MB/s, not within 10 % of the published 57.2"
spec=$(jq -r '.sets[] | select(.name == "pm9a3-md-raid0-fio") | .configs[0].spec' v.json)
$RAIDLAB run cdm --target "$spec" --size=500m --passes=1 --json replay.json --quiet >/dev/null ||
	fail "raidlab run cdm --target $spec failed"
got=$(jq -r '.tests[] | select(.name == "RND4K Q1T1") | .read.mb_s' replay.json)
[ "$got" = "$sim" ] || fail "raidlab run gives $got MB/s, validate said $sim"
echo "validate out-of-sample: ok (pm9a3-md-raid0-fio: $sim MB/s against 57.2 published)"
