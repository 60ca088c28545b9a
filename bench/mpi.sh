#!/usr/bin/env bash
# A 32-point simulated sweep on 1, 2 and 4 MPI ranks (mpirun on this host,
# oversubscribed), each the median of ROUNDS runs; prints the wall time and
# the speed-up over one rank.  One rank runs one point at a time (-j 1);
# under mpirun with more ranks each rank, rank 0 included, runs one point at
# a time.  Goal: >= 1.7x at 2 ranks on a 2-core machine (rank 0 spends
# little on handing out points).  A busy machine lowers every figure.
# Each test runs CDM 5's own 5 s (simulated), so a point costs about 1.7 s
# of CPU, as sweep points do; with 500 ms tests a point costs 0.2 s and the
# serial part (mpirun's start, about 0.45 s, and rank 0 checking that each
# spec opens, about 0.6 s) holds 2 ranks to about 1.6x.
#
# Then many clients of one server: 1, 2 and 4 ranks each run fio's nbd
# engine (4K randread, QD16, time-based, a region each) against one
# `raidlab serve` export of memory; printed are the IOPS the ranks' fio
# reports add up to (the median of the rounds), and, as a check, the reads
# the clients made and the reads the server itself counted (serve --json;
# its IOPS divide by the server's whole session, so they are not shown).  This measures the server, one thread, against more
# clients: on 2 cores the clients compete with it for the CPU.
# (SKIP_SWEEP=1 or SKIP_SERVE=1 leaves out either part.)
#
#   bench/mpi.sh [ROUNDS] [SECONDS_PER_SERVE_RUN]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
rounds=${1:-1}
secs=${2:-5}
$RAIDLAB version | grep -q '^mpi: Open MPI' || { echo "raidlab was built without MPI" >&2; exit 1; }
spec='raid{0,10}(ssd(850evo) x{2,4}, chunk={16k,32k,64k,128k,256k,512k,1m,2m})'
args=(cdm5 --target "$spec" --size 32m --passes 1 --no-store --quiet)
mpi=(mpirun --oversubscribe --allow-run-as-root)
dir=$(mktemp -d /var/tmp/raidlab-bench.XXXXXX)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$dir"' EXIT

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

if [ "${SKIP_SWEEP:-0}" != 1 ]; then
	echo "32-point sweep (cdm5, 32 MiB, its default 5 s per test), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
	t1=$(run 1)
	printf '%d rank(s): %7.1f s\n' 1 "$t1"
	for n in 2 4; do
		t=$(run "$n")
		printf '%d rank(s): %7.1f s  speed-up %.2fx\n' "$n" "$t" "$(awk -v a="$t1" -v b="$t" 'BEGIN { print a / b }')"
	done
fi

[ "${SKIP_SERVE:-0}" = 1 ] && exit 0
fio --enghelp=nbd >/dev/null 2>&1 || { echo "fio has no nbd engine" >&2; exit 1; }
# serve_run RANKS: "CLIENT_IOPS CLIENT_READS SERVER_READS", the round of
# the median IOPS
serve_run() {
	local ranks=$1 rs=()
	for _ in $(seq "$rounds"); do
		rm -f "$dir"/s.sock "$dir"/ready "$dir"/f.*.json
		"$RAIDLAB" serve 'mem(size=1g)' --socket "$dir/s.sock" --shared 64 --ready-file "$dir/ready" \
			--json "$dir/srv.json" --quiet --no-status &
		spid=$!
		for _ in $(seq 100); do [ -s "$dir/ready" ] && break; sleep 0.05; done
		"${mpi[@]}" -n "$ranks" bash -c 'r=$OMPI_COMM_WORLD_RANK
			exec fio --name=rank$r --ioengine=nbd --uri="nbd+unix:///?socket='"$dir"'/s.sock" \
				--offset=$((r * 256))m --size=256m --rw=randread --bs=4k --iodepth=16 \
				--time_based --runtime='"$secs"' --output-format=json --output='"$dir"'/f.$r.json' \
			>/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
		kill -TERM "$spid"; wait "$spid"; spid=
		rs+=("$(jq -s '[.[].jobs[0].read.iops] | add' "$dir"/f.*.json) $(jq -s \
			'[.[].jobs[0].read.total_ios] | add' "$dir"/f.*.json) $(jq '.jobs[0].read.ios' "$dir/srv.json")")
	done
	printf '%s\n' "${rs[@]}" | sort -g | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
}
echo
echo "N clients of one raidlab serve (fio nbd, 4K randread QD16, ${secs} s each), load $(cut -d' ' -f1 /proc/loadavg)"
for n in 1 2 4; do
	read -r c cr sr < <(serve_run "$n")
	[ "$n" = 1 ] && c1=$c
	printf '%d client(s): %8.0f IOPS in all  %.2fx one client  (reads: %d by the clients, %d served)\n' \
		"$n" "$c" "$(awk -v a="$c1" -v b="$c" 'BEGIN { print b / a }')" "$cr" "$sr"
done
