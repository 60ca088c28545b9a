#!/usr/bin/env bash
# Parity RAID: arithmetic speed, full-stripe and small-write costs, and raid5
# against raid10 on simulated SATA SSDs, in one run.
#
#   bench/parity.sh [SECONDS_PER_RUN]
#
# (a) `raidlab parity-speed`: raid5 P, raid6 P+Q and the raid6 two-chunk
#     rebuild through ISA-L, GB/s of data per core.
# (b) Full-stripe sequential writes.  Members are RAM behind a 200 MB/s link
#     (link(mem, bw=200MB/s)), so the array's limit is the members' rate, not
#     memcpy: the single member is measured in the same run, and the array
#     must reach >= 0.8 x (n-1) (raid5) or (n-2) (raid6) of it.  Writes are
#     whole stripes (bs = 4 stripes), so nothing is read.
# (c) 4K random writes on mem members: member I/Os per host write from the
#     array's own counters.  md's read-modify-write costs about 4 (raid5:
#     read data and parity, write both) or 6 (raid6) whichever of rmw and
#     rcw it picks.
# (d) CrystalDiskMark on simulated Samsung 850 EVO 500 GB drives: raid5 x4
#     against raid10 x4 (n2), both 64k chunks, as a `raidlab compare` table.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
secs=${1:-3}
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/raidlab-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
command -v jq >/dev/null || { echo "jq is not installed (scripts/install-deps.sh)"; exit 1; }
[ -x "$RAIDLAB" ] || { echo "build raidlab first (make)"; exit 1; }

echo "== (a) parity arithmetic, one core"
"$RAIDLAB" parity-speed --members 4,6,8 --seconds 0.5

run() { # run TARGET RW BS QD [RAMP] -> the JSON in $dir/r.json
	"$RAIDLAB" run --target "$1" --rw="$2" --bs="$3" --iodepth="$4" --ramp_time="${5:-1}" \
		--runtime="$secs" --time_based --quiet --json "$dir/r.json" >/dev/null ||
		{ echo "raidlab run failed on $1" >&2; exit 1; }
}

echo
echo "== (b) full-stripe sequential writes, members at 200 MB/s each"
M='link(mem(size=64m), bw=200MB/s)'
run "$M" write 1m 4
one=$(jq '.jobs[0].write.mb_s' "$dir/r.json")
printf '%-22s %9s %9s %7s  %s\n' array "MB/s" "ideal" ratio goal
for c in "raid5 4 1" "raid5 6 1" "raid6 6 2" "raid6 8 2"; do
	read -r level n p <<<"$c"
	k=$((n - p))
	run "$level($M x$n, chunk=64k)" write "$((4 * k * 64))k" 4
	got=$(jq '.jobs[0].write.mb_s' "$dir/r.json")
	reads=$(jq '[.jobs[0].target_counters.members[].reads] | add' "$dir/r.json")
	awk -v l="$level x$n" -v g="$got" -v o="$one" -v k="$k" -v r="$reads" 'BEGIN {
		ideal = o * k; q = g / ideal
		printf "%-22s %9.1f %9.1f %6.2fx  %s (member reads: %d)\n", l, g, ideal, q,
			(q >= 0.8 ? "ok (>= 0.8)" : "BELOW 0.8"), r }'
done
echo "(single member: $(printf '%.1f' "$one") MB/s)"

echo
echo "== (c) 4K random writes QD16 on mem members: member I/Os per host write"
printf '%-22s %10s %14s %8s\n' array "host IOPS" "member I/Os" "per write"
for c in "raid5 4" "raid5 6" "raid6 6" "raid6 8"; do
	read -r level n <<<"$c"
	# no ramp-up: the members' counters cover the whole run, so must the host's
	run "$level(mem(size=64m) x$n, chunk=64k)" randwrite 4k 16 0
	jq -r --arg l "$level x$n" '.jobs[0] as $j | ($j.target_counters.members |
		map(.reads + .writes) | add) as $m |
		"\($l) \($j.write.iops) \($m) \($m / $j.write.ios)"' "$dir/r.json" |
		awk '{ printf "%-22s %10.0f %14d %8.2f\n", $1 " " $2, $3, $4, $5 }'
done

echo
echo "== (d) CrystalDiskMark 8, simulated Samsung 850 EVO 500 GB x4: raid5 vs raid10"
"$RAIDLAB" run cdm --target 'raid5(ssd(samsung-850evo-500) x4, chunk=64k)' --label raid5-x4 \
	--target 'raid10(ssd(samsung-850evo-500) x4, chunk=64k)' --label raid10-x4 \
	--out-dir "$dir" --quiet >/dev/null
"$RAIDLAB" compare "$dir"/cdm-raid5-x4.json "$dir"/cdm-raid10-x4.json
