#!/usr/bin/env bash
# md metadata, checked by mdadm: `raidlab create` writes v1.2 superblocks,
# `mdadm --examine` (on the image files and on loop devices bound to them)
# must report exactly the array raidlab created, for raid5, raid6, raid10,
# raid1 and raid0.  Then md(...) opens the array from its superblocks in any
# member order, data written through it verifies, it opens degraded with a
# member missing and still verifies, check finds a planted corruption and
# (raid6) names the member, and rebuild restores a wiped member.
#
# Arrays made by mdadm itself need the md kernel module (mdadm --create
# talks to it); where /proc/mdstat exists the test also creates one with
# mdadm on loop devices and opens it with md(...).
. "$(dirname "$0")/lib.sh"
need mdadm
need jq
need cmp

examine_field() { # examine_field FILE FIELD
	mdadm --examine "$1" | sed -n "s/^ *$2 : //p" | head -1
}

check_examine() { # check_examine DEV LEVEL NDEV ROLE LAYOUT CHUNK UUID
	local dev=$1 out
	out=$(mdadm --examine "$dev") || fail "mdadm --examine $dev failed: $out"
	grep -q "Version : 1.2" <<<"$out" || fail "$dev: not v1.2: $out"
	grep -q "Raid Level : $2\$" <<<"$out" || fail "$dev: level is not $2: $out"
	grep -q "Raid Devices : $3\$" <<<"$out" || fail "$dev: not $3 devices: $out"
	grep -q "Device Role : Active device $4\$" <<<"$out" || fail "$dev: role is not $4: $out"
	[ -z "$5" ] || grep -q "Layout : $5\$" <<<"$out" || fail "$dev: layout is not $5: $out"
	[ -z "$6" ] || grep -q "Chunk Size : $6\$" <<<"$out" || fail "$dev: chunk is not $6: $out"
	grep -q "Checksum : .* - correct" <<<"$out" || fail "$dev: checksum not correct: $out"
	grep -q "Data Offset : 2048 sectors" <<<"$out" || fail "$dev: data offset: $out"
	grep -q "Array UUID : $7\$" <<<"$out" || fail "$dev: UUID is not $7: $out"
	grep -q "Array State : $8 " <<<"$out" || fail "$dev: array state is not $8: $out"
}

uuid=0123abcd:4567ef01:89abcdef:01234567
MSIZE=4m
create() { # create LEVEL N LAYOUT CHUNK [--assume-clean]: members m0.img..m{N-1}.img
	local level=$1 n=$2 layout=$3 chunk=$4 args=() i
	rm -f m*.img
	for ((i = 0; i < n; i++)); do args+=("file(m$i.img,size=$MSIZE)"); done
	# shellcheck disable=SC2086 # $5: extra options, split on purpose
	$RAIDLAB create "$level" "${args[@]}" --uuid "$uuid" --quiet ${5:-} \
		${layout:+--layout "$layout"} ${chunk:+--chunk "$chunk"} || fail "create $level"
}

state_all() { printf 'A%.0s' $(seq "$1"); }

for spec in "raid5 4 left-symmetric 64k 64K" "raid5 3 right-asymmetric 16k 16K" \
	"raid6 5 left-asymmetric 32k 32K" "raid6 6 right-symmetric-6 64k 64K" \
	"raid10 4 f2 64k 64K" "raid1 2 '' '' ''" "raid0 3 '' 128k 128K"; do
	eval "set -- $spec"
	create "$1" "$2" "$3" "$4" --assume-clean
	want_layout=$3
	[ "$1" = raid10 ] && want_layout="far=2"
	for ((i = 0; i < $2; i++)); do
		check_examine "m$i.img" "$1" "$2" "$i" "$want_layout" "$5" "$uuid" "$(state_all "$2")"
	done
done

loops=()
cleanup_hooks+=('for l in "${loops[@]}"; do losetup -d "$l"; done')
# loop devices bound to the members (read-only): mdadm sees the same array.
# Without --assume-clean create runs the initial resync (raidlab's test files
# start with random contents), so the parity agrees with the data.
MSIZE=12m
create raid6 5 left-symmetric 64k
for i in 0 1 2 3 4; do
	l=$(losetup -r -f --show "m$i.img") || fail "losetup m$i.img"
	loops+=("$l")
	check_examine "$l" raid6 5 "$i" left-symmetric 64K "$uuid" AAAAA
