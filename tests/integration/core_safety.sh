#!/usr/bin/env bash
# The safety rule: no writes over a signature libblkid recognises (a
# filesystem, partition table, RAID superblock, LUKS, swap) on a block
# device or a file unless --force-destroy; an existing file without one is
# written as fio writes it; never (--force-destroy or not) to what is in
# use: a mounted device, a loop-attached file, a file another process
# writes, a file another raidlab run holds.
. "$(dirname "$0")/lib.sh"

# an existing regular file with no signature: written without --force-destroy, as fio does
need fio
head -c 4194304 /dev/urandom >mine.img
cp mine.img orig.img
fio --name=w --filename="$T/fio.img" --size=1m --rw=write --output=/dev/null ||
	fail "fio could not write its own file"
cp mine.img fio.img
fio --name=w --filename="$T/fio.img" --size=1m --rw=write --output=/dev/null ||
	fail "fio refused an existing file"
cmp -s fio.img orig.img && fail "fio did not write the existing file"
$RAIDLAB run --target "$T/mine.img" --rw=read --size=1m --quiet || fail "read refused"
$RAIDLAB run --target "$T/mine.img" --rw=write --size=1m --quiet ||
	fail "a plain existing file was refused (fio writes it)"
cmp -s mine.img orig.img && fail "the write did not write"
[ "$(stat -c %s mine.img)" = 4194304 ] || fail "the existing file was truncated or grown"
cmp -s <(tail -c 3145728 mine.img) <(tail -c 3145728 orig.img) ||
	fail "the write went past size=1m"
[ -e mine.img ] || fail "an existing file was removed at the end"
# the same job with fio's option spelling
cp orig.img mine.img
$RAIDLAB run --name=w --filename="$T/mine.img" --size=1m --rw=write --output-format=json \
	>/dev/null || fail "fio's command line on an existing file"
cmp -s mine.img orig.img && fail "the fio-style write did not write"

# a file with a signature is refused with the signature named, then written with --force-destroy
truncate -s 4m swap.img luks.img mbr.img
mkswap swap.img >/dev/null 2>&1 || fail "mkswap"
# a LUKS1 header (magic and version) and an MBR with one partition: what blkid looks for
printf 'LUKS\xba\xbe\x00\x01aes' | dd of=luks.img conv=notrunc status=none
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x10\x00\x00' |
	dd of=mbr.img bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of=mbr.img bs=1 seek=510 conv=notrunc status=none
for f in swap:swap luks:crypto_LUKS mbr:"dos partition table"; do
	img=${f%%:*}.img
	cp "$img" before.img
	expect_fail 1 "${f#*:}" $RAIDLAB run --target "$T/$img" --rw=write --size=1m --quiet
	grep -q "force-destroy" "$T/err" || fail "$img: message does not say how to override"
	cmp -s "$img" before.img || fail "$img: a refused write changed it"
	expect_fail 1 "${f#*:}" $RAIDLAB run atto --target "$T/$img" --size=1m --quiet
	$RAIDLAB run --target "$T/$img" --rw=read --size=1m --quiet || fail "$img: read refused"
	$RAIDLAB run --target "$T/$img" --rw=write --size=1m --quiet --force-destroy ||
		fail "$img: forced write"
	blkid -p "$img" >/dev/null 2>&1 && fail "$img: the forced write left the signature"
done
# a file raidlab created and kept is its own: writes allowed
$RAIDLAB run --target "file($T/own.img, size=2m)" --rw=write --quiet --keep
[ -f own.img ] || fail "--keep did not keep the file"
$RAIDLAB run --target "$T/own.img" --rw=randwrite --quiet || fail "write to raidlab's own file"
# without --keep the created file is removed
$RAIDLAB run --target "file($T/gone.img, size=2m)" --rw=write --quiet
[ ! -e gone.img ] || fail "created file not removed"

# another run holds the file: a second writer, and a verify reader, get its PID
$RAIDLAB run --quiet --target "$T/own.img" --rw=randwrite --bs=4k --time_based --runtime=20 \
    >/dev/null 2>&1 &
bg=$!
cleanup_hooks+=("kill $bg 2>/dev/null")
for _ in $(seq 100); do grep -q "FLOCK.*WRITE *$bg " /proc/locks && break; sleep 0.05; done
expect_fail 1 "in use by PID $bg" $RAIDLAB run --target "$T/own.img" --rw=write --size=1m --quiet
expect_fail 1 "in use by PID $bg" $RAIDLAB run --target "$T/own.img" --rw=write --size=1m \
    --verify=crc32c --verify_only=1 --quiet
