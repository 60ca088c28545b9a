#!/usr/bin/env bash
# What md(...) refuses, it refuses before writing a byte, and what it
# accepts does not depend on the order of its members:
#  - a dirty raid5 opened for writing without a member, and a stale member
#    the others are too few to rebuild, are refused with the true reason
#    and leave every member byte for byte as it was (mdadm --examine and
#    sha256sum agree); the whole array then still reads back and repairs;
#  - raid1 halves written apart (split brain: each records the other
#    failed) are refused in either order by info, run and check --repair,
#    until survivor=ROLE names the half to keep;
#  - members disagreeing on the used size, a data_size that cannot hold the
#    used size or lies past the member, and an event count at the end of
#    its range are refused, whatever the order;
#  - create refuses a name md's superblock cannot hold and members that
#    keep nothing once closed (mem), instead of cutting or losing them.
. "$(dirname "$0")/lib.sh"
need mdadm
need python3
need jq
need sha256sum

ex() { mdadm --examine "$1" | sed -n "s/^ *$2 : //p" | head -1; }
state() { ex "$1" "Array State" | cut -d' ' -f1; }

# patch FILE OFFSET FORMAT VALUE: set a superblock field, fix md's checksum
patch() { python3 "$(dirname "$0")/mdpatch.py" "$@"; }

snap() { sha256sum "$@" >sums; }
unchanged() { sha256sum --quiet -c sums >/dev/null 2>&1 || fail "$1 changed a member: $(sha256sum -c sums 2>&1 | grep -v ': OK')"; }

# refused_write PATTERN SPEC: a write through SPEC is refused and changes no byte
refused_write() {
	expect_fail 1 "$1" $RAIDLAB run --quiet --target "$2" --rw=write --bs=64k --size=1m
	unchanged "the refused write open of $2"
}

# refused PATTERN SPEC: info and a write both refused, no byte changed
refused() {
	expect_fail 2 "$1" $RAIDLAB info "$2"
	refused_write "$1" "$2"
}

# pattern SPEC BYTE SIZE [rw]: write (or read back) SIZE of BYTE through SPEC
pattern() {
	$RAIDLAB run --quiet --target "$1" --rw="${4:-read}" --bs=64k --size="$3" \
	    --verify=pattern --verify_pattern="$2" >/dev/null 2>err ||
		fail "$1: ${4:-read} of $2: $(cat err)"
}

# --- 1. a killed writer leaves raid5 dirty: opens without a member are refused, unwritten ---
$RAIDLAB create raid5 'file(m0.img,size=8m)' 'file(m1.img,size=8m)' 'file(m2.img,size=8m)' \
    --chunk 64k --quiet || fail "create raid5"
pattern 'md(m0.img,m1.img,m2.img)' 0x5a 8m write
$RAIDLAB run --quiet --target 'md(m0.img,m1.img,m2.img)' --rw=write --bs=64k --size=8m \
    --verify=pattern --verify_pattern=0x5a --do_verify=0 --time_based --runtime=60 \
    >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ "$(ex m0.img State)" = active ] && [ "$(ex m2.img State)" = active ] && break
	sleep 0.05
done
kill -9 "$pid" 2>/dev/null || fail "the writer ended before it was killed"
wait "$pid" 2>/dev/null || true
for m in m0 m1 m2; do
	[ "$(ex $m.img State)" = active ] || fail "the killed writer left $m.img clean"
	[ "$(state $m.img)" = AAA ] || fail "$m.img: array state $(state $m.img) after the kill"
done
events=$(ex m0.img Events)
snap m0.img m1.img m2.img
refused_write "not stopped cleanly and member 2 is not among the members given" 'md(m0.img,m1.img)'
refused_write "not stopped cleanly and member 1 is not among the members given" 'md(m0.img,m2.img)'
refused_write "not stopped cleanly and member 0 is not among the members given" 'md(m2.img,m1.img)'
for m in m0 m1 m2; do
	[ "$(ex $m.img Events)" = "$events" ] && [ "$(state $m.img)" = AAA ] ||
		fail "$m.img: events $(ex $m.img Events), state $(state $m.img) after refused opens"
done
# the whole array is as the killed writer left it: it reads back, repairs, reads back
pattern 'md(m0.img,m1.img,m2.img)' 0x5a 8m
$RAIDLAB check --repair 'md(m2.img,m0.img,m1.img)' >out 2>err || fail "check --repair: $(cat err)"
pattern 'md(m0.img,m1.img,m2.img)' 0x5a 8m

# --- 1b. no crash: a stale member the others cannot rebuild is refused, unwritten ---
rm -f m*.img
$RAIDLAB create raid5 'file(m0.img,size=8m)' 'file(m1.img,size=8m)' 'file(m2.img,size=8m)' \
    --chunk 64k --quiet || fail "create raid5"
