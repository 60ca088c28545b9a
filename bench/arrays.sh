#!/usr/bin/env bash
# Arrays against one RAM target of the array's size, side by side in one run.
#
#   bench/arrays.sh [SECONDS_PER_RUN] [ROUNDS]
#
# Members are RAM (mem targets), so the ratio is what the array layer costs
# per I/O: locating the piece, the child request, its completion.  Every
# level reads 4K at random at QD32 with one thread over members never
# written (mem answers those with zeroes, no page faults); each array is set
# against mem(size=<the array's capacity>), so both sides walk the same
# random map:
#   raid0(mem(size=256m) x4, chunk=128k)   vs mem(size=1g)    goal >= 0.95
#   raid1(mem(size=256m) x2)                vs mem(size=256m)
#   raid10(mem(size=256m) x4) (n2)          vs mem(size=512m)
#   raid5(mem(size=256m) x4, chunk=128k)    vs mem(size=768m)
# and, with no goal: raid0 1M sequential reads QD8 (every request two
# pieces) and raid1 4K randread QD32 with 2 threads (read balancing).
# Each case runs ROUNDS times per side, array then single target, and
# reports the medians and their ratio; MB/s is decimal; "us" is CPU time
# (user + system) per I/O, which a busy machine disturbs less than the
# rates; "cpu x" is the single target's CPU per I/O over the array's (1.00:
# the array costs nothing).
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
			 printf "%-30s %10.0f %10.0f %8.1f %8.1f %6.2fx | %5.3f %5.3f %5.2fx  %s\n", l, ai, si,
				am, sm, r, ac, sc, (ac > 0 ? sc / ac : 0),
				g == "" ? "" : (r >= g ? "ok (>= " g ")" : "BELOW " g) }'
}

echo "raidlab $("$RAIDLAB" --version | cut -d' ' -f2): arrays vs one mem target; ${secs}s per run, median of $rounds rounds"
printf '%-30s %10s %10s %8s %8s %7s | %5s %5s %6s\n' case "array IOPS" "one IOPS" "arr MB/s" \
	"one MB/s" ratio "arr us" "one us" "cpu x"
M='mem(size=256m)'
compare "raid0 x4 4K randread QD32" "raid0($M x4, chunk=128k)" 'mem(size=1g)' randread 4k 32 1 0.95
compare "raid1 x2 4K randread QD32" "raid1($M x2)" "$M" randread 4k 32 1 ""
compare "raid10 x4 4K randread QD32" "raid10($M x4)" 'mem(size=512m)' randread 4k 32 1 ""
compare "raid5 x4 4K randread QD32" "raid5($M x4, chunk=128k)" 'mem(size=768m)' randread 4k 32 1 ""
compare "raid0 x4 1M read QD8" "raid0($M x4, chunk=128k)" 'mem(size=1g)' read 1m 8 1 ""
compare "raid1 x2 4K randread QD32 2thr" "raid1($M x2)" "$M" randread 4k 32 2 ""
