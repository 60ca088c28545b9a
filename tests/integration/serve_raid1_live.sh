#!/usr/bin/env bash
# Faults on a live export: raidlab serve raid1(a.img, b.img) while fio's nbd
# engine writes (and then verifies) through it; `raidlab ctl` fails member 1
# mid-run and rebuilds it while the writes go on.  The client sees no
# error, its verify pass passes, and the two members are identical after.
. "$(dirname "$0")/lib.sh"
need fio
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"

"$RAIDLAB" serve 'raid1(file(a.img, size=64m), file(b.img, size=64m))' --socket s.sock \
	--ctl c.sock --no-status --ready-file ready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 100); do [ -s ready ] && break; sleep 0.05; done
[ -s ready ] || { cat serve.err; fail "server did not start"; }

# About 3 s of random writes (rate-limited so the fault and the rebuild land
# in the middle of them), then fio reads everything back and checks it.
# (bounded: a fio whose server died spins on errors, so it never outlives the test)
timeout -s KILL 120 fio --name=w --ioengine=nbd --uri='nbd+unix:///?socket=s.sock' --rw=randwrite --bs=4k \
	--iodepth=8 --size=64m --rate_iops=5500 --verify=crc32c --do_verify=1 \
	--output-format=json --output=fio.json >fio.err 2>&1 &
FPID=$!
cleanup_hooks+=("kill -9 $FPID 2>/dev/null")
sleep 0.7
"$RAIDLAB" ctl c.sock fail 1 >fail.out || fail "ctl fail"
grep -q "member 1 failed; array degraded" fail.out || { cat fail.out; fail "fail answer"; }
"$RAIDLAB" ctl c.sock status >st1.out
grep -q "degraded; members: 0 in_sync 1 failed" st1.out || { cat st1.out; fail "status after fail"; }
sleep 0.3
"$RAIDLAB" ctl c.sock rebuild 1 --rate 40MB/s --wait >rb.out 2>&1 || { cat rb.out; fail "rebuild"; }
grep -q "rebuild done" rb.out || { cat rb.out; fail "rebuild did not finish"; }
kill -0 $FPID 2>/dev/null || fail "fio ended before the rebuild did: the rebuild was not under load"
"$RAIDLAB" ctl c.sock status >st2.out
grep -q "optimal; members: 0 in_sync 1 in_sync" st2.out || { cat st2.out; fail "status after rebuild"; }

wait $FPID || { cat fio.err; fail "fio failed during fail/rebuild"; }
[ "$(jq '.jobs[0].error' fio.json)" = 0 ] || fail "fio saw an error"
[ "$(jq '.jobs[0].read.io_bytes' fio.json)" -ge 67108864 ] || fail "fio did not verify everything"

# Bad control commands are refused clearly.
expect_fail 2 "needs exactly one member" "$RAIDLAB" ctl c.sock fail
expect_fail 1 "member=K with K in 0..1" "$RAIDLAB" ctl c.sock fail 7
expect_fail 1 "no export named" "$RAIDLAB" ctl c.sock fail 0 --export nosuch

"$RAIDLAB" ctl c.sock stop >/dev/null
wait $SPID || { cat serve.err; fail "server exited non-zero"; }
grep -q "rebuild of member 1 done" serve.err || { cat serve.err; fail "no rebuild report"; }
cmp a.img b.img || fail "members differ after the rebuild"
echo "serve_raid1_live: ok"
