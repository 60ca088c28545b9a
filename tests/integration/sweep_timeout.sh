#!/usr/bin/env bash
# A sweep point that runs too long is killed at its limit, recorded as
# failed ("timed out after N s") and the sweep goes on; the store keeps the
# timeout, so the same command does not run it again, and a larger limit
# does.  The default limit follows the points of the same workload that
# finished: a point still running at 10x the slowest of them (at least
# 30 s) is stopped.  The limits are far (10 s, 30 s) from the quick
# points' milliseconds, so a busy machine does not fail them.  The slow
# points are real: a job that writes 4 KiB at
# a time for ten hours of simulated time, and one that writes a whole
# 500 GB drive 4 KiB at a time.
# test-timeout: 600
# test-alone: the default limit follows how long the quick point took; other tests beside it stretch that past the 30 s floor
. "$(dirname "$0")/lib.sh"
need jq

cat >slow.fio <<'EOF2'
[long]
rw=randwrite
bs=4k
iodepth=32
time_based=1
runtime=10h
EOF2
# the quick workload: 1 MiB written, a few milliseconds of work
printf '[quick]\nrw=write\nbs=64k\nsize=1m\n' >quick.fio
spec='raid0(ssd(850evo) x{1,2})'
opts=(-j 4 --store st)
rc=0
"$RAIDLAB" sweep quick.fio slow.fio --target "$spec" "${opts[@]}" --timeout 10 --json a.json 2>a.err >/dev/null || rc=$?
[ "$rc" = 1 ] || { cat a.err; fail "a sweep with points that timed out exited $rc, expected 1"; }
[ "$(jq '[.points[] | select(.workload == "quick.fio")] | length' a.json)" = 2 ] ||
	{ cat a.err; fail "the points that finish did not all finish beside the slow ones"; }
[ "$(jq '[.failed[] | select(.workload == "slow.fio" and .reason == "timed out after 10 s")] | length' a.json)" = 2 ] ||
	{ jq .failed a.json; fail "the slow points are not failed with 'timed out after 10 s'"; }
grep -q 'slow.fio): failed: timed out after 10 s' a.err || { cat a.err; fail "no progress line for the timeout"; }
# the killed workers are gone (their command line names this test's store)
! pgrep -f -- "--store st --timeout 10" >/dev/null || fail "a timed-out worker is still running"
[ "$(grep -l '"timed_out_after_s"' st/*.json | wc -l)" = 2 ] || fail "the store does not keep the two timeouts"

# the same command again: nothing to run, the timeouts stay failures
rc=0
"$RAIDLAB" sweep quick.fio slow.fio --target "$spec" "${opts[@]}" --timeout 10 --json b.json 2>b.err >/dev/null || rc=$?
[ "$rc" = 1 ] || { cat b.err; fail "the resumed sweep exited $rc, expected 1 (two points failed)"; }
grep -q '2 in the store, 0 to run' b.err || { cat b.err; fail "the resumed sweep ran a point again"; }
grep -q 'timed out in an earlier run' b.err || { cat b.err; fail "the resumed sweep does not say why it runs nothing"; }
[ "$(jq '[.failed[] | select(.reason | test("timed out after 10 s in an earlier run"))] | length' b.json)" = 2 ] ||
	{ jq .failed b.json; fail "the stored timeouts are not reported as failed"; }

# a larger limit runs them again (and they time out at it)
rc=0
"$RAIDLAB" sweep quick.fio slow.fio --target "$spec" "${opts[@]}" --timeout 11s 2>c.err >/dev/null || rc=$?
[ "$rc" = 1 ] || { cat c.err; fail "the sweep with a larger limit exited $rc"; }
grep -q '2 in the store, 2 to run' c.err || { cat c.err; fail "a larger --timeout did not run the timed-out points again"; }
[ "$(grep -c 'failed: timed out after 11 s' c.err)" = 2 ] || { cat c.err; fail "the rerun did not time out at 11 s"; }

expect_fail 2 '--timeout' "$RAIDLAB" sweep cdm5 --target "$spec" --timeout 1x
expect_fail 2 '--timeout needs a value' "$RAIDLAB" sweep cdm5 --target "$spec" --timeout

# the default: the small drive's whole writes finish at once, the 500 GB
# one's are 13 billion simulated requests, hours on any machine, and are
# stopped at the floor of the limit
cat >whole.fio <<'EOF2'
[whole]
rw=write
bs=4k
iodepth=4
loops=100
EOF2
rc=0
"$RAIDLAB" sweep whole.fio --target 'ssd(850evo, capacity={64m,500g})' -j 2 --no-store --json d.json 2>d.err >/dev/null || rc=$?
[ "$rc" = 1 ] || { cat d.err; fail "the sweep under the default limit exited $rc, expected 1"; }
[ "$(jqv d.json '.points[0].label')" = capacity=64m ] || { cat d.err; fail "the small drive's point did not finish"; }
[ "$(jqv d.json '.failed[0].reason')" = "timed out after 30 s" ] ||
	{ jq .failed d.json; fail "the default limit did not stop the long point at 30 s"; }
echo "sweep_timeout: ok"
