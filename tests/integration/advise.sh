#!/usr/bin/env bash
# raidlab advise: the ranked table with capacity and failures survived, the
# degraded figure and the rebuild estimate of every configuration that
# survives a failure, the answer in words, the validation set that backs
# it; and the seeds' own
# conclusions on their three validated platforms, read from the figures of
# the configurations advise measured (its --json sweep document):
#   PERC H730P with 4 850 EVOs: write-back against write-through moves
#     sequential writes more than raid0 against raid10 does;
#   AMD X399 (RAIDXpert2) with 2 SX8200 Pro: raid0 wins sequential reads
#     and writes, loses nothing at 4K Q1, and raid1 gains no reads;
#   Windows striping of 2 SM951: sequential reads nearly double and 4K QD1
#     does not move.
. "$(dirname "$0")/lib.sh"
need jq

expect_fail 2 "expected NxDRIVE" $RAIDLAB advise --drives four
expect_fail 2 "not amd-nvme-raid" $RAIDLAB advise --drives 2x850evo --platform nosuch
expect_fail 2 "expected throughput" $RAIDLAB advise --drives 2x850evo --goal speed

# fig FILE LABEL TEST DIR: the MB/s of one point's test and direction
fig() { jq -r --arg l "$2" --arg t "$3" --arg d "$4" \
	'.points[] | select(.label == $l) | .result.tests[] | select(.name == $t) | .[$d].mb_s' "$1"; }
# more A B FACTOR: A > B x FACTOR
more() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a > b * f) }'; }

$RAIDLAB advise --drives 4x850evo --controller perc-h730p --workload cdm5 -j 2 --store st \
	--state fresh --size 4g --json perc.json >perc.out 2>perc.err || { cat perc.err; fail "advise perc-h730p"; }
grep -q '^ rank  configuration .*usable GB fails' perc.out || fail "no ranked table"
grep -Eq '^ +=?1  ' perc.out || fail "no first rank"
grep -q '^Answer (throughput): ' perc.out || fail "no answer"
grep -q "^How sure: the validation set 'perc-h730p'" perc.out || fail "the validation set is not named"
grep -q 'Backed by' perc.out && fail "'Backed by' printed"
# every enumerated level is measured, and raid6 of 4 survives two failures
for l in 'single' 'raid0 x4' 'raid1 x2' 'raid10 x4' 'raid5 x3' 'raid6 x4'; do
	grep -q "  $l " perc.out || fail "$l is not in the table"
done
[ "$(jq '[.points[] | select(.label | startswith("raid6 x4"))][0].failures_survived' perc.json)" -eq 2 ] ||
	fail "raid6 survives two failures"
# degraded: measured with member 0 failed; a parity array that rebuilds each
# missing chunk from the rest of its stripe reads sequentially slower
deg=$(fig perc.json 'raid5 x4 write=through chunk=64k, member 0 failed' 'Seq Q32T1' read)
whole=$(fig perc.json 'raid5 x4 write=through read=ahead chunk=64k' 'Seq Q32T1' read)
echo "perc: raid5 x4 seq read $whole, degraded $deg"
more "$whole" "$deg" 1.1 || fail "degraded raid5 reads sequentially as fast as healthy ($deg against $whole)"
grep -Eq '^ +=?[0-9]+  raid10 x4 write=through read=none chunk=64k .* [0-9.]+ +[0-9.]+ (min|h)  [a-z]+$' perc.out ||
	{ cat perc.out; fail "raid10 has no degraded figure or rebuild time in the table"; }
grep -Eq '^ +=?[0-9]+  raid0 x4 write=through read=none chunk=64k .* - +-  [a-z]+$' perc.out ||
	fail "raid0 shows a degraded figure or a rebuild"
grep -q '^With a member failed, .* rebuilding the member takes about ' perc.out || fail "no degraded answer"
# a rebuild per redundant array (raid1 x2; raid10 x4, raid5 x3, x4, raid6 x4 at
# two chunk sizes), none faster than the member's link can take the member
[ "$(jq '[.points[] | select(.workload == "rebuild")] | length' perc.json)" = 9 ] ||
	fail "expected 9 rebuilds, got $(jq '[.points[] | select(.workload == "rebuild")] | length' perc.json)"
