#!/usr/bin/env bash
# A profile learned from a file on this machine's disk, against that file:
# a SIZE file is written in DIR, raidlab profile learn measures it (and
# writes over it), then four jobs run on the same file and on ssd(the
# learned profile, state=full) (the file is written throughout, so the
# model's drive is too), ROUNDS times interleaved, file then model.  The
# same file, not a second one: on a virtual disk two files of one size
# differed by 1.6x in random writes (the one learn had just made was the
# slower, as a host that allocates its image on first write would give).  Prints each job's medians and the ratio
# model / file (1.00: the profile predicts the file exactly).
#
#   bench/learn-file.sh [DIR] [SIZE] [ROUNDS] [LEARN_TIME]
#
# LEARN_KEEP=FILE keeps a copy of the learned profile (its comments hold
# what learn measured); LEARN_OUT=FILE keeps what learn printed.
#
# A virtual disk's own speed moves with what its host does: the rounds'
# spread is printed beside each median so that movement shows.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
dir=${1:-/var/tmp}
size=${2:-4g}
rounds=${3:-3}
ltime=${4:-5m}
command -v jq >/dev/null || { echo "jq is not installed (scripts/install-deps.sh)"; exit 1; }
[ -x "$RAIDLAB" ] || { echo "build raidlab first (make)"; exit 1; }
work=$(mktemp -d "$dir/raidlab-learn.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "learning from a $size file in $dir (budget $ltime)..."
"$RAIDLAB" run --name=layout --filename="$work/data" --size="$size" --rw=write --bs=1m \
	--iodepth=8 --ioengine=io_uring --direct=1 --quiet
"$RAIDLAB" profile learn "$work/data" -o "$work/disk.profile" --time "$ltime" \
	--force-destroy >"$work/learn.out"
[ -z "${LEARN_KEEP:-}" ] || cp "$work/disk.profile" "$LEARN_KEEP"
[ -z "${LEARN_OUT:-}" ] || cp "$work/learn.out" "$LEARN_OUT"

jobs=("--rw=randread --bs=4k --iodepth=1" "--rw=randread --bs=4k --iodepth=32"
	"--rw=read --bs=1m --iodepth=8" "--rw=randwrite --bs=4k --iodepth=32")
names=("4K random read QD1" "4K random read QD32" "1M sequential read QD8" "4K random write QD32")
# rate TARGET JOB: bytes per second of the job
rate() {
	"$RAIDLAB" run --name=m --target "$1" $2 --direct=1 --runtime=5s --time_based \
		--output-format=json 2>/dev/null | jq '.jobs[0] | .read.bw_bytes + .write.bw_bytes'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-24s %12s %12s %8s  %s\n' job "file MB/s" "model MB/s" ratio "file spread"
for i in "${!jobs[@]}"; do
	f=() m=()
	for _ in $(seq "$rounds"); do
		f+=("$(rate "file($work/data)" "${jobs[i]}")")
		m+=("$(rate "ssd($work/disk.profile, state=full)" "${jobs[i]}")")
	done
	fm=$(printf '%s\n' "${f[@]}" | median)
	mm=$(printf '%s\n' "${m[@]}" | median)
	lo=$(printf '%s\n' "${f[@]}" | sort -g | head -1)
	hi=$(printf '%s\n' "${f[@]}" | sort -g | tail -1)
	awk -v n="${names[i]}" -v f="$fm" -v m="$mm" -v lo="$lo" -v hi="$hi" \
		'BEGIN { printf "%-24s %12.1f %12.1f %8.2f  %.1f-%.1f\n", n, f / 1e6, m / 1e6, m / f, lo / 1e6, hi / 1e6 }'
done
