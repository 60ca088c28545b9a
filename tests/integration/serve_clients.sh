#!/usr/bin/env bash
# raidlab serve with real NBD clients: nbdinfo (size, block sizes, flags),
# nbdcopy in and out, qemu-img convert/compare, qemu-io (reads, writes,
# discard, zeroes, flush), fio's nbd engine with verify, named exports,
# TCP, read-only, and a graceful stop that flushes.
. "$(dirname "$0")/lib.sh"
need nbdinfo
need nbdcopy
need qemu-img
need qemu-io
need fio
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"

# serve_start ARGS...: start a server in the background, wait until it listens.
serve_start() {
	rm -f ready
	"$RAIDLAB" serve --no-status --ready-file ready "$@" >serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 100); do [ -s ready ] && return 0; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
	cat serve.err; fail "server did not start"
}
# serve_stop: SIGTERM, expect exit 0 and a flush report.
serve_stop() {
	kill -TERM $SPID
	local rc=0; wait $SPID || rc=$?
	[ $rc -eq 0 ] || { cat serve.err; fail "server exited $rc after SIGTERM"; }
	grep -q "flush" serve.err || { cat serve.err; fail "no flush report at stop"; }
}

# --- one export on a unix socket ---
serve_start 'file(disk.img, size=64m)' --socket s.sock
U='nbd+unix:///?socket=s.sock'
nbdinfo --json "$U" >info.json
[ "$(jqv info.json '.exports[0]."export-size"')" = 67108864 ] || fail "nbdinfo size: $(cat info.json)"
[ "$(jqv info.json '.exports[0].block_size_minimum')" = 512 ] || fail "minimum block size"
[ "$(jqv info.json '.exports[0].block_size_maximum')" = 33554432 ] || fail "maximum payload"
for f in can_flush can_fua can_trim can_zero can_multi_conn; do
	[ "$(jqv info.json ".exports[0].$f")" = true ] || fail "nbdinfo: $f not true"
done
[ "$(jqv info.json '.exports[0].is_read_only')" = false ] || fail "export claims read-only"
[ "$(jqv info.json '.structured')" = true ] || fail "structured replies not negotiated"

head -c 40M /dev/urandom >in.img
nbdcopy in.img "$U"
nbdcopy "$U" out.img
cmp -n 41943040 in.img out.img || fail "nbdcopy round trip differs"

qemu-img convert -f raw -O raw "$U" conv.img
qemu-img compare -q -f raw -F raw conv.img "$U" || fail "qemu-img compare: copy differs"
cmp -n 41943040 conv.img in.img || fail "qemu-img convert read other data"

qemu-io -f raw "$U" -c 'write -P 0x5a 1M 64k' -c 'read -P 0x5a 1M 64k' \
	-c 'discard 4M 1M' -c 'write -z 8M 1M' -c 'read -P 0 8M 1M' -c 'flush' \
	-c 'write -P 0x33 -f 12M 4k' -c 'read -P 0x33 12M 4k' >qio.out 2>&1 ||
	{ cat qio.out; fail "qemu-io failed"; }
grep -qi "pattern verification failed\|error" qio.out && { cat qio.out; fail "qemu-io reported an error"; }

timeout -s KILL 120 fio --name=v --ioengine=nbd --uri="$U" --rw=randwrite --bs=4k --size=16m --iodepth=16 \
	--verify=crc32c --do_verify=1 --output-format=json --output=fio.json >fio.err 2>&1 ||
	{ cat fio.err; fail "fio nbd verify job failed"; }
[ "$(jq '.jobs[0].error' fio.json)" = 0 ] || fail "fio reported an error"
[ "$(jq '.jobs[0].read.io_bytes' fio.json)" -ge 16777216 ] || fail "fio verified nothing"
serve_stop
grep -q "export '' .*connection" serve.err serve.out || fail "no end-of-session counters"
# The data is in the file after the server is gone.
cmp -i 20971520 -n 20971520 in.img disk.img || fail "the file does not hold what nbdcopy wrote (20M..40M)"

