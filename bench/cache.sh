#!/usr/bin/env bash
# bench/cache.sh - the four classic RAID controller cache modes on simulated
# SATA SSDs, CrystalDiskMark 8's tests, one table.
#
#   bench/cache.sh                       4 x samsung-850evo-500, raid10 and raid0
#   DRIVE=sx8200pro-256 bench/cache.sh   another profile (raidlab profiles)
#
# Modes (what a PERC/MegaRAID controller offers per virtual disk):
#   1  read-ahead,    write-back,    drive cache on
#   2  read-ahead,    write-through, drive cache on
#   3  no read-ahead, write-through, drive cache on
#   4  no read-ahead, write-through, drive cache off
# The controller has a 1 GiB cache with 64 KiB lines (chunk 64k arrays);
# the test area (SIZE, default 4g) is larger than the cache, as a real
# benchmark's file should be.  Simulated time: each pass lasts DURATION
# (default 1s) of simulated time; the whole table takes well under a minute
# of wall time.  Figures are MB/s (decimal), CrystalDiskMark's "best of"
# with one measured pass.  Environment: RAIDLAB (binary, default
# build/raidlab), DRIVE, SIZE, DURATION, CACHE (controller cache size).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
DRIVE=${DRIVE:-samsung-850evo-500}
SIZE=${SIZE:-4g}
DURATION=${DURATION:-1s}
CACHE=${CACHE:-1g}
command -v jq >/dev/null || { echo "bench/cache.sh needs jq" >&2; exit 1; }
[ -x "$RAIDLAB" ] || { echo "no raidlab binary at $RAIDLAB (make first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-cache-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

modes=("read=ahead, write=back, disk-cache=on"
       "read=ahead, write=through, disk-cache=on"
       "read=none, write=through, disk-cache=on"
       "read=none, write=through, disk-cache=off")
names=("1 RA  WB  drive cache on"
       "2 RA  WT  drive cache on"
       "3 NORA WT drive cache on"
       "4 NORA WT drive cache off")
arrays=("raid10(ssd($DRIVE) x4, chunk=64k)" "raid0(ssd($DRIVE) x4, chunk=64k)")
labels=("raid10 4x" "raid0 4x")

printf 'Controller cache modes: %s x4, cache %s (64k lines), CrystalDiskMark 8 tests over %s,\n' \
	"$DRIVE" "$CACHE" "$SIZE"
printf 'one %s pass each (simulated time), MB/s decimal, read/write\n\n' "$DURATION"
printf '%-10s %-26s %17s %17s %17s %17s\n' array mode "SEQ1M Q8T1" "SEQ1M Q1T1" \
	"RND4K Q32T1" "RND4K Q1T1"
for a in 0 1; do
	for m in 0 1 2 3; do
		out="$tmp/$a-$m.json"
		"$RAIDLAB" run cdm --quiet --target "cache(${arrays[$a]}, size=$CACHE, ${modes[$m]})" \
		    --size="$SIZE" --passes=1 --warmup=0 --duration="$DURATION" --json "$out"
		row=$(jq -r '[.tests[] | "\(.read.mb_s | floor)/\(.write.mb_s | floor)"] | @tsv' "$out")
		# shellcheck disable=SC2086
		printf '%-10s %-26s %17s %17s %17s %17s\n' "${labels[$a]}" "${names[$m]}" $row
	done
done
