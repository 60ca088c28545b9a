#!/usr/bin/env bash
# The command line: help, version, usage errors (exit 2; a job run's 1, as
# fio's) with clear messages.
. "$(dirname "$0")/lib.sh"

# (outputs are captured first: grep -q closing a pipe early would kill the writer)
out=$($RAIDLAB --version); grep -q '^raidlab [0-9]' <<<"$out" || fail "--version"
out=$($RAIDLAB --help); grep -q 'run ' <<<"$out" || fail "--help lists run"
for c in run info demo help; do
	out=$($RAIDLAB help $c); grep -q "usage: raidlab $c" <<<"$out" || fail "help $c"
done
out=$($RAIDLAB help targets); grep -q '^  mem ' <<<"$out" || fail "help targets lists mem"
out=$($RAIDLAB help options); grep -q 'iodepth' <<<"$out" || fail "help options lists iodepth"

expect_fail 2 "unknown command 'frobnicate'" $RAIDLAB frobnicate
expect_fail 2 "position 12" $RAIDLAB info 'raid0(mem x2'
grep -q '^   *\^' "$T/err" || fail "no caret under the error position"
expect_fail 2 "unknown target type 'nope'" $RAIDLAB info 'nope(1)'
expect_fail 2 "mem has no parameter 'sise'" $RAIDLAB info 'mem(sise=1m)'
expect_fail 1 "iodepth" $RAIDLAB run --target 'mem()' --iodepth=abc
expect_fail 1 "unknown option" $RAIDLAB run --target 'mem()' --iodeptj=3
expect_fail 1 "No job(s) defined" $RAIDLAB run --rw=read
expect_fail 1 "ioengine 'splice' is not supported by raidlab (supported: io_uring, libaio" \
	$RAIDLAB run --target 'null()' --ioengine=splice
expect_fail 1 "does not exist" $RAIDLAB run --target "$T/missing.img" --rw=read
expect_fail 1 "cannot open job file" $RAIDLAB run "$T/nojobs.fio" --target 'mem()'

# info on a mem target and as JSON
$RAIDLAB info 'mem(size=3m)' | grep -q 'size: 3.00 MiB' || fail "info size"
$RAIDLAB info 'mem(size=3m)' --json | jq -e '.type == "mem" and .size_bytes == 3145728' >/dev/null ||
	fail "info --json"

# a job file with [global] and two jobs, target from the file
cat >jobs.fio <<'JOB'
; two jobs on a RAM disk
[global]
target=mem(size=8m)
bs=4k
size=4m

[seq-write]
rw=write

[rand-read]
rw=randread
iodepth=4
JOB
$RAIDLAB run jobs.fio --quiet --json r.json
[ "$(jqv r.json '.jobs | length')" = 2 ] || fail "two jobs in the result"
[ "$(jqv r.json '.jobs[0].name')" = seq-write ] || fail "job names"
[ "$(jqv r.json '.jobs[0].write.bytes')" = 4194304 ] || fail "seq-write bytes"
[ "$(jqv r.json '.jobs[1].read.bytes')" = 4194304 ] || fail "rand-read bytes"
[ "$(jqv r.json '.jobs[1].options.iodepth')" = 4 ] || fail "options recorded"
# --json - puts raidlab's own result on stdout; --output-format=json is fio's shape
$RAIDLAB run --target 'null()' --size=1m --quiet --json - | jq -e '.schema_version == 1' >/dev/null ||
	fail "--json -"
$RAIDLAB run --target 'null()' --size=1m --output-format=json |
	jq -e '.jobs[0].read.io_bytes == 1048576' >/dev/null || fail "--output-format=json"

# Ctrl-C: the job ends early with its figures, the created test file is removed
$RAIDLAB run --target "file($T/int.img, size=16m)" --rw=randread --runtime=60 --time_based \
	--quiet --json int.json &
pid=$!
for _ in $(seq 50); do [ -e int.img ] && break; sleep 0.1; done
sleep 0.5
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 128 ] || fail "interrupted run exited $rc, expected fio's 128"
[ ! -e int.img ] || fail "interrupted run left its test file"
jq -e '.jobs[0].runtime_s < 30 and .jobs[0].read.ios > 0' int.json >/dev/null || fail "interrupted run's result"

# standard output that cannot be written fails the command; --json says the device's reason
for cmd in "info mem(size=1m)" "run --target null() --size=1m"; do
	rc=0
	$RAIDLAB $cmd >/dev/full 2>full.err || rc=$?
	[ $rc = 1 ] || fail "'$cmd' >/dev/full exited $rc"
	grep -q "cannot write standard output: No space left" full.err || { cat full.err; fail "$cmd"; }
done
# (four jobs: a document larger than stdio's buffer fails in the write, not at the close)
TMPDIR=$T expect_fail 1 "cannot write /dev/full: No space left" $RAIDLAB run --target 'null()' \
	--size=1m --numjobs=4 --quiet --json /dev/full

# a request held in a modelled wait (bw=1: a 4 KiB read takes over an hour) does not hold the
# run past its runtime, nor past SIGINT/SIGTERM: the wait is cut short and not counted
rc=0
timeout -s KILL 60 $RAIDLAB run --target 'link(mem(size=16m), bw=1)' --rw=randread --size=1m \
	--runtime=1 --quiet --json bw1.json || rc=$?
[ "$rc" = 0 ] || fail "runtime=1 through link(bw=1) exited $rc (137: still waiting after 60 s)"
jq -e '(.jobs[0].read.ios // 0) == 0 and .jobs[0].errors == 0' bw1.json >/dev/null ||
	fail "a cut request was counted: $(jq -c '.jobs[0].read' bw1.json)"
for sig in INT TERM; do
	for target in 'link(mem(size=16m), bw=1)' 'delay(mem(size=16m), lat=2h)'; do
		$RAIDLAB run --target "$target" --rw=randread --size=1m --quiet &
		pid=$!
		# the handler is in place (SigCgt has SIGINT) and the worker thread runs
		for _ in $(seq 100); do
			caught=$(awk '/^SigCgt/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
			[ $((0x$caught & 2)) != 0 ] && [ "$(ls /proc/$pid/task | wc -l)" -gt 1 ] && break
			sleep 0.05
		done
		kill -$sig $pid
		for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
		kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "SIG$sig: $target still waits after 60 s"; }
		rc=0; wait $pid || rc=$?
		# fio's exit status after SIGINT or SIGTERM
		[ "$rc" = 128 ] || fail "SIG$sig while waiting in $target: exit $rc"
	done
done
# A time-based read of blocks that hold no data (a hole, an unwritten
# extent) completes inside its submit, so each completion's callback posts
# the next before the batch of completions ends: the run must still stop at
# its runtime.  (A batch once took every completion that arrived while it
# ran, its clock never moved, and these ran until killed.)
fallocate -l 16m "$T/unwritten.img"
truncate -s 16m "$T/sparse.img"
for f in unwritten sparse; do
	for e in io_uring libaio psync; do
		timeout 60 $RAIDLAB run --name=hole --filename="$T/$f.img" --rw=randread --bs=4k \
			--iodepth=16 --direct=1 --ioengine=$e --runtime=1 --time_based \
			--output-format=json >"$T/hole.json" ||
			fail "a time-based $e read of a $f file did not end at its runtime (exit $?)"
		jq -e '.jobs[0].read.total_ios > 0' "$T/hole.json" >/dev/null || fail "$e on $f: no reads"
	done
done
echo ok