# --- named exports over TCP, one read-only server ---
serve_start --export a='mem(size=8m)' --export b='mem(size=16m, bs=4096)' --port 0
P=$(cat ready)
[ "$P" -gt 0 ] || fail "no TCP port in the ready file"
nbdinfo --list --json "nbd://localhost:$P" >list.json
[ "$(jq -r '[.exports[]."export-name"] | sort | join(",")' list.json)" = a,b ] ||
	fail "export list: $(cat list.json)"
[ "$(nbdinfo --size "nbd://localhost:$P/b")" = 16777216 ] || fail "export b size"
[ "$(nbdinfo --json "nbd://localhost:$P/b" | jq .exports[0].block_size_minimum)" = 4096 ] ||
	fail "export b minimum block size should be its target's 4096"
head -c 8M /dev/urandom >a.bin
nbdcopy a.bin "nbd://localhost:$P/a"
nbdcopy "nbd://localhost:$P/a" a.out
cmp a.bin a.out || fail "TCP round trip differs"
nbdinfo "nbd://localhost:$P/nosuch" >/dev/null 2>&1 && fail "unknown export accepted"
serve_stop

serve_start 'mem(size=8m)' --socket ro.sock --read-only
[ "$(nbdinfo --json 'nbd+unix:///?socket=ro.sock' | jq .exports[0].is_read_only)" = true ] ||
	fail "read-only flag not advertised"
qemu-io -f raw 'nbd+unix:///?socket=ro.sock' -c 'write 0 4k' >ro.out 2>&1 || true
grep -qi "permission\|read-only\|not permitted" ro.out || { cat ro.out; fail "write to read-only export not refused"; }
serve_stop

# --- a live socket belongs to its server: a second server refuses it; a stale one is replaced ---
mask=$(umask)
umask 000
serve_start 'mem(size=8m)' --socket live.sock --ctl live.ctl
umask "$mask"
LIVE=$SPID
# created owner-only whatever the umask (here 000)
[ "$(stat -c %a live.sock)" = 600 ] || fail "NBD socket mode $(stat -c %a live.sock) under umask 000"
[ "$(stat -c %a live.ctl)" = 600 ] || fail "control socket mode $(stat -c %a live.ctl) under umask 000"
# (under timeout: a server that took the socket over would serve on)
expect_fail 1 "another server is listening" timeout 30 $RAIDLAB serve 'mem(size=4m)' \
	--socket live.sock
expect_fail 1 "another server is listening" timeout 30 $RAIDLAB serve 'mem(size=4m)' \
	--socket other.sock --ctl live.ctl
[ "$(nbdinfo --size 'nbd+unix:///?socket=live.sock')" = 8388608 ] || fail "the first server lost its socket"
$RAIDLAB ctl live.ctl status >/dev/null || fail "the first server lost its control socket"
# status of an export that does not exist is an error, not every export's status
expect_fail 1 "no export named 'nosuch'" $RAIDLAB ctl live.ctl status --export nosuch
kill -KILL $LIVE
wait $LIVE 2>/dev/null || true
[ -S live.sock ] || fail "no stale socket left by SIGKILL"
serve_start 'mem(size=4m)' --socket live.sock --ctl live.ctl
[ "$(nbdinfo --size 'nbd+unix:///?socket=live.sock')" = 4194304 ] || fail "stale socket not replaced"
serve_stop

# --- write-back data lost (the destage fails): the flush gets EIO and the server fails ---
serve_start "cache(faulty(file($T/wb.img, size=32m), at=1m:64k, ops=write), size=8m, write=back)" \
	--socket wb.sock --json wb.json
head -c 2M /dev/urandom >wb.bin
nbdcopy wb.bin 'nbd+unix:///?socket=wb.sock' >/dev/null 2>&1 || true
kill -TERM $SPID
rc=0; wait $SPID || rc=$?
[ $rc -eq 1 ] || { cat serve.err; fail "serve lost acknowledged write-back data and exited $rc"; }
grep -q "bytes of acknowledged writes never reached" serve.err ||
	{ cat serve.err; fail "serve did not say it lost acknowledged data"; }
[ "$(jqv wb.json '.lost_acknowledged_bytes')" = 65536 ] || fail "JSON: lost bytes $(jq -c . wb.json)"
echo "serve_clients: ok"
