#!/usr/bin/env bash
# The SSD simulator's speed: simulated host I/Os per wall-clock second, one core.
#
#   bench/sim-speed.sh [PROFILE] [SIM_SECONDS]
#
# (a) 4K random writes QD32 in steady state (GC on every write),
# (b) 4K random reads QD32, (c) 1M sequential reads QD32, on the full-size
# drive (default sx8200pro-256, 256 GB).  Goal: >= 2 million simulated 4K
# I/Os per wall second.
#
# Measured twice: with bench/sim_speed.c, a small load generator linked
# against build/libraidlab.a (the model alone), and through `raidlab run`
# (the job runner with its statistics), whose JSON gives the I/O count and
# the CPU time, with the process's peak resident memory: (d) reads a fresh
# drive, whose tables should cost nothing.  The machine's load average is printed: on a shared machine
# the CPU-time column is the better figure.
#
# REF=path/to/another/raidlab (an older build, say) adds the comparison of
# the hot path alone: case (a) through `raidlab run` for 600 simulated
# seconds and for 30, by this build and by REF in turn, REPS times (3); the
# short run is subtracted, so what is left is the cost per simulated I/O
# after the drive is set up.  It prints both builds' simulated I/Os per CPU
# second and per wall second, and the median ratio (this / REF): CPU time,
# because on a shared machine the wall clock measures the neighbours.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prof=${1:-sx8200pro-256}
secs=${2:-}
build=${BUILD:-$top/build}
export RAIDLAB_PROFILES=${RAIDLAB_PROFILES:-$top/profiles}

[ -f "$build/libraidlab.a" ] || make -C "$top" -s "$build/libraidlab.a"
out=$(mktemp -d /tmp/raidlab-simspeed.XXXXXX)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2046
cc -std=gnu17 -D_GNU_SOURCE -O2 -I"$top/src" -o "$out/sim_speed" "$top/bench/sim_speed.c" \
	-Wl,--whole-archive "$build/libraidlab.a" -Wl,--no-whole-archive \
	$(make -s -C "$top" print-ldlibs)

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== the model alone (bench/sim_speed.c) =="
"$out/sim_speed" "$prof" ${secs:+"$secs"}

raidlab=$build/raidlab
if [ -x "$raidlab" ] && "$raidlab" run --help >/dev/null 2>&1; then
	echo "== through raidlab run =="
	run() { # label state rw bs runtime
		python3 - "$1" "$raidlab" "ssd($prof, state=$2)" "$3" "$4" "${secs:-$5}" "$out/r.json" <<-'EOF'
			import json, resource, subprocess, sys, time
			label, raidlab, spec, rw, bs, secs, path = sys.argv[1:]
			t0 = time.monotonic()
			subprocess.run([raidlab, "run", "--target", spec, "--rw=" + rw, "--bs=" + bs,
			                "--iodepth=32", "--runtime=" + secs, "--time_based", "--quiet",
			                "--json", path], check=True, stdout=subprocess.DEVNULL)
			wall = time.monotonic() - t0
			peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
			j = json.load(open(path))["jobs"][0]
			d = j.get("write") if "write" in j and j["write"].get("ios") else j.get("read")
			cpu = j["cpu"]["user_s"] + j["cpu"]["sys_s"]
			print("%-30s %10d I/Os %6.2f s sim %6.2f s wall (with open) %6.2f s cpu %6.2f M I/O/s cpu"
			      "  %6.0f MB peak  (%.0f MB/s simulated)"
			      % (label, d["ios"], d["runtime_s"], wall, cpu, d["ios"] / cpu / 1e6, peak, d["mb_s"]))
		EOF
	}
	run "(d) 4K randread QD32 fresh" fresh randread 4k 30
	run "(a) 4K randwrite QD32 steady" steady randwrite 4k 300
	run "(b) 4K randread QD32" full randread 4k 30
	run "(c) 1M seqread QD32" full read 1m 30
else
	echo "(raidlab run not available: skipped the runner measurement)"
fi

if [ -n "${REF:-}" ]; then
	echo "== hot path: 4K randwrite QD32 steady, 600 s minus 30 s simulated, this build / $REF =="
	python3 - "$raidlab" "$REF" "ssd($prof, state=steady)" "${REPS:-3}" "$out/h.json" <<-'EOF'
		import json, statistics, subprocess, sys, time
		new, ref, spec, reps, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
		def run(b, secs):
		    t0 = time.monotonic()
		    subprocess.run([b, "run", "--target", spec, "--rw=randwrite", "--bs=4k", "--iodepth=32",
		                    "--runtime=%d" % secs, "--time_based", "--quiet", "--json", path],
		                   check=True, stdout=subprocess.DEVNULL)
		    wall = time.monotonic() - t0
		    j = json.load(open(path))["jobs"][0]
		    return j["write"]["ios"], j["cpu"]["user_s"] + j["cpu"]["sys_s"], wall
		rates = {new: [], ref: []}
		for r in range(reps):
		    for b in (new, ref):
		        i1, c1, w1 = run(b, 30)
		        i2, c2, w2 = run(b, 600)
		        cpu, wall = (i2 - i1) / (c2 - c1) / 1e6, (i2 - i1) / (w2 - w1) / 1e6
		        rates[b].append(cpu)
		        print("%-4s %d: %6.2f M I/O per cpu s  %6.2f M I/O per wall s  (%d I/Os)"
		              % ("this" if b == new else "ref", r + 1, cpu, wall, i2 - i1), flush=True)
		ratios = [a / b for a, b in zip(rates[new], rates[ref])]
		print("median: this %.2f, ref %.2f M I/O per cpu s; ratio this/ref %.2f (%s)"
		      % (statistics.median(rates[new]), statistics.median(rates[ref]),
		         statistics.median(ratios), " ".join("%.2f" % x for x in ratios)))
	EOF
fi
