#!/usr/bin/env bash
# verify=crc32c on a real file: a clean run passes; a byte flipped on disk
# afterwards is found by verify_only, which names its exact offset.
. "$(dirname "$0")/lib.sh"
need jq

job=(--rw=randwrite --bs=4k --size=8m --iodepth=16 --verify=crc32c --randseed=7)
$RAIDLAB run --target "file($T/v.img, size=8m)" "${job[@]}" --keep --quiet --json w.json
[ "$(jqv w.json '.jobs[0].verify.blocks')" = 2048 ] || fail "verify checked $(jqv w.json '.jobs[0].verify.blocks') blocks"
[ "$(jqv w.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "clean run reported bad blocks"
# the same job, verify only: still clean (and writes nothing)
cp v.img before.img
$RAIDLAB run --target "$T/v.img" "${job[@]}" --verify_only=1 --quiet --json r.json
cmp -s v.img before.img || fail "verify_only wrote"
[ "$(jqv r.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "verify_only found damage in a clean file"
# flip one byte at a known offset
off=$((3 * 1048576 + 12345))
byte=$(od -An -tu1 -j $off -N1 v.img | tr -d ' ')
printf "$(printf '\\%03o' $(((byte ^ 0x40) & 255)))" | dd of=v.img bs=1 seek=$off conv=notrunc status=none
expect_fail 1 "offset $off" $RAIDLAB run --target "$T/v.img" "${job[@]}" --verify_only=1 --quiet --json r.json
[ "$(jqv r.json '.jobs[0].verify.first_bad_offset')" = $off ] || fail "first_bad_offset is not $off"
[ "$(jqv r.json '.jobs[0].verify.bad_blocks')" = 1 ] || fail "one bad block expected"
# and a different seed finds nothing it recognises: every block is reported
expect_fail 1 "verify failed" $RAIDLAB run --target "$T/v.img" --rw=randwrite --bs=4k --size=8m \
	--verify=crc32c --randseed=8 --verify_only=1 --quiet
echo ok
