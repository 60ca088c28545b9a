#!/usr/bin/env bash
# A real ext4 through the kernel on a raidlab array served over NBD:
# raidlab serve raid1(a.img, b.img) -> nbdfuse exposes the export as a
# file -> losetup -> mkfs.ext4 -> mount, write a tree of files, unmount,
# mount again and read it back, fsck clean; after the server stops the two
# mirror halves are identical.  (The nbd kernel module is not needed.)
. "$(dirname "$0")/lib.sh"
need_mount_chain

"$RAIDLAB" serve 'raid1(file(a.img, size=96m), file(b.img, size=96m))' --socket s.sock \
	--no-status --ready-file ready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 100); do [ -s ready ] && break; sleep 0.05; done
[ -s ready ] || { cat serve.err; fail "server did not start"; }

mkdir -p fuse fs
nbdfuse fuse/ 'nbd+unix:///?socket=s.sock' &
FPID=$!
cleanup_hooks=("fusermount3 -u $T/fuse 2>/dev/null; wait $FPID 2>/dev/null" "${cleanup_hooks[@]}")
for _ in $(seq 100); do [ -f fuse/nbd ] && break; sleep 0.05; done
[ -f fuse/nbd ] || fail "nbdfuse did not expose the export"

LOOP=$(losetup -f --show fuse/nbd) || skip_env "no loop device available"
cleanup_hooks=("umount $T/fs 2>/dev/null; losetup -d $LOOP 2>/dev/null" "${cleanup_hooks[@]}")
mkfs.ext4 -q -F "$LOOP" || fail "mkfs.ext4 through NBD failed"
mount "$LOOP" fs || fail "mount failed"

# A tree of files: the project's sources plus some random data.
mkdir -p tree/data
cp -a "$RAIDLAB_TOP/src" "$RAIDLAB_TOP/docs" tree/
for i in $(seq 20); do head -c $((i * 37000)) /dev/urandom >"tree/data/f$i"; done
cp -a tree fs/
sync
umount fs
fsck.ext4 -fn "$LOOP" >fsck.out 2>&1 || { cat fsck.out; fail "fsck found errors"; }
mount -o ro "$LOOP" fs
diff -r tree fs/tree || fail "files read back differ"
umount fs
losetup -d "$LOOP"
fusermount3 -u fuse
wait $FPID || true

kill -TERM $SPID
wait $SPID || { cat serve.err; fail "server exited non-zero"; }
cmp a.img b.img || fail "raid1 halves differ after the session"
echo "serve_ext4: ok"
