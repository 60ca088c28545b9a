#!/usr/bin/env bash
# Traces: `raidlab trace record` on a loop device under a fio job, `serve
# --record` under qemu-img convert, import of fio iologs and blkparse text,
# replay with `run --trace` (recorded timing, as fast as possible, offsets
# wrapped onto a smaller target), fio replaying what raidlab wrote, the
# replay of a recorded job giving that job's figures on a simulated target,
# and malformed traces refused with the line and field named.
# test-alone: the kernel's block tracer is one for the whole machine
. "$(dirname "$0")/lib.sh"
need fio
need jq
need losetup
need qemu-img
[ "$(id -u)" = 0 ] || skip_env "needs root for loop devices and the kernel's block tracing"
[ -e /dev/loop-control ] || skip_env "no loop devices"

# --- malformed input: line and field named, exit 1, nothing written ---
printf 'fio version 3 iolog\n0 f add\n10 f write 4096 x\n' >bad1.iolog
expect_fail 1 "bad1.iolog:3: field 5 (length)" "$RAIDLAB" trace summary bad1.iolog
printf 'fio version 2 iolog\nf add\nf wait 100 0\nf scribble 0 4096\n' >bad2.iolog
expect_fail 1 "bad2.iolog:4: field 2 (action)" "$RAIDLAB" trace import bad2.iolog -o out.iolog
[ ! -e out.iolog ] || fail "import wrote a file from a malformed trace"
printf 'fio version 3 iolog\n5 f wait 100 0\n' >bad3.iolog
expect_fail 1 "bad3.iolog:2: field 3 (action)" "$RAIDLAB" trace summary bad3.iolog
printf '  7,0    0    1   0.000000000  100  Q  WS 8 + 8 [fio]\n  7,0    0    2   0.x  100  Q  WS 16 + 8 [fio]\n' >bad4.txt
expect_fail 1 "bad4.txt:2: field 4 (time)" "$RAIDLAB" trace summary bad4.txt
printf '  7,0    0    1   0.000000000  100  Q  WS 8 + eight [fio]\n' >bad5.txt
expect_fail 1 "bad5.txt:1: field 10 (sectors)" "$RAIDLAB" trace summary bad5.txt
expect_fail 1 "read_iolog: bad1.iolog:3" "$RAIDLAB" run --trace bad1.iolog --target 'mem(size=1m)'
printf 'fio version 4 iolog\n' >bad6.iolog
expect_fail 1 "versions 2 and 3" "$RAIDLAB" trace summary bad6.iolog

# --- blkparse text: Q events only, sectors to bytes, relative times ---
cat >bp.txt <<'EOF'
  7,0    1        1     5.000000000  2463  Q  WS 984 + 8 [fio]
  7,0    1        2     5.000001000  2463  G  WS 984 + 8 [fio]
  7,0    1        3     5.000002000  2463  D  WS 984 + 8 [fio]
  7,0    1        4     5.002000000  2463  Q   R 2048 + 16 [fio]
  7,0    1        5     5.003000000  2463  Q  FWS [fio]
  7,0    0        6     5.004000000  2463  C   R 2048 + 16 [0]
CPU1 (7,0):
 Reads Queued:           1,        8KiB  Writes Queued:           1,        4KiB
EOF
"$RAIDLAB" trace import bp.txt -o bp.iolog 2>imp.err
[ "$(grep -c ' write 503808 4096$' bp.iolog)" = 1 ] || { cat bp.iolog; fail "blkparse Q write not imported"; }
grep -q '^2000 bp.txt read 1048576 8192$' bp.iolog || { cat bp.iolog; fail "blkparse read not at 2000 us"; }
grep -q '^3000 bp.txt sync 0 0$' bp.iolog || { cat bp.iolog; fail "blkparse flush not imported"; }
[ "$(grep -c -E ' (read|write|sync) ' bp.iolog)" = 3 ] || { cat bp.iolog; fail "events other than Q imported"; }
# a preflush alone, with the sector but no data, is a flush without a range (the
# fuzzer found one imported as 'sync 503808 0')
printf '  7,0    1        1     5.000000000  2463  Q  FWS 984 + 0 [fio]\n' >pf.txt
"$RAIDLAB" trace import pf.txt -o pf.iolog || fail "import of a preflush"
grep -q '^0 pf.txt sync 0 0$' pf.iolog || { cat pf.iolog; fail "a preflush with a sector kept it"; }

# --- record a fio job on a loop device ---
truncate -s 64M disk.img
LOOP=$(losetup -f --show disk.img)
cleanup_hooks+=("losetup -d $LOOP")
rc=0
"$RAIDLAB" trace record "$LOOP" -o job.iolog -- \
	fio --name=seq --filename="$LOOP" --direct=1 --ioengine=libaio --rw=write --bs=64k \
	--size=8m --iodepth=1 --output=/dev/null 2>rec.err || rc=$?
if [ $rc -ne 0 ] && grep -q "offers no block tracing\|cannot mount tracefs\|Operation not permitted" rec.err; then
	cat rec.err
	skip_env "this kernel does not let the block tracing be used"
