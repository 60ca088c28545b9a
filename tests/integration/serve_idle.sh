#!/usr/bin/env bash
# raidlab serve watches a busy client's socket by retrying its read rather
# than sleeping in a poll (docs/serve.md, Performance).  That watch must end
# when the client goes quiet: a server with connected but idle clients, or
# with none, sleeps.  A client does a burst of back-to-back 4 KiB reads
# (checked against what it wrote), then holds its connection open doing
# nothing; a second client connects and never sends a request.  The
# server's CPU time over the quiet second must be next to nothing: a loop
# that kept spinning would show a whole core, busy machine or not.  The
# other way round, a watch that never ends while a client keeps sending
# must not starve the server's other sockets: under fio's 4K QD32 traffic
# a new client (nbdinfo) is answered and SIGTERM stops the server, each
# within seconds rather than when the traffic ends.
. "$(dirname "$0")/lib.sh"
need python3
need fio
need nbdinfo
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"

rm -f ready
"$RAIDLAB" serve 'mem(size=16m)' --socket s.sock --no-status --ready-file ready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 100); do [ -s ready ] && break; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
[ -s ready ] || { cat serve.err; fail "server did not start"; }

# CPU ticks (utime + stime, every thread) of the server.
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$SPID/stat"; }
hz=$(getconf CLK_TCK)

cat >client.py <<'PY'
import struct, sys, time
from nbdraw import hello, need, opt, request, SIMPLE_REPLY_MAGIC
s = hello(sys.argv[1])                                     # fixed newstyle
opt(s, 1)                                                  # EXPORT_NAME ""
size, flags = struct.unpack(">QH", need(s, 10))
need(s, 124)                                               # zero padding
if sys.argv[2] == "quiet":
    open("quiet.started", "w").close()
    time.sleep(float(sys.argv[3]))
    sys.exit(0)
# Simple replies (no STRUCTURED_REPLY asked for): 16-byte header, data.
pattern = bytes(range(256)) * 16
request(s, 1, 1, 0, 4096, pattern)                         # WRITE
magic, err, handle = struct.unpack(">IIQ", need(s, 16))
if magic != SIMPLE_REPLY_MAGIC or err or handle != 1:
    sys.exit("write failed: magic %#x error %d" % (magic, err))
n = int(sys.argv[3])
for i in range(n):
    request(s, 0, 100 + i, 0, 4096)                        # READ
    magic, err, handle = struct.unpack(">IIQ", need(s, 16))
    if magic != SIMPLE_REPLY_MAGIC or err or handle != 100 + i:
        sys.exit("read %d: magic %#x error %d handle %d" % (i, magic, err, handle))
    if need(s, 4096) != pattern:
        sys.exit("read %d returned other data" % i)
open("burst.done", "w").close()
time.sleep(float(sys.argv[4]))
request(s, 2, 2, 0, 0)                                     # DISC
PY

python3 client.py s.sock quiet 4 >quiet.out 2>&1 &
QPID=$!
python3 client.py s.sock burst 5000 4 >burst.out 2>&1 &
BPID=$!
cleanup_hooks+=("kill $QPID $BPID 2>/dev/null")
for _ in $(seq 600); do [ -e burst.done ] && break; kill -0 $BPID 2>/dev/null || break; sleep 0.05; done
[ -e burst.done ] || { cat burst.out; fail "the burst of reads did not complete"; }
[ -e quiet.started ] || { cat quiet.out; fail "the quiet client did not connect"; }
sleep 0.3
t0=$(ticks)
sleep 1.5
t1=$(ticks)
used=$((t1 - t0))
echo "server CPU over 1.5 s with two idle connections: $used ticks of $hz per second"
[ "$used" -le $((hz / 5)) ] || fail "an idle server used $used ticks in 1.5 s (at most $((hz / 5)) expected)"
wait $BPID || { cat burst.out; fail "burst client failed"; }
wait $QPID || { cat quiet.out; fail "quiet client failed"; }

# With no client at all the server sleeps too.
t0=$(ticks)
sleep 1
t1=$(ticks)
[ $((t1 - t0)) -le $((hz / 10)) ] || fail "a server with no clients used $((t1 - t0)) ticks in 1 s"

# Under steady traffic: a new connection and a stop are not held back.
fio --name=t --ioengine=nbd --uri='nbd+unix:///?socket=s.sock' --rw=randread --bs=4k \
	--iodepth=32 --size=16m --runtime=60 --time_based --output-format=terse >fio.out 2>&1 &
FPID=$!
cleanup_hooks+=("kill $FPID 2>/dev/null")
for _ in $(seq 100); do
	[ "$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$SPID/stat")" -gt $((t1 + hz / 4)) ] && break
	sleep 0.05
done
timeout 10 nbdinfo --size 'nbd+unix:///?socket=s.sock' >size.out 2>&1 ||
	{ cat size.out; fail "a new client was not answered during steady traffic"; }
[ "$(cat size.out)" = 16777216 ] || fail "nbdinfo during traffic: $(cat size.out)"
kill -0 $FPID 2>/dev/null || { cat fio.out; fail "fio's traffic had ended before the checks"; }
kill -TERM $SPID
for _ in $(seq 100); do kill -0 $SPID 2>/dev/null || break; sleep 0.1; done
kill -0 $SPID 2>/dev/null && fail "SIGTERM did not stop the server within 10 s of steady traffic"
wait $SPID || { cat serve.err; fail "server exited non-zero after SIGTERM"; }
wait $FPID || true # its server went away mid-run
echo "serve_idle: ok"
