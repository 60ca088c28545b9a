#!/usr/bin/env bash
# raidlab serve against nbdkit, both serving 1 GiB of memory over a unix
# socket, measured by the same client: fio's nbd engine, one connection.
#
#   bench/serve.sh [SECONDS_PER_RUN] [ROUNDS]
#
# Cases: 4K randread QD32 (IOPS) and 1M read QD8 (MB/s).  Each round runs
# raidlab then nbdkit (alternating, so drift in machine load hits both);
# the medians and the ratio are printed.  Goal: raidlab >= 1.2x nbdkit in
# both cases.  The servers are started fresh for each run.
#
# Then emulation in real time: one simulated 850 EVO and raid0 of two,
# served at --slow 1 (fixed), 1M reads at QD32 measured over NBD by fio,
# against the figure of the same job run by raidlab in simulated time.
# Goal: within 10 %.  (SKIP_SIM=1 leaves these out.)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
secs=${1:-5}
rounds=${2:-3}
dir=$(mktemp -d /var/tmp/raidlab-bench.XXXXXX)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$dir"' EXIT
for p in fio nbdkit jq; do
	command -v $p >/dev/null || { echo "$p is not installed (scripts/install-deps.sh)"; exit 1; }
done
fio --enghelp=nbd >/dev/null 2>&1 || { echo "fio has no nbd engine"; exit 1; }
[ -x "$RAIDLAB" ] || { echo "build raidlab first (make)"; exit 1; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

start_server() { # raidlab|nbdkit
	rm -f "$dir/s.sock"
	if [ "$1" = raidlab ]; then
		"$RAIDLAB" serve 'mem(size=1g)' --socket "$dir/s.sock" --quiet --no-status &
	else
		nbdkit -f -U "$dir/s.sock" memory 1G &
	fi
	spid=$!
	for _ in $(seq 100); do [ -S "$dir/s.sock" ] && return; sleep 0.05; done
	echo "$1 did not start"; exit 1
}
stop_server() { kill "$spid"; wait "$spid" 2>/dev/null || true; spid=; }

run() { # server rw bs qd -> "iops mb_s"
	start_server "$1"
	fio --name=b --ioengine=nbd --uri="nbd+unix:///?socket=$dir/s.sock" --rw="$2" --bs="$3" \
		--iodepth="$4" --size=1g --runtime="$secs" --time_based \
		--output-format=json --output="$dir/f.json" >/dev/null 2>&1
	stop_server
	jq -r '.jobs[0].read | "\(.iops) \(.bw_bytes / 1e6)"' "$dir/f.json"
}

compare() { # label rw bs qd
	local r_i=() r_m=() k_i=() k_m=() a b
	for ((i = 0; i < rounds; i++)); do
		read -r a b < <(run raidlab "$2" "$3" "$4"); r_i+=("$a"); r_m+=("$b")
		read -r a b < <(run nbdkit "$2" "$3" "$4"); k_i+=("$a"); k_m+=("$b")
	done
	local ri ki rm km
	ri=$(printf '%s\n' "${r_i[@]}" | median); ki=$(printf '%s\n' "${k_i[@]}" | median)
	rm=$(printf '%s\n' "${r_m[@]}" | median); km=$(printf '%s\n' "${k_m[@]}" | median)
	awk -v l="$1" -v ri="$ri" -v ki="$ki" -v rm="$rm" -v km="$km" \
		'BEGIN { printf "%-22s %12.0f %12.0f %7.2fx | %10.1f %10.1f %7.2fx\n",
			l, ri, ki, ri / ki, rm, km, rm / km }'
}

echo "raidlab serve vs $(nbdkit --version | head -n1), client $(fio --version) nbd engine;" \
	"${secs}s per run, median of $rounds rounds"
printf '%-22s %12s %12s %8s | %10s %10s %8s\n' case "raidlab IOPS" "nbdkit IOPS" ratio \
	"rl MB/s" "nbdkit MB/s" ratio
[ -z "${ONLY_1M:-}" ] && compare "4K randread QD32" randread 4k 32
[ -z "${ONLY_4K:-}" ] && compare "1M read QD8" read 1m 8

[ -n "${SKIP_SIM:-}" ] && exit 0
echo
echo "simulated stacks served in real time (--slow 1), 1M read QD32, median of $rounds rounds"
printf '%-34s %12s %12s %8s %s\n' stack "simulated" "over NBD" ratio "server's verdict"
sim_case() { # spec
	local job=(--rw=read --bs=1m --iodepth=32 --size=512m --runtime="$secs" --time_based)
	local sims=() nbds=() verdicts=() v
	for ((i = 0; i < rounds; i++)); do
		"$RAIDLAB" run --target "$1" "${job[@]}" --quiet --json "$dir/d.json" >/dev/null
		sims+=("$(jq -r '.jobs[0].read.mb_s' "$dir/d.json")")
		rm -f "$dir/s.sock"
		"$RAIDLAB" serve "$1" --socket "$dir/s.sock" --no-status --slow 1 \
			--json "$dir/s.json" >/dev/null 2>"$dir/s.err" &
		spid=$!
		for _ in $(seq 100); do [ -S "$dir/s.sock" ] && break; sleep 0.05; done
		fio --name=b --ioengine=nbd --uri="nbd+unix:///?socket=$dir/s.sock" "${job[@]}" \
			--output-format=json --output="$dir/f.json" >/dev/null 2>&1
		stop_server
		nbds+=("$(jq -r '.jobs[0].read.bw_bytes / 1e6' "$dir/f.json")")
		v=$(jq -r '.jobs[0].pace | if .kept_up then "kept up" else "fell behind" end' "$dir/s.json")
		verdicts+=("$v")
	done
	local sm nm
	sm=$(printf '%s\n' "${sims[@]}" | median)
	nm=$(printf '%s\n' "${nbds[@]}" | median)
	awk -v l="$1" -v s="$sm" -v n="$nm" -v v="$(printf '%s, ' "${verdicts[@]}")" \
		'BEGIN { printf "%-34s %7.1f MB/s %7.1f MB/s %7.2fx %s\n", l, s, n, n / s, v }'
}
sim_case 'ssd(850evo, data=on)'
sim_case 'raid0(ssd(850evo, data=on) x2)'