fi
[ $rc -eq 0 ] || { cat rec.err; fail "trace record exited $rc"; }
head -1 job.iolog | grep -qx 'fio version 3 iolog' || fail "record did not write iolog v3"
writes=$(grep -c " write " job.iolog)
bytes=$(awk '$3 == "write" { s += $5 } END { print s }' job.iolog)
[ "$bytes" = $((8 << 20)) ] || { head job.iolog; fail "recorded $bytes bytes of writes ($writes requests), the job wrote 8 MiB"; }
grep -q "sequential: 9[0-9]\.[0-9]%\|sequential: 100\.0%" rec.err || { cat rec.err; fail "summary does not call the sequential job sequential"; }
[ "$(cat /sys/kernel/tracing/current_tracer 2>/dev/null || echo nop)" = nop ] || fail "record left the blk tracer selected"

# fio replays raidlab's trace
truncate -s 64M replay.img
fio --name=replay --read_iolog=job.iolog --replay_redirect="$PWD/replay.img" --replay_no_stall=1 \
	--output-format=json --output=fio.json 2>fio.err || { cat fio.err; fail "fio could not replay the trace"; }
[ "$(jq '.jobs[0].write.io_bytes' fio.json)" = $((8 << 20)) ] || fail "fio replayed $(jq '.jobs[0].write.io_bytes' fio.json) bytes"

# the replay of the recorded job gives the job's figures on a simulated target (within 2 %)
sim='ssd(850evo)'
"$RAIDLAB" run --name=seq --rw=write --bs=64k --size=8m --iodepth=1 --target "$sim" --json job.json --quiet
"$RAIDLAB" run --trace job.iolog --replay_no_stall=1 --iodepth=1 --target "$sim" --json rep.json --quiet
jmb=$(jqv job.json '.jobs[0].write.mb_s')
rmb=$(jqv rep.json '.jobs[0].write.mb_s')
awk -v a="$jmb" -v b="$rmb" 'BEGIN { r = b / a; exit !(r > 0.98 && r < 1.02) }' ||
	fail "replay gave $rmb MB/s, the job $jmb MB/s (more than 2 % apart)"
[ "$(jqv rep.json '.jobs[0].write.bytes')" = $((8 << 20)) ] || fail "replay wrote other bytes than the trace"

# recorded timing on a simulated clock: a trace with gaps takes its recorded time
printf 'fio version 3 iolog\n0 f add\n0 f read 0 4096\n500000 f read 4096 4096\n1000000 f read 8192 4096\n' >slow.iolog
"$RAIDLAB" run --trace slow.iolog --target "$sim" --json slow.json --quiet
awk -v t="$(jqv slow.json '.jobs[0].runtime_s')" 'BEGIN { exit !(t >= 1.0 && t < 1.1) }' ||
	fail "recorded timing: ran $(jqv slow.json '.jobs[0].runtime_s') s of simulated time, the trace spans 1 s"
"$RAIDLAB" run --trace slow.iolog --replay_time_scale=200 --target "$sim" --json fast.json --quiet
awk -v t="$(jqv fast.json '.jobs[0].runtime_s')" 'BEGIN { exit !(t >= 0.5 && t < 0.6) }' ||
	fail "replay_time_scale=200: ran $(jqv fast.json '.jobs[0].runtime_s') s, expected half of 1 s"

# offsets beyond a smaller target wrap round it: every request still runs
"$RAIDLAB" run --trace job.iolog --replay_no_stall=1 --target 'mem(size=1m)' --json small.json --quiet
[ "$(jqv small.json '.jobs[0].write.ios')" = "$writes" ] || fail "a smaller target lost requests"

# --- serve --record under qemu-img convert ---
head -c $((4 << 20)) /dev/urandom >src.raw
"$RAIDLAB" serve --no-status --socket nbd.sock --ready-file ready --record served.iolog 'mem(size=16m)' \
	>serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 200); do [ -e ready ] && break; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
[ -e ready ] || { cat serve.err; fail "server did not start"; }
qemu-img convert -n -f raw -O raw src.raw "nbd+unix:///?socket=$PWD/nbd.sock" ||
	fail "qemu-img convert failed"
kill -TERM $SPID
wait $SPID || { cat serve.err; fail "serve exited non-zero"; }
head -1 served.iolog | grep -qx 'fio version 3 iolog' || fail "serve --record wrote no iolog v3"
sbytes=$(awk '$3 == "write" { s += $5 } END { print s + 0 }' served.iolog)
[ "$sbytes" -ge $((4 << 20)) ] || { head served.iolog; fail "serve --record holds $sbytes bytes of writes, qemu-img wrote 4 MiB"; }
"$RAIDLAB" run --trace served.iolog --replay_no_stall=1 --target "$sim" --json srv.json --quiet
[ "$(jqv srv.json '.jobs[0].write.bytes')" = "$sbytes" ] || fail "raidlab's replay of the served trace differs"
truncate -s 16M served.img
fio --name=served --read_iolog=served.iolog --replay_redirect="$PWD/served.img" --replay_no_stall=1 \
	--output-format=json --output=sfio.json 2>sfio.err || { cat sfio.err; fail "fio could not replay the served trace"; }
[ "$(jq '.jobs[0].write.io_bytes' sfio.json)" = "$sbytes" ] || fail "fio's replay of the served trace differs"
echo "trace: ok"
