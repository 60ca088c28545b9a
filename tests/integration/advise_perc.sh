#!/usr/bin/env bash
# Seed system: four Samsung 850 EVO behind a Dell PERC H730P, from raidlab
# advise's default output (the test area twice the largest cache in the
# stack, the drives steady: no TRIM reaches members behind the PERC).  The review's conclusions: the write policy moves writes
# more than the level does (write-back against write-through), raid10 pays
# for its mirror on writes, and past the cache four striped members take
# writes faster than one (the cache does not decide).
# test-timeout: 1800
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB advise --drives 4x850evo --controller perc-h730p -j 2 --store st \
	--json p.json >p.out 2>p.err || { cat p.err; fail "advise perc-h730p"; }
# the area is past every cache: twice the largest (the drives' TurboWrite and
# buffer here, larger than the controller's 2 GB), so more than 4 GiB
area=$(jq '.advise.size_bytes' p.json)
[ "$area" -gt $((4 << 30)) ] && grep -q '^test area [0-9.]* GiB (2x the largest cache' p.out ||
	{ head -3 p.out; fail "the test area ($area bytes) is not sized past the caches"; }
w() { jq -r --arg l "$1" '.advise.ranking[] | select(.label == $l) | .write_mb_s' p.json; }
more() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a > b * f) }'; }
b0=$(w 'raid0 x4 write=back read=none chunk=64k spare=0%')
t0=$(w 'raid0 x4 write=through read=none chunk=64k spare=0%')
t10=$(w 'raid10 x4 write=through read=none chunk=64k spare=0%')
b1=$(w 'single write=back read=none spare=0%')
echo "perc: write MB/s raid0 x4 back $b0, through $t0; raid10 x4 through $t10; single back $b1"
awk -v b="$b0" -v t="$t0" -v r="$t10" 'BEGIN { exit !(b / t > t / r) }' ||
	fail "the write policy does not move writes more than the level"
more "$t0" "$t10" 1.2 || fail "raid10 does not pay for its mirror on writes ($t10 against raid0 $t0)"
more "$b0" "$b1" 1.5 || fail "past the cache, raid0 x4 write-back writes less than 1.5x one drive"
grep -q '^Writes: the best write-back configuration writes ' p.out || fail "the answer does not weigh the policy"
echo ok
