#!/usr/bin/env bash
# raidlab advise: the ranked table with capacity and failures survived, the
# degraded figure and the rebuild estimate of every configuration that
# survives a failure, the answer in words, the validation set that backs
# it, read from the configurations advise measured (its --json sweep
# document), on the PERC H730P with 4 850 EVOs made quick (--state fresh,
# --size 4g).  Each seed system's conclusion from advise's default output is
# a test of its own: advise_perc.sh, advise_amd.sh, advise_sm951.sh,
# advise_vertex.sh, advise_x25v.sh.
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

# an unvalidated pairing says it extrapolates
$RAIDLAB advise --drives 2xsu900 --controller perc-h730p --workload cdm5 -j 2 --store st \
	--state fresh --size 4g >ext.out 2>ext.err || { cat ext.err; fail "advise su900"; }
grep -q '^How sure: no validation set measures su900 behind perc-h730p' ext.out ||
	fail "no extrapolation note"
echo ok