pattern 'md(m0.img,m1.img)' 0x3c 4m write
[ "$(state m0.img)" = AA. ] && [ "$(state m2.img)" = AAA ] || fail "m2.img is not stale"
snap m0.img m1.img m2.img
refused_write "member 1 is not among the members given, member 2 is stale .*too few members" \
    'md(m0.img,m2.img)'
[ "$(state m0.img)" = AA. ] || fail "m0.img: $(state m0.img)"
mdadm --examine m2.img | grep -q "Recovery Offset" && fail "the refused open started a recovery on m2.img"
# with every member the stale one is rebuilt
$RAIDLAB run --quiet --target 'md(m2.img,m1.img,m0.img)' --rw=read --bs=64k --size=64k \
    >/dev/null 2>err || fail "md(m2,m1,m0): $(cat err)"
$RAIDLAB check --repair 'md(m2.img,m1.img,m0.img)' >out 2>err || fail "rebuild m2: $(cat err)"
grep -q "member 2 is behind the others (stale): rebuilding it" err || fail "no rebuild: $(cat err)"
pattern 'md(m0.img,m2.img)' 0x3c 4m

# too few members to hold the data: refused for writing, nothing written
snap m0.img m1.img m2.img
refused_write "member 1 is not among the members given, member 2 is not among the members given: the members given are too few" \
    'md(m0.img)'

# --- 2. raid1 halves written apart: refused in either order until the survivor is named ---
$RAIDLAB create raid1 'file(a.img,size=4m)' 'file(b.img,size=4m)' --quiet || fail "create raid1"
pattern 'md(a.img)' 0xaa 1m write
pattern 'md(b.img)' 0xbb 1m write
[ "$(state a.img)" = A. ] && [ "$(state b.img)" = .A ] ||
	fail "each half should record the other failed: $(state a.img) $(state b.img)"
snap a.img b.img
split="members 0 (a.img, events [0-9]*) and 1 (b.img, events [0-9]*) each record the other failed"
for spec in 'md(a.img,b.img)' 'md(b.img,a.img)'; do
	refused "$split" "$spec"
	expect_fail 2 "$split" $RAIDLAB check --repair "$spec"
	unchanged "check --repair $spec"
done
expect_fail 2 "survivor=5: no member given holds role 5" $RAIDLAB info 'md(a.img,b.img,survivor=5)'
for spec in 'md(a.img,b.img,survivor=0)' 'md(b.img,a.img,survivor=0)'; do
	got=$($RAIDLAB info --json "$spec" | jq -r '[.members[].state] | join(" ")')
	[ "$got" = "in_sync failed" ] || fail "$spec: members $got"
	pattern "$spec" 0xaa 1m
done
unchanged "reading with a survivor"
# the other survivor, on copies: b's writes are kept
cp a.img a2.img
cp b.img b2.img
$RAIDLAB check --repair 'md(a2.img,b2.img,survivor=1)' >out 2>err || fail "survivor=1: $(cat err)"
grep -q "member 0 was written apart from the survivor (split brain)" err || fail "$(cat err)"
pattern 'md(a2.img)' 0xbb 1m
$RAIDLAB check --repair 'md(b.img,a.img,survivor=0)' >out 2>err || fail "survivor=0: $(cat err)"
grep -q "member 1 was written apart from the survivor (split brain)" err || fail "$(cat err)"
grep -q "no mismatches" out || fail "after the rebuild: $(cat out)"
for m in a b; do
	[ "$(state $m.img)" = AA ] || fail "$m.img: $(state $m.img) after the rebuild"
	pattern "md($m.img)" 0xaa 1m
done
[ "$(ex a.img Events)" = "$(ex b.img Events)" ] || fail "events differ after the rebuild"
# settled: the plain spec opens in either order, and survivor= changes nothing now
for spec in 'md(a.img,b.img)' 'md(b.img,a.img)' 'md(b.img,a.img,survivor=1)'; do
	$RAIDLAB info "$spec" | grep -q "state=optimal" || fail "$spec is not optimal"
done

# --- 2b. a member that recorded another failed, then failed itself, is only behind ---
# raid6: m1 fails (m2 records it), m2 fails, m1 is rebuilt from m0 and m3.
# m1 and m2 each record the other failed, but m0 and m3 were active in both
# records and carried m2's writes on: m2 is stale, not written apart.
rm -f m*.img
$RAIDLAB create raid6 'file(m0.img,size=4m)' 'file(m1.img,size=4m)' 'file(m2.img,size=4m)' \
    'file(m3.img,size=4m)' --chunk 64k --quiet || fail "create raid6"
