#!/usr/bin/env bash
# md's array state on disk: through a fail -> write -> re-add -> rebuild
# cycle, and across an unclean stop, the superblocks raidlab writes say what
# md would say (mdadm --examine agrees with raidlab's own view after every
# step), a stale member is rebuilt rather than trusted, and an array stopped
# uncleanly is resynced before it is used.
. "$(dirname "$0")/lib.sh"
need mdadm
need jq

ex() { mdadm --examine "$1" | sed -n "s/^ *$2 : //p" | head -1; }

# agree MEMBER...: mdadm's view of the array (the freshest superblock's
# Array State) is raidlab's (each role in sync or not), and every member
# raidlab holds in sync carries the freshest event count.
agree() {
	local m best="" bev=-1 ev want got spec
	for m in "$@"; do
		ev=$(ex "$m" Events)
		[ "$ev" -gt "$bev" ] && { bev=$ev; best=$m; }
	done
	want=$(ex "$best" "Array State" | cut -d' ' -f1)
	spec="md($(IFS=,; echo "$*"))"
	got=$($RAIDLAB info --json "$spec" | jq -r '[.members[].state |
		if . == "in_sync" then "A" else "." end] | join("")')
	[ "$want" = "$got" ] || fail "mdadm says $want (from $best), raidlab says $got for $spec"
	for m in "$@"; do
		local role
		role=$(ex "$m" "Device Role" | sed -n 's/Active device //p')
		[ -n "$role" ] && [ "${got:$role:1}" = A ] || continue
		[ "$(ex "$m" Events)" = "$bev" ] || fail "$m is in sync but has events $(ex "$m" Events), not $bev"
		[ "$(ex "$m" State)" = clean ] || fail "$m: state $(ex "$m" State) after a clean stop"
	done
}

verify() { # verify SPEC: what the 15 MiB write left there reads back
	$RAIDLAB run --quiet --target "$1" --rw=write --bs=64k --size=15m --verify=crc32c \
	    --verify_only=1 --json v.json >/dev/null 2>&1 || true
	[ "$(jqv v.json '.jobs[0].verify.bad_blocks')" = 0 ] ||
		fail "$1: $(jqv v.json '.jobs[0].verify.bad_blocks') of 240 blocks lost"
}

# --- the probe's case: raid1 of a.img and b.img, 15 MiB written through b alone ---
$RAIDLAB create raid1 'file(a.img,size=20m)' 'file(b.img,size=20m)' --quiet || fail create
[ "$(ex a.img Events)" = "$(ex b.img Events)" ] || fail "create: events differ"
agree a.img b.img
$RAIDLAB run --quiet --keep --target 'md(b.img)' --rw=write --bs=64k --size=15m \
    --verify=crc32c || fail "write through md(b.img)"
[ "$(ex b.img Events)" -gt "$(ex a.img Events)" ] ||
	fail "writing without a.img did not raise b.img's event count"
[ "$(ex b.img "Array State" | cut -d' ' -f1)" = .A ] || fail "b.img does not record a.img missing"
agree a.img b.img
# the stale a.img is failed, never read, when the array is opened read-only
$RAIDLAB info 'md(a.img,b.img)' | grep -q "state=degraded" || fail "stale a.img counted in sync"
verify 'md(a.img,b.img)'
# check --repair opens it for writing: a.img is rebuilt from b.img, not copied over it
$RAIDLAB check --repair 'md(a.img,b.img)' >out 2>err || { cat err; fail "check --repair"; }
grep -q "member 0 is behind the others (stale): rebuilding it" err || fail "no rebuild: $(cat err)"
verify 'md(b.img)'
verify 'md(a.img)'
agree a.img b.img
[ "$(ex a.img "Array State" | cut -d' ' -f1)" = AA ] || fail "a.img not back in the array"

