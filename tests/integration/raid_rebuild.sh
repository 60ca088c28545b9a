#!/usr/bin/env bash
# Rebuild and scrub on real member files, checked with cmp.
#
# For raid1 and raid10 n2/f2/o2: fill the members, make the copies agree,
# then for every member in turn replace it with a fresh file of random
# garbage, `raidlab rebuild` it and `cmp` it with the original: byte-
# identical.  Scrub: plant a 4 KiB mismatch with dd at a known member
# offset, `raidlab check` must report it with its array and member offsets
# (worked out below from md's formulas), --repair fixes it (--source picks
# the good copy), a second check is clean and cmp agrees.  Also: the rate
# limit holds, and arrays without redundancy are refused.
. "$(dirname "$0")/lib.sh"
need cmp
need dd

MB=$((1024 * 1024))

# Data through the array: `raidlab run` writes it and verifies it (crc32c);
# the check afterwards must find the copies equal.
fill() { # fill SPEC_FOR_RUN SPEC MEMBER...
	local runspec=$1 spec=$2; shift 2
	$RAIDLAB run --target "$runspec" --rw=write --bs=64k --iodepth=4 --verify=crc32c \
		--keep --quiet >run.out 2>&1 || { cat run.out; fail "raidlab run through $runspec"; }
	out=$($RAIDLAB check "$spec") || fail "copies differ after filling $spec: $out"
	grep -q "no mismatches" <<<"$out" || fail "check output: $out"
}

rebuild_each() { # rebuild_each SPEC MEMBER...
	local spec=$1; shift
	local k=0
	for m in "$@"; do
		cp "$m" orig.img
		dd if=/dev/urandom of="$m" bs=1M count=8 status=none # the fresh member
		cmp -s "$m" orig.img && fail "fresh member equals the original"
		$RAIDLAB rebuild "$spec" --member $k --force-destroy --quiet ||
			fail "rebuild of member $k of $spec"
		cmp "$m" orig.img || fail "rebuilt member $k of $spec differs from the original"
		k=$((k + 1))
	done
}

# plant MEMBER OFFSET: 4 KiB of garbage at OFFSET in MEMBER (kept in good.img).
plant() {
	cp "$1" good.img
	dd if=/dev/urandom of="$1" bs=4096 seek=$(($2 / 4096)) count=1 conv=notrunc status=none
}

# check_reports SPEC LINE [ARGS...]: check exits 1 and prints exactly LINE.
check_reports() {
	local spec=$1 line=$2 rc=0; shift 2
	out=$($RAIDLAB check "$spec" "$@") || rc=$?
	[ $rc -eq 1 ] || fail "check of $spec exited $rc, expected 1: $out"
	grep -qxF "$line" <<<"$out" || fail "check of $spec: expected '$line', got: $out"
	[ "$(grep -c '^mismatch:' <<<"$out")" = 1 ] || fail "one mismatch expected: $out"
}

repair_and_recheck() { # repair_and_recheck SPEC MEMBER [ARGS...]
	local spec=$1 m=$2; shift 2
	out=$($RAIDLAB check "$spec" --repair --force-destroy "$@") || fail "repair: $out"
	grep -q '\[repaired\]' <<<"$out" || fail "repair did not report a repair: $out"
	out=$($RAIDLAB check "$spec") || fail "second check: $out"
	grep -q "no mismatches" <<<"$out" || fail "second check: $out"
	cmp "$m" good.img || fail "repaired member differs from its state before the damage"
}

# --- raid1 ---------------------------------------------------------------
spec='raid1(m0.img, m1.img)'
fill 'raid1(file(m0.img, size=8m), file(m1.img, size=8m))' "$spec" m0.img m1.img
rebuild_each "$spec" m0.img m1.img
# raid1: member offset = array offset; the source is member 0.
plant m1.img $((1 * MB))
check_reports "$spec" "mismatch: array offset 1048576, 4096 bytes: member 1 offset 1048576 differs from member 0 offset 1048576"
repair_and_recheck "$spec" m1.img

# --- raid10 n2 on 4 members, chunk 64k ------------------------------------
spec='raid10(n0.img, n1.img, n2.img, n3.img, layout=n2, chunk=64k)'
fill 'raid10(file(n0.img, size=8m), file(n1.img, size=8m), file(n2.img, size=8m), file(n3.img, size=8m), layout=n2, chunk=64k)' \
	"$spec" n0.img n1.img n2.img n3.img