kill -INT $bg
wait $bg || true
# a file another program has open for writing: refused even when forced
exec 3<>"$T/mine.img"
expect_fail 1 "open for writing by PID $$" $RAIDLAB run --target "$T/mine.img" --rw=write \
    --size=1m --quiet --force-destroy
grep -q "does not override" "$T/err" || fail "message does not say --force-destroy cannot help"
exec 3>&-

# a kept test file later formatted: raidlab's mark survives mkfs, the signature decides
need mkfs.ext4
$RAIDLAB run --target "file($T/kept.img, size=16m)" --rw=write --quiet --keep
mkfs.ext4 -q -F kept.img
expect_fail 1 "ext4" $RAIDLAB run --target "$T/kept.img" --rw=write --size=1m --quiet
blkid -p kept.img | grep -q ext4 || fail "refused write damaged the filesystem"

# block device with an ext4 filesystem
need losetup
need mkfs.ext4
[ "$(id -u)" = 0 ] || skip_env "loop devices need root"
truncate -s 64m fs.img
mkfs.ext4 -q -F fs.img
dev=$(losetup -f --show fs.img 2>/dev/null) || skip_env "no loop device available"
cleanup_hooks+=("losetup -d $dev")
expect_fail 1 "ext4" $RAIDLAB run --target "$dev" --rw=write --size=1m --quiet
grep -q "force-destroy" "$T/err" || fail "message does not say how to override"
blkid -p "$dev" | grep -q ext4 || fail "signature gone after a refused write"
$RAIDLAB run --target "$dev" --rw=read --size=1m --quiet || fail "read of a device with data"
$RAIDLAB run --target "$dev" --rw=write --size=1m --quiet --force-destroy || fail "forced write"
if blkid -p "$dev" 2>/dev/null | grep -q ext4; then fail "forced write left the superblock"; fi

# a mounted device: refused even with nothing else in the way of the check
mkfs.ext4 -q -F "$dev"
mkdir -p mnt
# root with loop devices and mkfs.ext4 (CI) can mount ext4: a failure is a failure, not a skip
grep -qw ext4 /proc/filesystems || modprobe ext4 2>/dev/null || skip "the kernel has no ext4"
mount "$dev" mnt || fail "cannot mount the ext4 loop device $dev"
cleanup_hooks=("umount $T/mnt" "${cleanup_hooks[@]}")
expect_fail 1 "mounted on" $RAIDLAB run --target "$dev" --rw=write --size=1m --quiet
# --force-destroy does not write into a mounted filesystem; nor do rebuild, check --repair
expect_fail 1 "does not override" $RAIDLAB run --target "$dev" --rw=write --size=1m \
    --quiet --force-destroy
$RAIDLAB run --target "file($T/m0.img, size=64m)" --rw=write --quiet --keep
expect_fail 1 "does not override" $RAIDLAB rebuild "raid1($T/m0.img, $dev)" --member 1 \
    --force-destroy --quiet
expect_fail 1 "does not override" $RAIDLAB check "raid1($T/m0.img, $dev)" --repair \
    --force-destroy
# the image of a mounted loop device: refused, forced or not
umount mnt
cleanup_hooks=("${cleanup_hooks[@]:1}")
mount -o loop kept.img mnt || fail "cannot mount kept.img"
cleanup_hooks=("umount $T/mnt" "${cleanup_hooks[@]}")
expect_fail 1 "loop device" $RAIDLAB run --target "$T/kept.img" --rw=write --size=1m \
    --quiet --force-destroy
umount mnt
cleanup_hooks=("${cleanup_hooks[@]:1}")

# a block device backing a mounted loop device (a loop device registers no
# holder): refused, forced or not, and the filesystem above is left intact
mkfs.ext4 -q -F "$dev"
top=$(losetup -f --show "$dev") || skip "no second loop device available"
cleanup_hooks=("losetup -d $top" "${cleanup_hooks[@]}")
mount "$top" mnt || fail "cannot mount $top (a loop device on $dev)"
cleanup_hooks=("umount $T/mnt" "${cleanup_hooks[@]}")
echo data >mnt/f
sync
expect_fail 1 "backs $top" $RAIDLAB run --target "$dev" --rw=write --size=1m --quiet \
    --force-destroy
grep -q "does not override" "$T/err" || fail "message does not say --force-destroy cannot help"
umount mnt
cleanup_hooks=("${cleanup_hooks[@]:1}")
fsck.ext4 -n -f "$top" >/dev/null 2>&1 || fail "the filesystem on $top was damaged"
echo ok
