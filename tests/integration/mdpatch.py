#!/usr/bin/env python3
"""Set one field of an md v1.2 superblock (4 KiB into FILE) and fix its checksum.

    mdpatch.py FILE OFFSET FORMAT VALUE

FORMAT is a struct code (Q, I, H, ...), little-endian as md stores it.  The
checksum is md's: the 32-bit words of the superblock and its dev_roles
table, the checksum field taken as 0, folded to 32 bits.
"""
import struct
import sys


def main():
    path, off, fmt, val = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    with open(path, 'r+b') as f:
        f.seek(4096)
        sb = bytearray(f.read(4096))
        struct.pack_into('<' + fmt, sb, off, val)
        max_dev = min(struct.unpack_from('<I', sb, 220)[0], 384)
        size = 256 + 2 * max_dev
        total = 0
        for i in range(0, size - size % 4, 4):
            if i != 216:
                total += struct.unpack_from('<I', sb, i)[0]
        if size % 4:
            total += struct.unpack_from('<H', sb, size - 2)[0]
        struct.pack_into('<I', sb, 216, (total & 0xffffffff) + (total >> 32) & 0xffffffff)
        f.seek(4096)
        f.write(sb)


if __name__ == '__main__':
    main()