done
for l in "${loops[@]}"; do losetup -d "$l"; done
loops=()

# md(...) opens it from the superblocks, in any member order
$RAIDLAB info 'md(m3.img, m0.img, m4.img, m2.img, m1.img)' >info.txt || fail "md() info"
grep -q "raid6 .*layout=left-symmetric" info.txt || fail "md() is not the raid6: $(cat info.txt)"
grep -q "state=optimal" info.txt || fail "md() state: $(cat info.txt)"
$RAIDLAB run --target 'md(m3.img, m0.img, m4.img, m2.img, m1.img)' --rw=randwrite --bs=16k \
	--size=24m --iodepth=8 --verify=crc32c --randseed=3 --keep --quiet --json w.json ||
	fail "write+verify through md()"
[ "$(jqv w.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "verify through md()"
out=$($RAIDLAB check 'md(m0.img,m1.img,m2.img,m3.img,m4.img)') || fail "check: $out"
grep -q "no mismatches" <<<"$out" || fail "check after writing: $out"
# the superblocks are still mdadm's view of the array after the data went in
check_examine m2.img raid6 5 2 left-symmetric 64K "$uuid" AAAAA

# degraded: two members missing, the data is still all there
$RAIDLAB info 'md(m0.img, m2.img, m4.img)' >info.txt || fail "degraded md() info"
grep -q "state=degraded" info.txt || fail "md() with members missing: $(cat info.txt)"
$RAIDLAB run --target 'md(m0.img, m2.img, m4.img)' --rw=randwrite --bs=16k --size=24m \
	--iodepth=8 --verify=crc32c --randseed=3 --verify_only=1 --quiet --json r.json ||
	fail "verify_only through the degraded md()"
[ "$(jqv r.json '.jobs[0].verify.bad_blocks')" = 0 ] || fail "degraded verify"

# check names a corrupted member (raid6), repair fixes it
off=$((1048576 + 3 * 65536 + 777)) # member 3's data area, stripe 3
dd if=/dev/urandom of=m3.img bs=1 seek=$off count=1 conv=notrunc status=none
out=$($RAIDLAB check 'md(m0.img,m1.img,m2.img,m3.img,m4.img)') && fail "check missed it: $out"
grep -q "member 3" <<<"$out" || fail "check did not name member 3: $out"
$RAIDLAB check --repair 'md(m0.img,m1.img,m2.img,m3.img,m4.img)' >/dev/null 2>&1 || true
out=$($RAIDLAB check 'md(m0.img,m1.img,m2.img,m3.img,m4.img)') || fail "still bad: $out"

# rebuild a wiped member through the level spec md() resolves to
cp m1.img m1.orig
dd if=/dev/urandom of=m1.img bs=1M seek=1 count=11 conv=notrunc status=none
sl() { echo "slice(m$1.img,offset=1m,size=$((11 * 1048576)))"; }
# (the members hold md superblocks: a raw level spec over them writes only with --force-destroy)
$RAIDLAB rebuild "raid6($(sl 0),$(sl 1),$(sl 2),$(sl 3),$(sl 4),chunk=64k)" --member 1 --quiet \
	--force-destroy ||
	fail "rebuild"
cmp -s m1.img m1.orig || fail "rebuilt member differs from the original"

# mismatched arrays and damaged superblocks are refused with a reason
cp m0.img other.img
create raid5 3 left-symmetric 64k --assume-clean
expect_fail 2 "another array" $RAIDLAB info 'md(m0.img, m1.img, other.img)'
printf '\x07' | dd of=m1.img bs=1 seek=$((4096 + 88)) conv=notrunc status=none
expect_fail 2 "checksum" $RAIDLAB info 'md(m0.img, m1.img, m2.img)'
expect_fail 2 "no md superblock" $RAIDLAB info "md(file($T/plain.img,size=8m))"

# an internal write-intent bitmap: mdadm sees it; writes through md(...) set
# its bits (mdadm --examine-bitmap on a loop device counts them dirty while a
# writer runs or after it was killed) and a clean stop clears them, as md's
# bitmap daemon does
MSIZE=12m
create raid5 3 left-symmetric 64k "--bitmap-chunk 1m"
grep -q "Internal Bitmap : 8 sectors from superblock" <(mdadm --examine m1.img) ||
	fail "no internal bitmap: $(mdadm --examine m1.img)"
$RAIDLAB run --target 'md(m0.img, m1.img, m2.img)' --rw=randwrite --bs=4k --size=3m \
	--iodepth=4 --verify=crc32c --quiet --json b.json || fail "writing through md() with a bitmap"
[ "$(jqv b.json '.jobs[0].target_counters.bitmap_writes')" -gt 0 ] || fail "no bitmap writes"
l=$(losetup -r -f --show m1.img) || fail "losetup"
loops+=("$l")
out=$(mdadm --examine-bitmap "$l") || fail "mdadm -X: $out"
grep -q "Magic : 6d746962" <<<"$out" || fail "bitmap magic: $out"
grep -q "UUID : $uuid" <<<"$out" || fail "bitmap UUID: $out"
grep -q "Chunksize : 1 MB" <<<"$out" || fail "bitmap chunk: $out"
# every change bumped the superblock's events; the bitmap's follow
grep -q "Events : $(examine_field m1.img Events)\$" <<<"$out" || fail "bitmap events: $out"
grep -q "Bitmap : 11 bits (chunks), 0 dirty" <<<"$out" || fail "bits left after a clean stop: $out"
losetup -d "$l"
loops=()
# a writer killed mid-run leaves its regions dirty, the array active
$RAIDLAB run --quiet --target 'md(m0.img, m1.img, m2.img)' --rw=randwrite --bs=4k --size=11m \
	--time_based --runtime=60 >/dev/null 2>&1 &
wpid=$!
bits() { od -An -tx1 -j $((4096 + 8 * 512 + 256)) -N 2 m1.img | tr -d ' 0\n'; }
for _ in $(seq 200); do
	[ "$(examine_field m1.img State)" = active ] && [ -n "$(bits)" ] && break
	sleep 0.05
done
kill -9 "$wpid"
wait "$wpid" 2>/dev/null || true
[ "$(examine_field m1.img State)" = active ] || fail "a killed writer left the array clean"
l=$(losetup -r -f --show m1.img) || fail "losetup"
loops+=("$l")
out=$(mdadm --examine-bitmap "$l") || fail "mdadm -X: $out"
grep -Eq "Bitmap : 11 bits \(chunks\), [1-9][0-9]* dirty" <<<"$out" || fail "bitmap bits: $out"
losetup -d "$l"
loops=()
# the next open for writing resyncs it; then check finds nothing and the bits are clear
$RAIDLAB run --target 'md(m0.img, m1.img, m2.img)' --rw=write --bs=4k --size=4k >/dev/null \
	2>err || fail "reopening after the kill: $(cat err)"
grep -q "resyncing" err || fail "the unclean stop was not resynced: $(cat err)"
out=$($RAIDLAB check 'md(m0.img, m1.img, m2.img)') || fail "check with a bitmap: $out"
[ -z "$(bits)" ] || fail "bits left set after the resync and a clean stop"

if [ ! -e /proc/mdstat ]; then
	# mdadm --examine above checked the superblocks raidlab writes
	defer_skip_env "no md kernel module (/proc/mdstat missing): mdadm cannot create an array for md() to read"
elif [ "$(id -u)" != 0 ]; then
	defer_skip_env "not root: no loop devices for mdadm's array"
else
	# mdadm writes the superblocks, raidlab reads them
	rm -f m*.img
	loops=()
	for i in 0 1 2 3; do
		truncate -s 12m "m$i.img"
		loops+=("$(losetup -f --show "m$i.img")")
	done
	md=/dev/md/raidlab-test
	mdadm --create "$md" --run --level=5 --raid-devices=4 --chunk=64 --assume-clean \
		--metadata=1.2 "${loops[@]}" || fail "mdadm --create"
	mdadm --stop "$md"
	$RAIDLAB info "md($(IFS=,; echo "${loops[*]}"))" | grep -q "raid5 .*left-symmetric" ||
		fail "md() does not read mdadm's array"
fi
finish
