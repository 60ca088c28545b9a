#!/usr/bin/env python3
"""derive.py SRC OUT: fio's example job files, edited only in where and how much.

Every *.fio of SRC (Debian's fio-examples: /usr/share/doc/fio/examples) is
copied to OUT with its header and every other line as written, except:
  - filename= paths (absolute, or any for engines on files) and directory=
    point into ${SCRATCH} (the runner sets it; fio and raidlab expand it);
  - sizes (size, filesize, io_size, io_limit, offset_increment) above 2 MiB
    become 2m; runtime above 200 ms becomes 200ms, ramp_time above 50 ms
    50ms; startdelay is scaled from seconds to 25 ms each; loops above 2
    become 2, numjobs above 4 become 4;
  - a file with no runtime gets runtime=200ms, and one with no size,
    filesize or io_size gets size=2m (fio needs one to create a file), in a
    [global]: the file's first one, or one put before the first job.
  - port= of the network engines becomes ${FIO_PORT}, a free port the
    runner picks for each run (fio's examples name fixed ones).
So a value is only ever shrunk.  Network and service engines keep their
filename (a host or a resource, not a path).
"""
import os
import re
import sys

MIB2 = 2 << 20
UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}
SIZE_KEYS = {"size", "filesize", "io_size", "io_limit", "offset_increment"}
# engines whose filename= is not a path
NOT_PATHS = re.compile(r"^(net|netsplice|rdma|http|rbd|rados|nfs|gfapi|libhdfs|libiscsi|dfs|"
                       r"ime|librpma|xnvme|nbd)")


def size_bytes(text):
    """Bytes of a plain size such as 10G, 128m, 4096 or 4KiB; None for anything else."""
    m = re.fullmatch(r"(\d+)\s*([kmgtp]?)(i?b)?", text.strip().lower())
    return int(m.group(1)) * UNITS[m.group(2)] if m else None


def secs(text):
    """Seconds of a duration (plain number: seconds), None if not one."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(us|usec|ms|msec|s|sec|m|min|h)?", text.strip().lower())
    if not m:
        return None
    mult = {"us": 1e-6, "usec": 1e-6, "ms": 1e-3, "msec": 1e-3, None: 1, "s": 1, "sec": 1,
            "m": 60, "min": 60, "h": 3600}[m.group(2)]
    return float(m.group(1)) * mult


def scratch_path(name):
    return "${SCRATCH}/" + os.path.basename(name.rstrip("/")) if name else name


def edit_line(key, value, paths):
    """The edited value of KEY=VALUE, or None to keep the line as it is."""
    if key == "port" and not paths:
        return "${FIO_PORT}"
    if key == "directory":
        return "${SCRATCH}"
    if key == "filename" and paths:
        return ":".join(scratch_path(p) for p in value.split(":"))
    if key in SIZE_KEYS:
        parts = value.split("-")  # ranges: each end
        out = []
        for p in parts:
            b = size_bytes(p)
            out.append("2m" if b is not None and b > MIB2 else p)
        return "-".join(out) if out != parts else None
    if key in ("runtime", "timeout"):
        s = secs(value)
        return "200ms" if s is not None and s > 0.2 else None
    if key == "ramp_time":
        s = secs(value)
        return "50ms" if s is not None and s > 0.05 else None
    if key == "startdelay":
        s = secs(value)
        return "%dms" % round(s * 25) if s is not None and s > 0 else None
    if key in ("loops", "numjobs"):
        cap = 2 if key == "loops" else 4
        return str(cap) if value.isdigit() and int(value) > cap else None
    return None


def derive(text):
    lines = text.split("\n")
    engines = re.findall(r"^\s*ioengine\s*=\s*(\S+)", text, re.M)
    paths = not any(NOT_PATHS.match(e) for e in engines)
    keys = set(re.findall(r"^\s*([a-z_]+)\s*=", text, re.M))
    out = []
    for line in lines:
        m = re.match(r"^(\s*)([a-z_]+)(\s*=\s*)(.*?)(\s*)$", line)
        if m and not line.lstrip().startswith((";", "#")):
            new = edit_line(m.group(2), m.group(4), paths)
            if new is not None:
                line = m.group(1) + m.group(2) + m.group(3) + new + m.group(5)
        out.append(line)
    add = []
    if not keys & {"runtime", "timeout"}:
        add.append("runtime=200ms")
    if not keys & {"size", "filesize", "io_size", "io_limit"}:
        add.append("size=2m")
    if add:
        # at the top of the first [global], or in one of its own before the first job
        first = next((i for i, l in enumerate(out) if re.match(r"^\s*\[", l)), len(out))
        if first < len(out) and out[first].strip() == "[global]":
            out[first + 1:first + 1] = add
        else:
            out[first:first] = ["[global]"] + add + [""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: derive.py SRC_DIR OUT_DIR")
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if name.endswith(".fio"):
            with open(os.path.join(src, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
            with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                f.write(derive(text))


if __name__ == "__main__":
    main()
