#!/usr/bin/env bash
# raidlab sweep's parallel speed-up: 16 simulated configurations (raid0 and
# raid10 of 2 and 4 850 EVOs, two chunk sizes, behind a PERC H730P in
# write-back and write-through) with a short cdm5, run with -j 1 (one by
# one) and with -j N (default 2), no store.  Prints both wall times and
# their ratio; the goal on two cores is a ratio <= 0.6.  The machine's load
# average is printed: on a shared machine the ratio moves with it.
#
#   bench/sweep.sh [N]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
par=${1:-2}
spec='controller(perc-h730p, raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k}), write={back,through})'
opts=(cdm5 --size 32m --passes 1 --duration 300ms --no-store --quiet --target "$spec")
[ -x "$build/raidlab" ] || make -C "$top" -j2 >/dev/null
t() { # wall seconds of one sweep with -j $1
	local s e
	s=$(date +%s.%N)
	"$build/raidlab" sweep "${opts[@]}" -j "$1" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
one=$(t 1)
many=$(t "$par")
printf 'one by one (-j 1): %.1f s\n-j %s:             %.1f s\nratio: %.2f (goal <= 0.6)\n' \
	"$one" "$par" "$many" "$(awk -v a="$many" -v b="$one" 'BEGIN { print a / b }')"
