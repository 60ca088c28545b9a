#!/usr/bin/env bash
# raidlab serve --no-structured-replies: the server declines
# NBD_OPT_STRUCTURED_REPLY with NBD_REP_ERR_UNSUP and a message, clients
# fall back to simple replies (no SEND_DF either), and data still goes
# both ways intact through libnbd (nbdcopy, fio's nbd engine with verify)
# and qemu's own client.  Without the option the same clients negotiate
# structured replies.
. "$(dirname "$0")/lib.sh"
need nbdinfo
need nbdcopy
need qemu-io
need python3
need fio
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"

serve_start() {
	rm -f ready s.sock
	"$RAIDLAB" serve 'mem(size=32m)' --socket s.sock --no-status --ready-file ready "$@" \
		>serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 100); do [ -s ready ] && return 0; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
	cat serve.err; fail "server did not start"
}
serve_stop() {
	kill -TERM $SPID
	wait $SPID || { cat serve.err; fail "server exited non-zero"; }
}
U='nbd+unix:///?socket=s.sock'

# --- default: structured replies and DF ---
serve_start
nbdinfo --json "$U" >info.json
[ "$(jqv info.json '.structured')" = true ] || fail "default: structured replies not negotiated"
[ "$(jqv info.json '.exports[0].can_df')" = true ] || fail "default: SEND_DF not advertised"
serve_stop

# --- declined ---
serve_start --no-structured-replies
nbdinfo --json "$U" >info.json
[ "$(jqv info.json '.structured')" = false ] || fail "structured replies negotiated: $(cat info.json)"
[ "$(jqv info.json '.exports[0].can_df')" = false ] || fail "SEND_DF advertised without structured replies"

cat >opt.py <<'PY'
import struct, sys
from nbdraw import OPT_REPLY_MAGIC, hello, need, opt as send_opt
s = hello(sys.argv[1])
send_opt(s, 8)
magic, opt, typ, ln = struct.unpack(">QIII", need(s, 20))
msg = need(s, ln).decode()
print("%#x %s" % (typ, msg))
sys.exit(0 if magic == OPT_REPLY_MAGIC and opt == 8 and typ == 0x80000001 and msg else 1)
PY
python3 opt.py s.sock >opt.out || { cat opt.out; fail "STRUCTURED_REPLY not answered with ERR_UNSUP and a message"; }

head -c 24M /dev/urandom >in.img
nbdcopy in.img "$U"
nbdcopy "$U" out.img
cmp -n 25165824 in.img out.img || fail "nbdcopy round trip with simple replies differs"

qemu-io -f raw "$U" -c 'write -P 0x5a 1M 64k' -c 'read -P 0x5a 1M 64k' \
	-c 'write -z 2M 1M' -c 'read -P 0 2M 1M' >qio.out 2>&1 || { cat qio.out; fail "qemu-io failed"; }
grep -qi "pattern verification failed\|error" qio.out && { cat qio.out; fail "qemu-io reported an error"; }

timeout -s KILL 120 fio --name=v --ioengine=nbd --uri="$U" --rw=randwrite --bs=4k --size=16m \
	--iodepth=32 --verify=crc32c --do_verify=1 --output-format=json --output=fio.json \
	>fio.err 2>&1 || { cat fio.err; fail "fio verify over simple replies failed"; }
[ "$(jqv fio.json '.jobs[0].error')" = 0 ] || fail "fio reported an error"
[ "$(jqv fio.json '.jobs[0].read.total_ios')" = 4096 ] || fail "fio verified $(jqv fio.json '.jobs[0].read.total_ios') of 4096 blocks"
serve_stop
echo "serve_simple_replies: ok"
