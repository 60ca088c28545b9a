"""A verifying NBD client for the serve tests: random writes and reads, each
read checked against what the export must hold.

    python3 nbdshadow.py SOCKET START_IMAGE STOP_FILE COUNTS_FILE OUT_IMAGE [SEED]

The export is expected to hold START_IMAGE (its whole size).  The client
keeps up to 8 requests in flight, never two that overlap, so every reply
has one right answer: a write's data is the export's from its
acknowledgement on (the shadow copy is updated then), and a read must
return the shadow's bytes.  It runs until STOP_FILE exists, then reads the
whole export back once more against the shadow and writes the shadow to
OUT_IMAGE (what every acknowledged write says the export holds).
COUNTS_FILE is rewritten every 0.1 s: "writes W reads R verified V"
(bytes verified).  Exit status 1 on a mismatch or an error reply.
"""
import os
import random
import struct
import sys
import time

from nbdraw import REQUEST_MAGIC, SIMPLE_REPLY_MAGIC, hello, need, opt

OPT_GO = 7
REP_ACK = 1
REP_INFO = 3
CMD_READ, CMD_WRITE = 0, 1
BLOCK = 4096
DEPTH = 8


def go(s):
    """NBD_OPT_GO on the default export; returns its size."""
    opt(s, OPT_GO, struct.pack(">I", 0) + struct.pack(">H", 0))
    size = None
    while True:
        _magic, _o, typ, ln = struct.unpack(">QIII", need(s, 20))
        data = need(s, ln)
        if typ == REP_INFO and struct.unpack(">H", data[:2])[0] == 0:
            size = struct.unpack(">Q", data[2:10])[0]
        elif typ == REP_ACK:
            return size
        elif typ & 0x80000000:
            sys.exit("GO refused: %#x %s" % (typ, data[4:]))


def main():
    path, start, stop, counts_path, out = sys.argv[1:6]
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    s = hello(path)
    size = go(s)
    with open(start, "rb") as f:
        shadow = bytearray(f.read(size))
    if len(shadow) != size:
        sys.exit("%s is smaller than the export" % start)
    inflight = {}  # cookie -> (type, offset, length, data)
    cookie = 0
    n = {"writes": 0, "reads": 0, "verified": 0}
    last = 0.0
    final = None  # the final pass: next offset to read

    def counts():
        tmp = counts_path + ".tmp"
        with open(tmp, "w") as f:
            f.write("writes %d reads %d verified %d\n" % (n["writes"], n["reads"], n["verified"]))
        os.replace(tmp, counts_path)

    def free(off, ln):
        return all(off + ln <= o or o + l <= off for (_t, o, l, _d) in inflight.values())

    def reply():
        magic, err, ck = struct.unpack(">IIQ", need(s, 16))
        if magic != SIMPLE_REPLY_MAGIC:
            sys.exit("bad reply magic %#x" % magic)
        typ, off, ln, data = inflight.pop(ck)
        if err:
            sys.exit("%s at %d+%d failed: error %d"
                     % ("write" if typ == CMD_WRITE else "read", off, ln, err))
        if typ == CMD_WRITE:
            shadow[off:off + ln] = data
            n["writes"] += 1
            return
        got = need(s, ln)
        if got != shadow[off:off + ln]:
            bad = next(i for i in range(ln) if got[i] != shadow[off + i])
            sys.exit("read at %d+%d: byte %d differs from what was written (%#x, expected %#x)"
                     % (off, ln, off + bad, got[bad], shadow[off + bad]))
        n["reads"] += 1
        n["verified"] += ln

    while True:
        if final is None and os.path.exists(stop):
            final = 0
        if final is not None and final >= size and not inflight:
            break
        while len(inflight) < DEPTH:
            if final is not None:
                if final >= size:
                    break
                typ, off, ln = CMD_READ, final, min(1 << 20, size - final)
                if not free(off, ln):
                    break
                final += ln
            else:
                ln = BLOCK * rng.randint(1, 16)
                off = BLOCK * rng.randrange((size - ln) // BLOCK + 1)
                if not free(off, ln):
                    break
                typ = CMD_WRITE if rng.random() < 0.5 else CMD_READ
            cookie += 1
            data = rng.randbytes(ln) if typ == CMD_WRITE else None
            inflight[cookie] = (typ, off, ln, data)
            s.sendall(struct.pack(">IHHQQI", REQUEST_MAGIC, 0, typ, cookie, off, ln)
                      + (data or b""))
        reply()
        now = time.monotonic()
        if now - last > 0.1:
            counts()
            last = now
    counts()
    with open(out, "wb") as f:
        f.write(shadow)


if __name__ == "__main__":
    main()
