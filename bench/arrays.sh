#!/usr/bin/env bash
# Arrays against their raw members, side by side in one run.
#
#   bench/arrays.sh [SECONDS_PER_RUN] [ROUNDS]
#
# (a) raid0(mem x4) vs one mem target of the same size: 4K randread QD32
#     and 1M read QD8, one thread.  The members are RAM, so this measures
#     what the array layer costs per I/O (splitting, child requests,
#     counters).  Goal: the array reaches >= 0.9 of the single target.
# (b) raid1(mem x2) vs one mem member: 4K randread QD32 with 2 threads
#     (numjobs=2), read balancing least-pending; shown as a ratio.
# Each case runs ROUNDS times per side, alternating, and reports the medians;
# MB/s is decimal; "us" is CPU time (user + system) per I/O, which a busy
# machine disturbs less than the rates.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
secs=${1:-3}
rounds=${2:-3}
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/raidlab-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
command -v jq >/dev/null || { echo "jq is not installed (scripts/install-deps.sh)"; exit 1; }
[ -x "$RAIDLAB" ] || { echo "build raidlab first (make)"; exit 1; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# run TARGET RW BS QD JOBS: prints "iops mb_s cpu_us_per_io"
run() {
	"$RAIDLAB" run --target "$1" --rw="$2" --bs="$3" --iodepth="$4" --numjobs="$5" \
		--ramp_time=1 --runtime="$secs" --time_based --quiet --json "$dir/r.json" >/dev/null ||
		{ echo "raidlab run failed on $1" >&2; exit 1; }
	jq -r '.jobs[0] as $j | $j.read as $x |
		"\($x.iops) \($x.mb_s) \(1e6 * ($j.cpu.user_s + $j.cpu.sys_s) / $x.ios)"' "$dir/r.json"
}

# compare LABEL ARRAY SINGLE RW BS QD JOBS GOAL
compare() {
	local label=$1 arr=$2 one=$3 rw=$4 bs=$5 qd=$6 jobs=$7 goal=$8
	local ai=() am=() ac=() si=() sm=() sc=() a b c
	for ((i = 0; i < rounds; i++)); do
		read -r a b c < <(run "$arr" "$rw" "$bs" "$qd" "$jobs"); ai+=("$a"); am+=("$b"); ac+=("$c")
		read -r a b c < <(run "$one" "$rw" "$bs" "$qd" "$jobs"); si+=("$a"); sm+=("$b"); sc+=("$c")
	done
	awk -v l="$label" -v ai="$(printf '%s\n' "${ai[@]}" | median)" \
		-v si="$(printf '%s\n' "${si[@]}" | median)" \
		-v am="$(printf '%s\n' "${am[@]}" | median)" \
		-v sm="$(printf '%s\n' "${sm[@]}" | median)" \
		-v ac="$(printf '%s\n' "${ac[@]}" | median)" \
		-v sc="$(printf '%s\n' "${sc[@]}" | median)" -v g="$goal" \
		'BEGIN { r = ai / si;
			 printf "%-34s %11.0f %11.0f %9.1f %9.1f %6.2fx | %6.2f %6.2f  %s\n", l, ai, si,
				am, sm, r, ac, sc, g == "" ? "" : (r >= g ? "ok (>= " g ")" : "BELOW " g) }'
}

echo "raidlab $("$RAIDLAB" --version | cut -d' ' -f2): arrays vs members; ${secs}s per run, median of $rounds rounds"
printf '%-34s %11s %11s %9s %9s %7s | %6s %6s\n' case "array IOPS" "single IOPS" "arr MB/s" \
	"one MB/s" ratio "arr us" "one us"
# Small RAM targets: every page is faulted in during the ramp-up second, so
# the runs measure I/O, not the kernel zero-filling fresh memory.
R0='raid0(mem(size=16m) x4, chunk=512k)'
ONE='mem(size=64m)'
compare "raid0(mem x4) 4K randread QD32" "$R0" "$ONE" randread 4k 32 1 0.9
compare "raid0(mem x4) 1M read QD8" "$R0" "$ONE" read 1m 8 1 0.9
compare "raid1(mem x2) 4K randread QD32 2thr" 'raid1(mem(size=64m) x2)' "$ONE" \
	randread 4k 32 2 ""
