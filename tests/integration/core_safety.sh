#!/usr/bin/env bash
# The safety rule: no writes over a filesystem signature on a block device,
# nor over an existing file raidlab did not create, unless --force-destroy.
. "$(dirname "$0")/lib.sh"

# existing regular file: refused, then allowed with --force-destroy
head -c 4194304 /dev/urandom >mine.img
cp mine.img orig.img
expect_fail 1 "raidlab did not create" $RAIDLAB run --target "$T/mine.img" --rw=write --size=1m --quiet
cmp -s mine.img orig.img || fail "refused write changed the file"
$RAIDLAB run --target "$T/mine.img" --rw=read --size=1m --quiet || fail "read refused"
$RAIDLAB run --target "$T/mine.img" --rw=write --size=1m --quiet --force-destroy || fail "forced write"
cmp -s mine.img orig.img && fail "forced write did not write"
# a file raidlab created and kept is its own: writes allowed
$RAIDLAB run --target "file($T/own.img, size=2m)" --rw=write --quiet --keep
[ -f own.img ] || fail "--keep did not keep the file"
$RAIDLAB run --target "$T/own.img" --rw=randwrite --quiet || fail "write to raidlab's own file"
# without --keep the created file is removed
$RAIDLAB run --target "file($T/gone.img, size=2m)" --rw=write --quiet
[ ! -e gone.img ] || fail "created file not removed"

# block device with an ext4 filesystem
need losetup
need mkfs.ext4
[ "$(id -u)" = 0 ] || skip "loop devices need root"
truncate -s 64m fs.img
mkfs.ext4 -q -F fs.img
dev=$(losetup -f --show fs.img 2>/dev/null) || skip "no loop device available"
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
if mount "$dev" mnt 2>/dev/null; then
	cleanup_hooks=("umount $T/mnt" "${cleanup_hooks[@]}")
	expect_fail 1 "mounted on" $RAIDLAB run --target "$dev" --rw=write --size=1m --quiet
fi
echo ok
