#!/usr/bin/env bash
# How raidlab's costs grow with the work: device size, array size, clients.
#
#   bench/scale.sh [SECONDS_PER_RUN]
#
# (a) the null target, 4K randread QD32, at 1 GiB, 100 GiB and 4 TiB,
#     against fio's null engine at the same size: IOPS, CPU per I/O and the
#     ratio.  Goal: raidlab's rate the same within 10 % at every size.
# (b) simulated arrays of 850 EVOs, raid0 and raid6 of 4, 8 and 24 drives:
#     4K randread QD32 for SECONDS of simulated time, and one CrystalDiskMark
#     pass (cdm, default size) on raid6 of 24 4 TB models (capacity=4TB);
#     wall time and peak resident memory of the whole process.  Goal:
#     memory follows what the workload touches (a fresh drive's tables cost
#     nothing until written): the CDM pass in <= 4 GB.
# (c) raidlab serve of 1 GiB of memory against nbdkit's memory plugin,
#     nbdcopy reading all of it with 1, 2 and 4 connections: MB/s and ratio.
#     --no-extents makes nbdcopy read every byte from both (nbdkit reports
#     the never-written memory as a hole, which nbdcopy would skip).
# Peak memory is the child's ru_maxrss, measured by python's resource module.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
RAIDLAB=${RAIDLAB:-$top/build/raidlab}
secs=${1:-2}
dir=$(mktemp -d /var/tmp/raidlab-scale.XXXXXX)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$dir"' EXIT
for p in fio jq nbdkit nbdcopy python3; do
	command -v $p >/dev/null || { echo "$p is not installed (scripts/install-deps.sh)"; exit 1; }
done
[ -x "$RAIDLAB" ] || { echo "build raidlab first (make)"; exit 1; }
export RAIDLAB_PROFILES=${RAIDLAB_PROFILES:-$top/profiles}

# measure CMD...: prints "wall_s peak_MB" for one run of CMD (output dropped)
measure() {
	python3 - "$@" <<-'EOF'
		import resource, subprocess, sys, time
		t0 = time.monotonic()
		subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
		wall = time.monotonic() - t0
		print("%.2f %.0f" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024))
	EOF
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); ${secs}s per run"
echo "== (a) null target, 4K randread QD32 =="
printf '%-8s %12s %9s %12s %9s %8s\n' size "raidlab IOPS" "us/io" "fio IOPS" "us/io" ratio
for size in 1g 100g 4t; do
	"$RAIDLAB" run --target "null(size=$size)" --rw=randread --bs=4k --iodepth=32 \
		--runtime="$secs" --time_based --quiet --json "$dir/r.json" >/dev/null
	read -r ri rc < <(jq -r '.jobs[0] as $j | "\($j.read.iops) \(1e6 * ($j.cpu.user_s + $j.cpu.sys_s) / $j.read.ios)"' "$dir/r.json")
	fio --name=b --ioengine=null --size="$size" --rw=randread --bs=4k --iodepth=32 \
		--runtime="$secs" --time_based --output-format=json --output="$dir/f.json" >/dev/null
	read -r fi fc < <(jq -r '.jobs[0] as $j | "\($j.read.iops) \(1e6 * ($j.usr_cpu + $j.sys_cpu) / 100 * ($j.job_runtime / 1000) / $j.read.total_ios)"' "$dir/f.json")
	awk -v s="$size" -v ri="$ri" -v rc="$rc" -v fi="$fi" -v fc="$fc" \
		'BEGIN { printf "%-8s %12.0f %9.4f %12.0f %9.4f %7.2fx\n", s, ri, rc, fi, fc, ri / fi }'
done

echo "== (b) simulated arrays of 850 EVO (500 GB), fresh =="
printf '%-34s %8s %9s\n' case "wall s" "peak MB"
for level in raid0 raid6; do
	for n in 4 8 24; do
		read -r w m < <(measure "$RAIDLAB" run --target "$level(ssd(850evo) x$n)" --rw=randread \
			--bs=4k --iodepth=32 --runtime="$secs" --time_based --quiet)
		printf '%-34s %8s %9s\n' "$level x$n 4K randread QD32" "$w" "$m"
	done
done
read -r w m < <(measure "$RAIDLAB" run cdm --target "raid6(ssd(850evo, capacity=4TB) x24)" \
	--out-dir "$dir/cdm")
printf "%-34s %8s %9s\n" "raid6 x24 4 TB cdm" "$w" "$m"

echo "== (c) serve vs nbdkit: nbdcopy of 1 GiB, N connections =="
start_server() { # raidlab|nbdkit
	rm -f "$dir/s.sock"
	if [ "$1" = raidlab ]; then
		"$RAIDLAB" serve 'mem(size=1g)' --socket "$dir/s.sock" --quiet --no-status &
	else
		nbdkit -f -U "$dir/s.sock" memory 1G &
	fi
	spid=$!
	for _ in $(seq 200); do [ -S "$dir/s.sock" ] && return; sleep 0.05; done
	echo "$1 did not start"
	exit 1
}
copy_mb_s() { # server connections
	local t0 t1
	start_server "$1"
	t0=$(date +%s.%N)
	nbdcopy --no-extents --connections="$2" "nbd+unix:///?socket=$dir/s.sock" null:
	t1=$(date +%s.%N)
	kill "$spid"
	wait "$spid" 2>/dev/null || true
	spid=
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 1073.741824 / (b - a) }'
}
printf '%-12s %12s %12s %8s\n' connections "raidlab MB/s" "nbdkit MB/s" ratio
for c in 1 2 4; do
	r=$(copy_mb_s raidlab "$c")
	k=$(copy_mb_s nbdkit "$c")
	awk -v c="$c" -v r="$r" -v k="$k" 'BEGIN { printf "%-12s %12s %12s %7.2fx\n", c, r, k, r / k }'
done