pattern 'md(m0.img,m2.img,m3.img)' 0x11 1m write
pattern 'md(m0.img,m3.img)' 0x22 2m write
pattern 'md(m3.img,m1.img,m0.img)' 0x22 2m write # rebuilds m1 first
[ "$(state m1.img)" = AA.A ] && [ "$(state m2.img)" = A.AA ] ||
	fail "m1/m2 should each record the other failed: $(state m1.img) $(state m2.img)"
for spec in 'md(m0.img,m1.img,m2.img,m3.img)' 'md(m2.img,m3.img,m1.img,m0.img)'; do
	got=$($RAIDLAB info --json "$spec" 2>err | jq -r '[.members[].state] | join(" ")') ||
		fail "$spec: $(cat err)"
	[ "$got" = "in_sync in_sync failed in_sync" ] || fail "$spec: members $got"
done
pattern 'md(m2.img,m3.img,m1.img,m0.img)' 0x22 2m write
[ "$(state m2.img)" = AAAA ] || fail "m2.img was not rebuilt: $(state m2.img)"
# a three-way mirror written as md(a) and as md(b,c): split, whatever the order
$RAIDLAB create raid1 'file(a.img,size=4m)' 'file(b.img,size=4m)' 'file(c.img,size=4m)' \
    --quiet --force || fail "create raid1 x3"
pattern 'md(a.img)' 0xaa 1m write
pattern 'md(c.img,b.img)' 0xbb 1m write
for spec in 'md(a.img,b.img,c.img)' 'md(c.img,a.img,b.img)'; do
	expect_fail 2 "each record the other failed" $RAIDLAB info "$spec"
done
rm -f a.img b.img c.img

# --- 4. crafted superblocks: conflicting sizes, data_size, the event count ---
fresh() { # fresh LEVEL N [create options]: members m0..m{N-1}.img
	local level=$1 n=$2 i args=()
	shift 2
	rm -f m*.img
	for ((i = 0; i < n; i++)); do args+=("file(m$i.img,size=4m)"); done
	$RAIDLAB create "$level" "${args[@]}" --assume-clean --quiet "$@" || fail "create $level"
}
fresh raid5 3 --chunk 64k
patch m2.img 80 Q 896 # 448 KiB used per member instead of 3 MiB
snap m0.img m1.img m2.img
for spec in 'md(m0.img,m1.img,m2.img)' 'md(m2.img,m1.img,m0.img)' 'md(m1.img,m2.img,m0.img)'; do
	refused "disagree on the array's used size: member . (m[0-9].img) records [0-9]* sectors, member 0" "$spec"
done
expect_fail 2 "member 2 (m2.img) records 896 sectors, member 0 (m0.img) 6144 sectors" \
    $RAIDLAB info 'md(m0.img,m1.img,m2.img)'

# data_size: 0, 1, 2^60, one below the used size (6144 sectors), past the member
for v in 0 1 $((1 << 60)) 6143 6145; do
	fresh raid1 2
	patch m0.img 136 Q "$v"
	snap m0.img m1.img
	refused "member 0: data_size $v sectors" 'md(m0.img,m1.img)'
	refused "member 1: data_size $v sectors" 'md(m1.img,m0.img)'
done

# events at 2^64-1 (one write away from wrapping to 0): refused, never the freshest
fresh raid1 2
$RAIDLAB run --quiet --target 'md(m0.img,m1.img)' --rw=write --bs=64k --size=64k || fail "write"
patch m1.img 200 Q 18446744073709551615
snap m0.img m1.img
refused "member 1: events 18446744073709551615" 'md(m0.img,m1.img)'
refused "member 0: events 18446744073709551615" 'md(m1.img,m0.img)'
# at the highest count accepted: readable, but no open for writing can count its changes
for m in m0 m1; do patch $m.img 200 Q 9223372036854775807; done
snap m0.img m1.img
$RAIDLAB info 'md(m1.img,m0.img)' | grep -q "state=optimal" || fail "events 2^63-1 do not read"
refused_write "too near its end" 'md(m1.img,m0.img)'

# --- 9. create: a name md cannot hold, members that keep nothing ---
long=$(printf 'n%.0s' $(seq 100))
expect_fail 2 "has 100 characters: md's superblock holds at most 32" \
    $RAIDLAB create raid1 'file(x.img,size=4m)' 'file(y.img,size=4m)' --name "$long"
[ ! -e x.img ] && [ ! -e y.img ] || fail "the refused create left its files behind"
$RAIDLAB create raid1 'file(x.img,size=4m)' 'file(y.img,size=4m)' --name "${long:0:32}" \
    --quiet || fail "a 32-character name"
[ "$(ex x.img Name)" = "${long:0:32}" ] || fail "name: $(ex x.img Name)"
expect_fail 2 "member 0 (mem(size=8m)) keeps its data only while it is open" \
    $RAIDLAB create raid1 'mem(size=8m)' 'mem(size=8m)'
echo ok
