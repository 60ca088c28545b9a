#!/usr/bin/env bash
# File suites on simulated stacks, through emulation: raidlab serves each
# stack in slow motion (paced executor, --slow, default 16: the simulated
# clock 16 times slower than the wall clock, so this machine keeps up with
# hardware faster than it can emulate in real time), the kernel mounts ext4
# on it through nbdfuse and a loop device, and the file suites run on that
# filesystem; host work counts at this machine's speed, storage waits at the
# simulated hardware's (docs/suites.md).
# Beside them, CrystalDiskMark's sequential tests on the same stacks in
# simulated time.  The reviews found that copying large files gains from
# raid0 while extracting an archive hardly moves; this prints both gaps.
#
#   bench/files-sim.sh [RAIDLAB] [OUT-DIR]     (root, nbdfuse, loop devices)
#
# SLOW sets the slow-motion factor (1: real time).  SCALE (default 0.2) sizes
# the data sets; the drives are sm951 profiles cut
# to a small capacity (blocks/capacity) so the sparse data map stays small.
# mkfs runs without its whole-device discard, which stalls the paced
# executor for seconds.  Each result's target.emulation says whether this
# machine kept up with the simulated hardware; a warning is printed when not.
set -euo pipefail
R=${1:-build/raidlab}
OUT=${2:-files-sim}
SCALE=${SCALE:-0.2}
SLOW=${SLOW:-16}
SINGLE='ssd(sm951, data=on, blocks=64, capacity=8g)'
RAID0='raid0(ssd(sm951, data=on, blocks=64, capacity=4g) x2)'
mkdir -p "$OUT"
"$R" run cdm --target "$SINGLE" --target "$RAID0" --label single --label raid0 --size 1g \
	--passes 1 --warmup 0 --duration 2s --quiet --out-dir "$OUT"
for s in asssd-copy untar; do
	"$R" run "$s" --target "$SINGLE" --target "$RAID0" --label single --label raid0 \
		--scale "$SCALE" --slow "$SLOW" --mkfs-options "-E nodiscard" --out-dir "$OUT" >/dev/null
done
"$R" compare "$OUT"/cdm-single.json "$OUT"/asssd-copy-single.json "$OUT"/untar-single.json \
	"$OUT"/cdm-raid0.json "$OUT"/asssd-copy-raid0.json "$OUT"/untar-raid0.json \
	--html "$OUT"/report.html
ratio() { # FILE-A FILE-B JQ: B / A
	jq -n --slurpfile a "$1" --slurpfile b "$2" "(\$b[0] | $3) / (\$a[0] | $3)"
}
seqr=$(ratio "$OUT"/cdm-single.json "$OUT"/cdm-raid0.json \
	'.tests[] | select(.name == "SEQ1M Q8T1") | .read.mb_s')
seqw=$(ratio "$OUT"/cdm-single.json "$OUT"/cdm-raid0.json \
	'.tests[] | select(.name == "SEQ1M Q8T1") | .write.mb_s')
iso=$(ratio "$OUT"/asssd-copy-single.json "$OUT"/asssd-copy-raid0.json \
	'.tests[] | select(.name == "ISO") | .write.mb_s')
untar=$(ratio "$OUT"/untar-single.json "$OUT"/untar-raid0.json '.tests[0].write.mb_s')
for f in "$OUT"/asssd-copy-*.json "$OUT"/untar-*.json; do
	printf '%s: %s\n' "$f" "$(jq -r '.target.emulation // "no emulation report"' "$f")"
done
printf 'raid0 x2 / single:  SEQ1M Q8T1 read %.2fx, write %.2fx;  asssd-copy ISO %.2fx;  untar %.2fx\n' \
	"$seqr" "$seqw" "$iso" "$untar"
