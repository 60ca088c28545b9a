#!/usr/bin/env bash
# The parity arrays through the command line: `info` on a raid5 of new
# files opens it read-only and writes nothing (no initial resync: it says
# the array is not in sync); `check` prints one line per stripe whose
# parity disagrees (the stripe, the parity member, the data members, the
# rows' member offsets) and the total; bitmap-chunk= outside md's range is
# refused with the range; and a rebuild or check that fails leaves no file
# it created.
. "$(dirname "$0")/lib.sh"
need cmp

# --- info on new members: read-only, no resync, and it says so ---
R5N='raid5(file(x0.img,size=8m,keep=1),file(x1.img,size=8m,keep=1),file(x2.img,size=8m,keep=1),chunk=64k)'
$RAIDLAB info "$R5N" >info.out 2>info.err || { cat info.out info.err; fail "info on new members"; }
grep -q "resync=pending" info.out || fail "info does not say the parity was never computed: $(cat info.out)"
grep -q "not in sync" info.err || fail "no note on stderr: $(cat info.err)"
cp x0.img x0.orig
# the parity was never written: a check finds every stripe wrong (not a
# resync that ran and then failed halfway)
rc=0
$RAIDLAB check 'raid5(x0.img,x1.img,x2.img,chunk=64k)' >chk.out 2>&1 || rc=$?
[ $rc = 1 ] || { cat chk.out; fail "check of never-synced members exited $rc"; }
grep -q "128 stripes with mismatches" chk.out || fail "info wrote to the members: $(tail -1 chk.out)"
$RAIDLAB info 'raid5(x0.img,x1.img,x2.img,chunk=64k)' >/dev/null 2>&1 || fail "info on existing members"
cmp -s x0.img x0.orig || fail "info changed a member"
rm -f x?.img x0.orig

# --- check: one line per stripe, named members, a total ---
R5='raid5(file(a.img,size=8m), file(b.img,size=8m), file(c.img,size=8m), chunk=64k)'
$RAIDLAB run --target "$R5" --rw=write --bs=128k --iodepth=4 --keep --quiet || fail "filling the raid5"
# member 1, 1 MiB from 1 MiB: stripes 16..31, a data or the parity chunk of each
dd if=/dev/urandom of=b.img bs=1M seek=1 count=1 conv=notrunc status=none
rc=0
$RAIDLAB check "$R5" >chk.out 2>&1 || rc=$?
[ $rc = 1 ] || { cat chk.out; fail "check with mismatches exited $rc"; }
[ "$(grep -c '^mismatch:' chk.out)" = 16 ] || fail "16 lines (one per stripe) expected: $(head -3 chk.out)"
grep -qx "mismatch: stripe 16 (array offset 2097152, 131072 bytes): parity on member 1 disagrees with the data on members 0, 2: 65536 bytes in rows from member offset 1048576 to 1114112" chk.out ||
	fail "stripe 16's line: $(head -1 chk.out)"
grep -qx "mismatch: stripe 17 (array offset 2228224, 131072 bytes): parity on member 0 disagrees with the data on members 1, 2: 65536 bytes in rows from member offset 1114112 to 1179648" chk.out ||
	fail "stripe 17's line: $(sed -n 2p chk.out)"
grep -q "16 stripes with mismatches (1048576 bytes of rows), 0 repaired" chk.out ||
	fail "total: $(tail -1 chk.out)"
! grep -E "member ([0-9]+) offset ([0-9]+) differs from member \1 offset \2" chk.out ||
	fail "a line compares a member with itself"
$RAIDLAB check "$R5" --repair >rep.out 2>&1 || { cat rep.out; fail "repair"; }
grep -q "16 repaired" rep.out || fail "repair total: $(tail -1 rep.out)"
$RAIDLAB check "$R5" | grep -q "no mismatches" || fail "mismatches after the repair"

# raid6 names the wrong member: one 4 KiB block of a data chunk
R6='raid6(file(d0.img,size=4m), file(d1.img,size=4m), file(d2.img,size=4m), file(d3.img,size=4m), chunk=64k)'
$RAIDLAB run --target "$R6" --rw=write --bs=128k --keep --quiet || fail "filling the raid6"
dd if=/dev/urandom of=d1.img bs=4k seek=$((5 * 16 + 3)) count=1 conv=notrunc status=none
rc=0
$RAIDLAB check "$R6" >chk6.out 2>&1 || rc=$?
[ $rc = 1 ] || { cat chk6.out; fail "raid6 check exited $rc"; }
[ "$(grep -c '^mismatch:' chk6.out)" = 1 ] || fail "raid6: one line expected: $(cat chk6.out)"
grep -q "^mismatch: stripe 5 (array offset 655360, 131072 bytes): member 1 wrong (data on 0, 1, P on 2, Q on 3): 4096 bytes in rows from member offset 339968 to 344064$" chk6.out ||
	fail "raid6 line: $(cat chk6.out)"

# --- bitmap-chunk: md's range ---
for v in 0 1 3k; do
	expect_fail 2 "bitmap-chunk=$v: expected a power of two from 4k up" \
		$RAIDLAB info "raid5(mem(size=8m) x3, bitmap-chunk=$v)"
	expect_fail 1 "bitmap-chunk=$v: expected a power of two from 4k up" \
		$RAIDLAB run --target "raid5(mem(size=8m) x3, bitmap-chunk=$v)" --rw=write --size=1m --quiet
done
$RAIDLAB info 'raid5(mem(size=8m) x3, bitmap-chunk=4k)' >/dev/null || fail "bitmap-chunk=4k refused"

# --- a failed rebuild or check leaves no file it created ---
$RAIDLAB create raid5 'file(p0.img,size=8m)' 'file(p1.img,size=8m)' 'file(p2.img,size=8m)' \
	--chunk 64k --quiet || fail "create"
for cmd in "rebuild --member 2" "check" "check --repair"; do
	rc=0
	$RAIDLAB $cmd 'md(p0.img,p1.img,file(new.img,size=8m))' >out 2>&1 || rc=$?
	[ $rc != 0 ] || { cat out; fail "$cmd on a member without a superblock succeeded"; }
	[ ! -e new.img ] || fail "$cmd failed and left new.img behind: $(cat out)"
done
# check (not repair) never keeps a file it created: it holds nothing to check
rc=0
$RAIDLAB check 'raid5(file(a.img), file(new.img,size=8m), file(c.img), chunk=64k)' >out 2>&1 || rc=$?
[ $rc = 1 ] || { cat out; fail "check over a new member exited $rc"; }
[ ! -e new.img ] || fail "check left new.img behind"
echo "raid_parity_cli: ok"