rebuild_each "$spec" n0.img n1.img n2.img n3.img
# Member 1 offset 1m is row 16; chunk c has its copies on members 2c%4 and
# 2c%4+1 at row 2c/4, so member 1 row 16 is chunk 32: array offset 2m.
plant n1.img $((1 * MB))
check_reports "$spec" "mismatch: array offset 2097152, 4096 bytes: member 1 offset 1048576 differs from member 0 offset 1048576"
repair_and_recheck "$spec" n1.img

# --- raid10 f2 on 3 members, chunk 64k: --source -------------------------
spec='raid10(f0.img, f1.img, f2.img, layout=f2, chunk=64k)'
fill 'raid10(file(f0.img, size=8m), file(f1.img, size=8m), file(f2.img, size=8m), layout=f2, chunk=64k)' \
	"$spec" f0.img f1.img f2.img
rebuild_each "$spec" f0.img f1.img f2.img
# 128 chunks per member: 64 array chunks per slice row set, stride 64 chunks
# (4m).  Member 1 offset 1m is first-slice row 16: chunk 16*3+1 = 49 (array
# offset 3211264), whose far copy is on member 2 at 1m + 4m.  The damaged
# copy is the first one, so check compares the far copy against it, and
# --source 2 makes the repair copy the good data back.
plant f1.img $((1 * MB))
check_reports "$spec" "mismatch: array offset 3211264, 4096 bytes: member 2 offset 5242880 differs from member 1 offset 1048576"
check_reports "$spec" "mismatch: array offset 3211264, 4096 bytes: member 1 offset 1048576 differs from member 2 offset 5242880" --source 2
repair_and_recheck "$spec" f1.img --source 2

# --- raid10 o2 on 3 members, chunk 64k ------------------------------------
spec='raid10(o0.img, o1.img, o2.img, layout=o2, chunk=64k)'
fill 'raid10(file(o0.img, size=8m), file(o1.img, size=8m), file(o2.img, size=8m), layout=o2, chunk=64k)' \
	"$spec" o0.img o1.img o2.img
rebuild_each "$spec" o0.img o1.img o2.img
# Offset copies: chunk c on member c%3 at row 2*(c/3), its copy on the next
# member one row down.  Member 2 offset 1m + 64k is row 17 (odd: a second
# copy) of member (2-1) = 1's chunk at row 16: c = 8*3 + 1 = 25.
plant o2.img $((1 * MB + 64 * 1024))
check_reports "$spec" "mismatch: array offset 1638400, 4096 bytes: member 2 offset 1114112 differs from member 1 offset 1048576"
repair_and_recheck "$spec" o2.img

# --- the rate limit holds: 8 MiB at 16 MB/s takes about half a second ------
start=$(date +%s%N)
$RAIDLAB rebuild 'raid1(m0.img, m1.img)' --member 1 --rate 16MB/s --force-destroy --quiet
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -ge 400 ] || fail "rebuild at 16MB/s of 8 MiB took only $ms ms"
cmp m0.img m1.img || fail "rate-limited rebuild"

# --- refused: no redundancy, no such member, not an array -------------------
expect_fail 2 'no redundancy' "$RAIDLAB" rebuild 'raid0(m0.img, m1.img, chunk=64k)' --member 1 --force-destroy
expect_fail 2 'does not exist' "$RAIDLAB" rebuild 'raid1(m0.img, m1.img)' --member 2 --force-destroy
expect_fail 2 'no redundancy' "$RAIDLAB" check 'm0.img'
expect_fail 2 'required' "$RAIDLAB" rebuild 'raid1(m0.img, m1.img)'
# a replacement smaller than the other members would shrink the array
cp m0.img small.img
truncate -s 4m small.img
expect_fail 2 'smaller replacement would shrink' "$RAIDLAB" rebuild 'raid1(m0.img, small.img)' --member 1 --force-destroy
expect_fail 2 'smaller replacement would shrink' "$RAIDLAB" rebuild 'raid10(n0.img, n1.img, n2.img, small.img, layout=n2)' --member 3 --force-destroy
echo ok
