#!/usr/bin/env bash
# Traces at their own concurrency: a fio job at 50k IOPS or more on a loop
# device is recorded completely (as many requests as fio issued, the
# in-flight depth noted), and its replay - at the recorded issue times,
# with the recorded depth, nothing given - takes the job's own time within
# 10 % on another loop device and on a simulated SSD (at depth 1 the
# simulated replay falls behind the recorded times).
# test-alone: the kernel's block tracer is one for the whole machine, and the fio job must reach 50k IOPS
. "$(dirname "$0")/lib.sh"
need fio
need jq
need losetup
[ "$(id -u)" = 0 ] || skip_env "needs root for loop devices and the kernel's block tracing"
[ -e /dev/loop-control ] || skip_env "no loop devices"

truncate -s 256M disk.img replay.img
LOOP=$(losetup -f --show disk.img) || skip_env "no free loop device"
cleanup_hooks+=("losetup -d $LOOP")
LOOP2=$(losetup -f --show replay.img) || skip_env "no second free loop device"
cleanup_hooks+=("losetup -d $LOOP2")

# The job must reach 50k IOPS while recorded; on a busy machine it may not,
# so up to three attempts (each fully checked below once one is fast enough).
for attempt in 1 2 3; do
	rc=0
	"$RAIDLAB" trace record "$LOOP" -o job.iolog -- \
		fio --name=fast --filename="$LOOP" --direct=1 --ioengine=libaio --rw=randread --bs=4k \
		--iodepth=64 --iodepth_batch_submit=16 --iodepth_batch_complete_min=8 --rate_iops=52000 --time_based \
		--runtime=3 --output-format=json --output=fio.json 2>rec.err || rc=$?
	if [ $rc -ne 0 ] && grep -q "offers no block tracing\|cannot mount tracefs\|Operation not permitted" rec.err; then
		cat rec.err
		skip_env "this kernel does not let the block tracing be used"
	fi
	[ $rc -eq 0 ] || { cat rec.err; fail "trace record exited $rc"; }
	iops=$(jqv fio.json '.jobs[0].read.iops')
	awk -v i="$iops" 'BEGIN { exit !(i >= 50000) }' && break
	echo "attempt $attempt: fio ran at $iops IOPS while recorded"
done
issued=$(jqv fio.json '.jobs[0].read.total_ios')
job_s=$(awk -v ms="$(jqv fio.json '.jobs[0].job_runtime')" 'BEGIN { print ms / 1000 }')
awk -v i="$iops" 'BEGIN { exit !(i >= 50000) }' ||
	fail "fio ran at $iops IOPS while recorded: the test needs 50k or more (machine too busy?)"
recorded=$(grep -c ' read ' job.iolog)
[ "$recorded" = "$issued" ] || fail "recorded $recorded requests, fio issued $issued (at $iops IOPS)"
depth=$(sed -n 's/^# in-flight depth \([0-9]*\)$/\1/p' job.iolog)
[ -n "$depth" ] && [ "$depth" -ge 8 ] && [ "$depth" -le 64 ] ||
	fail "recorded in-flight depth '$depth', the job kept up to 64 in flight in batches of 16"

# replay on the same kind of target: another loop device (wall-clock time on
# a shared machine: the best of up to three replays).  A sanitizer build is
# several times slower per request, so there only the requests are checked.
timed=1
case "${RAIDLAB_BUILD:-}" in *san*) timed=0 ;; esac
for attempt in 1 2 3; do
	"$RAIDLAB" run --trace job.iolog --filename="$LOOP2" --force-destroy --json loop.json --quiet ||
		fail "replay on $LOOP2 failed"
	[ "$(jqv loop.json '.jobs[0].read.ios')" = "$issued" ] || fail "the replay issued other requests"
	rt=$(jqv loop.json '.jobs[0].runtime_s')
	[ $timed = 1 ] || break
	awk -v a="$rt" -v b="$job_s" 'BEGIN { exit !(a > b * 0.9 && a < b * 1.1) }' && break
	echo "attempt $attempt: replay took $rt s, the job $job_s s"
done
[ $timed = 0 ] || awk -v a="$rt" -v b="$job_s" 'BEGIN { exit !(a > b * 0.9 && a < b * 1.1) }' ||
	fail "replay on a loop device took $rt s, the job $job_s s (more than 10 % apart)"

# on a simulated SSD: the recorded depth keeps the recorded times; depth 1 cannot
sim='ssd(850evo)'
"$RAIDLAB" run --trace job.iolog --target "$sim" --json sim.json --quiet
rt=$(jqv sim.json '.jobs[0].runtime_s')
awk -v a="$rt" -v b="$job_s" 'BEGIN { exit !(a > b * 0.9 && a < b * 1.1) }' ||
	fail "replay on $sim took $rt s of simulated time, the job $job_s s (more than 10 % apart)"
"$RAIDLAB" run --trace job.iolog --iodepth=1 --target "$sim" --json sim1.json --quiet
awk -v a="$(jqv sim1.json '.jobs[0].runtime_s')" -v b="$rt" 'BEGIN { exit !(a > b * 1.2) }' ||
	fail "iodepth=1 replay took $(jqv sim1.json '.jobs[0].runtime_s') s, no longer than the recorded depth's $rt s: the test shows nothing"
echo "trace_rate: $recorded requests at $iops IOPS, depth $depth, replays $(jqv loop.json '.jobs[0].runtime_s') s (loop), $rt s ($sim), job $job_s s: ok"