jq -e '[.points[] | select(.workload == "rebuild") | .result |
	([.target.tree | .. | objects | select(.type? == "ssd") | .link_bytes_per_s][0]) as $link |
	.tests[0].rebuild | .estimate_s >= .member_bytes / $link and .walk_s > 0 and .estimate_s > .walk_s]
	| all' perc.json >/dev/null || fail "a rebuild estimate is faster than the link or shorter than its walk"
back=$(fig perc.json 'raid0 x4 write=back read=none chunk=64k' 'Seq Q32T1' write)
through=$(fig perc.json 'raid0 x4 write=through read=none chunk=64k' 'Seq Q32T1' write)
r10=$(fig perc.json 'raid10 x4 write=through read=none chunk=64k' 'Seq Q32T1' write)
echo "perc: seq write raid0 back $back, through $through; raid10 through $r10"
# past the 2 GB cache, four members take writes faster than one (the 64 MiB
# area of before tied them all at the cache's figure)
w4=$(jq '.advise.ranking[] | select(.label == "raid0 x4 write=back read=none chunk=64k") | .write_mb_s' perc.json)
w1=$(jq '.advise.ranking[] | select(.label == "single write=back read=none") | .write_mb_s' perc.json)
echo "perc: write-back writes raid0 x4 $w4, single $w1"
more "$w4" "$w1" 1.5 || fail "PERC: raid0 x4 write-back writes less than 1.5x a single drive"
# the policy's factor exceeds the level's
awk -v b="$back" -v t="$through" -v r="$r10" 'BEGIN {
	pol = b / t; lev = (t > r ? t / r : r / t); exit !(pol > lev) }' ||
	fail "PERC: write-back does not matter more than the level for writes"

$RAIDLAB advise --drives 2xsx8200pro --platform amd-nvme-raid --workload cdm5 -j 2 --store st \
	--state fresh --size 1g --json amd.json >amd.out 2>amd.err || { cat amd.err; fail "advise amd-x399"; }
grep -q "^How sure: the validation set 'amd-nvme-raid'" amd.out || fail "amd: backing set"
one=$(fig amd.json 'single' 'Seq Q32T1' read)
two=$(fig amd.json 'raid0 x2' 'Seq Q32T1' read)
mir=$(fig amd.json 'raid1 x2' 'Seq Q32T1' read)
echo "amd: seq read single $one, raid0 x2 $two, raid1 x2 $mir"
more "$two" "$one" 1.3 || fail "AMD: raid0 does not win sequential reads"
more "$(fig amd.json 'raid0 x2' 'Seq Q32T1' write)" "$(fig amd.json 'single' 'Seq Q32T1' write)" 1.3 ||
	fail "AMD: raid0 does not win sequential writes"
more "$(fig amd.json 'raid0 x2' '4K Q1T1' read)" "$(fig amd.json 'single' '4K Q1T1' read)" 0.9 ||
	fail "AMD: raid0 loses at 4K Q1"
more "$one" "$mir" 0.9 || fail "AMD: raid1 gains reads ($mir against $one)"

$RAIDLAB advise --drives 2xsm951 --platform sm951-windows-stripe --workload cdm5 -j 2 \
	--store st --state fresh --size 1g --json win.json >win.out 2>win.err || { cat win.err; fail "advise windows"; }
grep -q "^How sure: the validation set 'sm951-windows-stripe'" win.out || fail "windows: backing set"
s1=$(fig win.json 'single' 'Seq Q32T1' read)
s2=$(fig win.json 'raid0 x2' 'Seq Q32T1' read)
q1=$(fig win.json 'single' '4K Q1T1' read)
q2=$(fig win.json 'raid0 x2' '4K Q1T1' read)
echo "windows: seq read $s1 -> $s2, 4K Q1 read $q1 -> $q2"
more "$s2" "$s1" 1.6 || fail "Windows: striping does not nearly double sequential reads"
more "$q2" "$q1" 0.9 && more "$q1" "$q2" 0.9 || fail "Windows: 4K QD1 moves with striping"

# an unvalidated pairing says it extrapolates
$RAIDLAB advise --drives 2xsu900 --controller perc-h730p --workload cdm5 -j 2 --store st \
	--state fresh --size 4g >ext.out 2>ext.err || { cat ext.err; fail "advise su900"; }
grep -q '^How sure: no validation set measures su900 behind perc-h730p' ext.out ||
	fail "no extrapolation note"
echo ok