# --- a member failing during a run is recorded on the others before the run goes on ---
# b.img's writes fail from 9 MiB on (8 MiB into the array)
$RAIDLAB run --quiet --keep --target 'md(a.img, faulty(b.img, at=9m:1m, ops=write))' \
    --rw=write --bs=64k --size=15m --verify=crc32c >/dev/null 2>&1 || fail "degraded run"
[ "$(ex a.img "Array State" | cut -d' ' -f1)" = A. ] ||
	fail "a.img does not record b.img failed: $(ex a.img "Array State")"
[ "$(ex a.img Events)" -gt "$(ex b.img Events)" ] || fail "failing b.img did not raise events"
agree a.img b.img
$RAIDLAB run --target 'md(a.img,b.img)' --rw=write --bs=64k --size=64k --offset=16m \
    >/dev/null 2>err || { cat err; fail "re-add b.img"; }
grep -q "member 1 is behind" err || fail "b.img not rebuilt: $(cat err)"
verify 'md(b.img)'
agree a.img b.img

# --- an unclean stop is recorded (State : active) and resynced at the next open ---
$RAIDLAB run --quiet --target 'md(a.img,b.img)' --rw=randwrite --bs=4k --size=19m \
    --time_based --runtime=60 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ "$(ex a.img State)" = active ] && break
	sleep 0.05
done
[ "$(ex a.img State)" = active ] || fail "a writer's array is not recorded dirty"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
[ "$(ex b.img State)" = active ] || fail "the unclean stop left b.img clean"
# a write torn between the copies: one block differs
dd if=/dev/urandom of=b.img bs=4k seek=$((256 + 100)) count=1 conv=notrunc status=none
out=$($RAIDLAB check 'md(a.img,b.img)' 2>&1) && fail "the torn block was not seen: $out"
$RAIDLAB run --target 'md(a.img,b.img)' --rw=write --bs=4k --size=4k --offset=18m \
    >/dev/null 2>err || { cat err; fail "reopening after the unclean stop"; }
grep -q "resyncing" err || fail "the unclean stop was not detected: $(cat err)"
out=$($RAIDLAB check 'md(a.img,b.img)') || fail "not resynced: $out"
agree a.img b.img

# --- a mirror's bitmap: the regions being written are dirty (random writes
# over 19 MiB touch most of its 19 regions), clear once clean; which regions
# a resync covers is raid_md_bitmap's ---
need losetup
rm -f a.img b.img
$RAIDLAB create raid1 'file(a.img,size=20m)' 'file(b.img,size=20m)' --bitmap-chunk 1m \
    --quiet || fail "create with a bitmap"
dirty_bits() { # dirty_bits FILE: mdadm -X's count of dirty bits (through a loop device)
	local l n
	l=$(losetup -r -f --show "$1") || fail "losetup $1"
	n=$(mdadm --examine-bitmap "$l" | sed -n 's/.*Bitmap : [0-9]* bits (chunks), \([0-9]*\) dirty.*/\1/p')
	losetup -d "$l"
	echo "$n"
}
[ "$(dirty_bits a.img)" = 0 ] || fail "a new array has dirty bits"
$RAIDLAB run --quiet --target 'md(a.img,b.img)' --rw=randwrite --bs=4k --size=19m \
    --time_based --runtime=60 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ "$(ex a.img State)" = active ] && [ "$(ex b.img State)" = active ] && break
	sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
da=$(dirty_bits a.img) db=$(dirty_bits b.img)
[ "$da" -ge 1 ] && [ "$da" -le 19 ] && [ "$db" -ge 1 ] && [ "$db" -le 19 ] ||
	fail "a killed writer's bitmap: $(dirty_bits a.img) and $(dirty_bits b.img) of 19 bits dirty"
$RAIDLAB run --target 'md(a.img,b.img)' --rw=write --bs=4k --size=4k >/dev/null 2>err ||
	fail "reopen: $(cat err)"
grep -q "resyncing" err || fail "not resynced: $(cat err)"
[ "$(dirty_bits a.img)" = 0 ] || fail "bits left after the resync and a clean stop"
agree a.img b.img
echo ok
