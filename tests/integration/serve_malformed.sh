#!/usr/bin/env bash
# raidlab serve against a client that breaks the NBD protocol on purpose:
# bad magic, unknown client flags, unknown and malformed options, oversized
# lengths, out-of-range and misaligned requests, unknown commands and flags.
# Each gets the protocol's answer (an error reply, or a closed connection),
# and the server keeps serving well-behaved clients afterwards.
. "$(dirname "$0")/lib.sh"
need python3
need nbdinfo

"$RAIDLAB" serve 'mem(size=1m)' --socket s.sock --no-status --ready-file ready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 100); do [ -s ready ] && break; sleep 0.05; done
[ -s ready ] || { cat serve.err; fail "server did not start"; }

cat >probe.py <<'EOF'
import socket, struct, sys
import nbdraw
from nbdraw import IHAVEOPT, OPT_REPLY_MAGIC, SIMPLE_REPLY_MAGIC, recvn, opt

SOCK = sys.argv[1]
failures = []

def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)

def closed(s):
    s.settimeout(3)
    try:
        while True:
            c = s.recv(4096)
            if not c:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False

def hello(flags=1):
    return nbdraw.hello(SOCK, flags)

def opt_reply(s):
    h = recvn(s, 20)
    if h is None:
        return None, None
    magic, o, typ, ln = struct.unpack(">QIII", h)
    assert magic == OPT_REPLY_MAGIC, hex(magic)
    return typ, recvn(s, ln) if ln else b""

def go(s, name=b""):
    opt(s, 7, struct.pack(">I", len(name)) + name + struct.pack(">H", 0))
    while True:
        typ, data = opt_reply(s)
        if typ != 3:
            return typ

def request(s, typ, off, ln, flags=0, cookie=7, payload=b""):
    nbdraw.request(s, typ, cookie, off, ln, payload, flags)

def simple_reply(s):
    h = recvn(s, 16)
    if h is None:
        return None, None
    magic, err, cookie = struct.unpack(">IIQ", h)
    assert magic == SIMPLE_REPLY_MAGIC, hex(magic)
    return err, cookie

ERR_UNSUP, ERR_INVALID, ERR_UNKNOWN = 0x80000001, 0x80000003, 0x80000006
EPERM, EINVAL, ENOSPC = 1, 22, 28

# --- handshake and options ---
s = hello(flags=0x80)
check(closed(s), "unknown client flag: connection closed")

s = hello()
s.sendall(struct.pack(">QII", 0x1122334455667788, 7, 0))
check(closed(s), "bad option magic: connection closed")

s = hello()
opt(s, 99)
check(opt_reply(s)[0] == ERR_UNSUP, "unknown option 99: NBD_REP_ERR_UNSUP")
opt(s, 3, b"xx")
check(opt_reply(s)[0] == ERR_INVALID, "LIST with data: NBD_REP_ERR_INVALID")
opt(s, 7, struct.pack(">I", 50) + b"ab")
check(opt_reply(s)[0] == ERR_INVALID, "GO with a name longer than its data: NBD_REP_ERR_INVALID")
check(go(s, b"nosuch") == ERR_UNKNOWN, "GO on an unknown export: NBD_REP_ERR_UNKNOWN")
opt(s, 8)
check(opt_reply(s)[0] == 1, "still negotiating after errors: STRUCTURED_REPLY acked")
s.sendall(struct.pack(">QII", IHAVEOPT, 3, 1 << 30))
check(closed(s), "option length of 1 GiB: connection closed")

s = hello()
opt(s, 1, b"nosuch")
check(closed(s), "EXPORT_NAME of an unknown export: connection closed")

# --- transmission, simple replies ---
s = hello()
check(go(s) == 1, "GO on the default export: ACK")
request(s, 99, 0, 512)
check(simple_reply(s) == (EINVAL, 7), "unknown command 99: EINVAL")
request(s, 0, 1 << 20, 512, cookie=8)
check(simple_reply(s) == (EINVAL, 8), "read past the end: EINVAL")
request(s, 0, (1 << 64) - 512, 1024, cookie=9)
check(simple_reply(s) == (EINVAL, 9), "read with offset+length overflowing 64 bits: EINVAL")
request(s, 1, (1 << 20) - 512, 1024, cookie=10, payload=b"\0" * 1024)
check(simple_reply(s) == (ENOSPC, 10), "write past the end: ENOSPC")
request(s, 0, 1, 512, cookie=11)
check(simple_reply(s) == (EINVAL, 11), "misaligned read offset: EINVAL")
request(s, 0, 0, 64 << 20, cookie=12)
check(simple_reply(s) == (EINVAL, 12), "read of 64 MiB (over the maximum payload): EINVAL")
request(s, 0, 0, 512, flags=0x40, cookie=13)
check(simple_reply(s) == (EINVAL, 13), "unknown command flag: EINVAL")
request(s, 0, 0, 512, flags=0x2, cookie=14)
check(simple_reply(s) == (EINVAL, 14), "NO_HOLE on a read: EINVAL")
request(s, 1, 4096, 512, cookie=15, payload=b"\xab" * 512)
check(simple_reply(s) == (0, 15), "a good write after the errors: 0")
request(s, 0, 4096, 512, cookie=16)
r = simple_reply(s)
data = recvn(s, 512)
check(r == (0, 16) and data == b"\xab" * 512, "a good read returns the written data")
request(s, 1, 0, 64 << 20, cookie=17)
check(closed(s), "write of 64 MiB (over the maximum payload): connection closed")

s = hello()
go(s)
s.sendall(struct.pack(">IHHQQI", 0xdeadbeef, 0, 0, 1, 0, 512))
check(closed(s), "bad request magic: connection closed")

# --- structured replies: errors come as error chunks ---
s = hello()
opt(s, 8)
opt_reply(s)
go(s)
request(s, 0, 1 << 30, 512, cookie=21)
h = recvn(s, 20)
magic, flags, typ, cookie, ln = struct.unpack(">IHHQI", h)
payload = recvn(s, ln)
err, mlen = struct.unpack(">IH", payload[:6])
check(magic == 0x668e33ef and typ == 0x8001 and flags & 1 and cookie == 21 and err == EINVAL,
      "structured: read past the end is an NBD_REPLY_TYPE_ERROR chunk with EINVAL")
check(mlen > 0 and len(payload) == 6 + mlen, "structured: the error chunk carries a message: %r"
      % payload[6:].decode(errors="replace"))
request(s, 2, 0, 0)
check(closed(s), "DISC: server closes the connection")

sys.exit(1 if failures else 0)
EOF
python3 probe.py s.sock || fail "malformed-input probe"
# The server survived all of that and still serves.
[ "$(nbdinfo --size 'nbd+unix:///?socket=s.sock')" = 1048576 ] || fail "server no longer serves"
kill -TERM $SPID
wait $SPID || fail "server exited non-zero"
grep -q "bad request magic" serve.err || { cat serve.err; fail "protocol errors not logged"; }
echo "serve_malformed: ok"
