#!/usr/bin/env bash
# A 32-point simulated sweep on 1, 2 and 4 MPI ranks (mpirun on this host,
# oversubscribed), each the median of ROUNDS runs; prints the wall time and
# the speed-up over one rank.  One rank runs one point at a time (-j 1);
# under mpirun with more ranks each rank, rank 0 included, runs one point at
# a time.  Goal: >= 1.7x at 2 ranks on a 2-core machine (rank 0 spends
# little on handing out points).  A busy machine lowers every figure.
#
#   bench/mpi.sh [ROUNDS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
rounds=${1:-1}
$RAIDLAB version | grep -q '^mpi: Open MPI' || { echo "raidlab was built without MPI" >&2; exit 1; }
spec='raid{0,10}(ssd(850evo) x{2,4}, chunk={16k,32k,64k,128k,256k,512k,1m,2m})'
args=(cdm5 --target "$spec" --size 32m --passes 1 --duration 500ms --no-store --quiet)
mpi=(mpirun --oversubscribe --allow-run-as-root)
dir=$(mktemp -d /var/tmp/raidlab-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# run RANKS: seconds one sweep takes; the median of the rounds
run() {
	local ranks=$1 t ts=()
	for _ in $(seq "$rounds"); do
		t=$(date +%s.%N)
		"${mpi[@]}" -n "$ranks" "$RAIDLAB" sweep "${args[@]}" -j 1 --json "$dir/r$ranks.json" \
			>/dev/null 2>"$dir/err"
		t=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
		[ "$(jq '.points | length' "$dir/r$ranks.json")" -eq 32 ] ||
			{ cat "$dir/err"; echo "$ranks ranks: not 32 points" >&2; exit 1; }
		ts+=("$t")
	done
	printf '%s\n' "${ts[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

echo "32-point sweep (cdm5, 32 MiB, 500 ms per test), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
t1=$(run 1)
printf '%d rank(s): %7.1f s\n' 1 "$t1"
for n in 2 4; do
	t=$(run "$n")
	printf '%d rank(s): %7.1f s  speed-up %.2fx\n' "$n" "$t" "$(awk -v a="$t1" -v b="$t" 'BEGIN { print a / b }')"
done
