#!/usr/bin/env bash
# Targets are shared by every worker thread of a run (per-thread state lives
# in the executor a request carries), so each target type must take
# requests from several threads at once.  Each stack below gets four
# workers writing and reading back at random with verification, on real
# members (mem, files); the data must verify.  In the ThreadSanitizer build
# (make check-tsan) the same runs fail on any data race between workers.
. "$(dirname "$0")/lib.sh"
need jq
job=(--rw=randrw --bs=4k --numjobs=4 --iodepth=8 --size=8m --verify=crc32c --quiet)
specs=(
	'mem(size=64m)'
	"file($T/a.img, size=64m)"
	'raid0(mem(size=32m) x2, chunk=16k)'
	'raid1(mem(size=64m) x2)'
	'raid10(mem(size=32m) x4, chunk=16k)'
	'raid5(mem(size=32m) x3, chunk=16k)'
	'raid6(mem(size=32m) x4, chunk=16k)'
	'concat(mem(size=32m) x2)'
	'slice(mem(size=128m), offset=16m, size=64m)'
	'cache(raid0(mem(size=32m) x2), size=8m)'
	'cache(mem(size=64m), size=4m, write=back)'
	'link(mem(size=64m), bw=2GB/s, lat=5us, iops=400000)'
	'delay(mem(size=64m), lat=20us)'
	'faulty(mem(size=64m))'
)
for s in "${specs[@]}"; do
	rc=0
	"$RAIDLAB" run --target "$s" "${job[@]}" --json r.json >out.txt 2>err.txt || rc=$?
	[ $rc = 0 ] || { cat err.txt; fail "$s: four workers: exit $rc"; }
	jq -e 'all(.jobs[]; .verify.blocks > 0 and .verify.bad_blocks == 0)' r.json >/dev/null ||
		{ jq -c '.jobs[].verify' r.json; fail "$s: nothing verified, or bad blocks"; }
	echo "ok: $s"
done
echo "core_threads: ok"
