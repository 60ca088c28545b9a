#!/usr/bin/env bash
# The main job: the comparison table is printed and the report and one
# result per configuration are written (scaled down: 1 pass of 0.2 s).
. "$(dirname "$0")/lib.sh"

$RAIDLAB demo --passes=1 --warmup=0 --duration=0.2 --out-dir res --html rep.html >out.txt 2>err.txt ||
	{ cat err.txt; fail "demo failed"; }
for label in single 'raid0 x2' 'raid0 x3' 'raid1 x2'; do
	grep -q "$label" out.txt || fail "no '$label' in the comparison"
done
grep -q 'SEQ1M Q8T1 read' out.txt && grep -q 'RND4K Q1T1 write' out.txt || fail "tests missing from the table"
[ "$(ls res/*.json | wc -l)" = 4 ] || fail "four results expected"
grep -q '<svg' rep.html || fail "report has no chart"
# raid0 over two drives reads sequentially faster than one drive
s=$(jq '.tests[0].read.mb_s' res/cdm-single.json)
r=$(jq '.tests[0].read.mb_s' res/cdm-raid0_x2.json)
awk -v s="$s" -v r="$r" 'BEGIN { exit !(r > 1.05 * s) }' || fail "raid0 x2 ($r MB/s) not faster than single ($s MB/s)"
echo ok
