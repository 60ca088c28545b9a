#!/usr/bin/env bash
# raid5/raid6 under the rest of raidlab, unchanged: a suite (CrystalDiskMark)
# on simulated drives and `raidlab compare` of the results, the controller
# cache in front of a raid5, verify through raid6 with a member failed, and
# `raidlab rebuild` of a wiped raid5 member file checked with cmp.
. "$(dirname "$0")/lib.sh"
need jq
need cmp

# a suite on raid5 and raid6 of simulated SATA drives, then compare
$RAIDLAB run cdm --target 'raid5(ssd(samsung-850evo-500) x4, chunk=64k)' --label r5 \
	--target 'raid6(ssd(samsung-850evo-500) x5, chunk=64k)' --label r6 \
	--size=64m --passes=1 --warmup=0 --duration=1s --out-dir . --quiet >/dev/null ||
	fail "cdm on raid5/raid6"
for f in cdm-r5.json cdm-r6.json; do
	[ -s "$f" ] || fail "no $f"
done
$RAIDLAB compare cdm-r5.json cdm-r6.json >cmp.txt || fail "compare"
grep -q "SEQ1M Q8T1 write" cmp.txt || fail "compare table: $(cat cmp.txt)"
grep -q "RND4K Q1T1 read" cmp.txt || fail "compare table: $(cat cmp.txt)"

# the controller cache over a raid5 of RAM members: data intact
$RAIDLAB run --target 'cache(raid5(mem(size=16m) x4, chunk=16k), write=back, size=4m)' \
	--rw=randwrite --bs=4k --size=32m --iodepth=16 --verify=crc32c --quiet --json c.json ||
	fail "cache over raid5"
[ "$(jqv c.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "cache over raid5: bad blocks"

# raid6 with two members failed still stores and returns data
$RAIDLAB run --target 'raid6(mem(size=16m) x6, chunk=32k, failed=1+4)' --rw=randrw --bs=16k \
	--size=32m --iodepth=8 --verify=crc32c --quiet --json d.json || fail "degraded raid6"
[ "$(jqv d.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "degraded raid6: bad blocks"
[ "$(jqv d.json '.jobs[0].target_counters.state')" = degraded ] || fail "raid6 state"

# rebuild a wiped raid5 member file: byte-identical to what it held
R5='raid5(file(a.img,size=8m), file(b.img,size=8m), file(c.img,size=8m), chunk=64k)'
$RAIDLAB run --target "$R5" --rw=write --bs=128k --iodepth=4 --verify=crc32c --keep --quiet ||
	fail "filling the raid5"
out=$($RAIDLAB check "$R5") || fail "check after filling: $out"
cp b.img b.orig
dd if=/dev/urandom of=b.img bs=1M count=8 conv=notrunc status=none
$RAIDLAB rebuild "$R5" --member 1 --quiet || fail "rebuild"
cmp -s b.img b.orig || fail "rebuilt member differs"

# no leaks or memory errors on the new CLI paths: a sanitizer build checked
# them in the runs above; the plain build runs them under valgrind
if [[ ${RAIDLAB_BUILD:-} != *-[at]san ]]; then
	need valgrind
	vg $RAIDLAB create raid5 'file(v0.img,size=2m)' 'file(v1.img,size=2m)' 'file(v2.img,size=2m)' \
		--chunk 16k --quiet
	vg $RAIDLAB run --target 'md(v0.img, v1.img, v2.img, stripe_cache=8)' --rw=randwrite --bs=4k \
		--size=512k --iodepth=4 --verify=crc32c --ioengine=psync --quiet
	vg $RAIDLAB info 'md(v0.img, v2.img)'
	vg $RAIDLAB check 'md(v0.img, v1.img, v2.img)'
	vg $RAIDLAB run --target 'raid5(mem(size=1m) x3, chunk=16k, ppl=on, stripe_cache=4)' \
		--rw=randwrite --bs=4k --size=256k --quiet
	vg $RAIDLAB parity-speed --members 4 --seconds 0.05
	vg $RAIDLAB info 'md(v0.img, v0.img)' || true
	vg $RAIDLAB info 'raid6(mem(size=1m) x4, layout=bogus)' || true
fi
echo ok
