#!/usr/bin/env bash
# A file suite on a full-size simulated drive (the 512 GB sm951 profile,
# data=on) finishes, in a bounded time: vm-clone, the suite reported to
# run on without end there, at 1 % of its data set (a 164 MB image, about
# 75 MB allocated) and in slow motion x16 fixed.  With --slow auto on a
# busy machine serve's governor may raise the factor to several hundred
# (docs/suites.md, "Expected durations"), and the time with it; a fixed
# factor bounds the wall time (22 to 28 s here on a shared machine, 3 min
# in the ASan build), the result saying whether the emulation kept up.
. "$(dirname "$0")/lib.sh"
need jq
need qemu-img
need_mount_chain
export TMPDIR=$T # the suite's runtime directory goes here
limit=600 # a bound, not a speed limit
start=$(date +%s)
rc=0
timeout -s INT -k 60 "$limit" "$RAIDLAB" run vm-clone --target 'ssd(sm951, data=on)' \
	--scale 0.01 --slow 16 --quiet --json full.json 2>full.err || rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 124 ] || { cat full.err; fail "vm-clone on a full-size sm951 did not finish in $limit s"; }
[ "$rc" -eq 0 ] || { cat full.err; fail "vm-clone on a full-size sm951 exited $rc after $took s"; }
jq -e '.interrupted != true and .target.slow == 16 and .target.slow_auto == false' full.json \
	>/dev/null || fail "full-size sm951: $(jq -c '.target | del(.tree)' full.json)"
jq -e '[.tests[].tool] == ["sparse copy", "qemu-img convert"]
	and all(.tests[]; .write.mb_s > 0 and .verified_extents > 0)' full.json >/dev/null ||
	fail "full-size sm951: tests $(jq -c '[.tests[] | {tool, mb_s: .write.mb_s}]' full.json)"
[ "$(jq -r .target.spec full.json)" = 'ssd(sm951, data=on)' ] || fail "not the full-size drive"
grep -q "$T/raidlab-fs" /proc/mounts && fail "a mount was left behind"
echo "ok: vm-clone on a full-size sm951 in $took s"
