#!/usr/bin/env bash
# An unclean stop of an array with an internal write-intent bitmap resyncs
# only the regions whose bits are dirty, as md does: a writer confined to a
# small region is killed with -9, a torn write is left in that region, and
# the next open resyncs exactly the dirty regions (the result says how many
# and how many bytes), clears the bits, and leaves the redundancy
# consistent (raidlab check).  Without a bitmap the whole array is resynced.
. "$(dirname "$0")/lib.sh"
need mdadm
need jq

ex() { mdadm --examine "$1" | sed -n "s/^ *$2 : //p" | head -1; }
# bitmap bits of member $1 (the bitmap block is 8 sectors after the superblock)
bitbytes() { od -An -v -tu1 -j $((4096 + 8 * 512 + 256)) -N 32 "$1"; }
dirty() {
	local n=0 b
	for b in $(bitbytes "$1"); do
		while [ "$b" -gt 0 ]; do n=$((n + (b & 1))); b=$((b >> 1)); done
	done
	echo "$n"
}

# kill_writer SPEC MEMBER: write into 8m..10m until the array is active with
# bits set on MEMBER (or, without a bitmap, just active), then kill -9
kill_writer() {
	local pid i
	$RAIDLAB run --quiet --target "$1" --rw=randwrite --bs=4k --size=2m --offset=8m \
	    --time_based --runtime=60 >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 400); do
		[ "$(ex "$2" State)" = active ] && { [ "$3" = nobitmap ] || [ "$(dirty "$2")" -gt 0 ]; } &&
			break
		sleep 0.05
	done
	kill -9 "$pid" 2>/dev/null || fail "the writer ended before it was killed"
	wait "$pid" 2>/dev/null || true
	[ "$(ex "$2" State)" = active ] || fail "the killed writer left $2 clean"
}

firstbit() { # the first dirty bit of member $1
	local i=0 b k
	for b in $(bitbytes "$1"); do
		for k in 0 1 2 3 4 5 6 7; do
			[ $((b >> k & 1)) = 1 ] && { echo $((i * 8 + k)); return; }
		done
		i=$((i + 1))
	done
	echo -1
}

# tear MEMBER REGION: a write that reached one member only, inside the
# region (1 MiB each) the bitmap has dirty
tear() {
	local doff
	doff=$(ex "$1" "Data Offset" | cut -d' ' -f1)
	head -c 65536 /dev/urandom | dd of="$1" bs=512 seek=$((doff + $2 * 2048 + 64)) \
	    conv=notrunc status=none
}

reopen() { # reopen SPEC: open for writing, the md report into md.json
	$RAIDLAB run --target "$1" --rw=write --bs=64k --size=64k --offset=32m --json r.json \
	    >/dev/null 2>err || { cat err; fail "reopening $1"; }
	jq '[.. | objects | select(has("md")) | .md][0]' r.json >md.json
}

case_bitmap() { # LEVEL MEMBER...
	local level=$1 spec d total size
	shift
	rm -f ./*.img
	local files=()
	for m in "$@"; do files+=("file($m,size=64m)"); done
	$RAIDLAB create "$level" "${files[@]}" --bitmap-chunk 1m --quiet || fail "create $level"
	[ "$(dirty "$1")" = 0 ] || fail "$level: bits left set after create's resync"
	spec="md($(IFS=,; echo "$*"))"
	kill_writer "$spec" "$1" bitmap
	d=$(dirty "$1")
	total=$(( $(ex "$1" "Avail Dev Size" | cut -d' ' -f1) * 512 / 1048576 ))
	[ "$d" -gt 0 ] && [ "$d" -lt "$total" ] || fail "$level: $d of $total bits dirty"
	tear "$2" "$(firstbit "$1")"
	reopen "$spec"
	grep -q "resynced $d dirty region(s) of" err || fail "$level: not a bitmap resync: $(cat err)"
	[ "$(jqv md.json .resynced)" = true ] || fail "$level: no resync reported"
	[ "$(jqv md.json .resync_regions)" = "$d" ] ||
		fail "$level: resynced $(jqv md.json .resync_regions) regions, $d were dirty"
	size=$($RAIDLAB info --json "$spec" | jq .size_bytes)
	[ "$(jqv md.json .resync_bytes)" -gt 0 ] && [ "$(jqv md.json .resync_bytes)" -lt "$((size / 4))" ] ||
		fail "$level: resynced $(jqv md.json .resync_bytes) of $size bytes"
	[ "$(dirty "$1")" = 0 ] && [ "$(dirty "$2")" = 0 ] || fail "$level: bits left after the resync"
	[ "$(ex "$1" State)" = clean ] || fail "$level: not clean after the clean stop"
	$RAIDLAB check "$spec" >check.out || fail "$level: check after the bitmap resync: $(cat check.out)"
	echo "ok: $level: $d of $total regions resynced ($(jqv md.json .resync_bytes) bytes)"
}

case_bitmap raid1 a.img b.img
case_bitmap raid5 a.img b.img c.img

# without a bitmap: the whole array
rm -f ./*.img
$RAIDLAB create raid1 'file(a.img,size=64m)' 'file(b.img,size=64m)' --quiet || fail create
kill_writer 'md(a.img,b.img)' a.img nobitmap
tear b.img 8
reopen 'md(a.img,b.img)'
size=$($RAIDLAB info --json 'md(a.img,b.img)' | jq .size_bytes)
[ "$(jqv md.json .resync_regions)" = 0 ] && [ "$(jqv md.json .resync_bytes)" = "$size" ] ||
	fail "no bitmap: resynced $(jqv md.json .resync_regions) regions, $(jqv md.json .resync_bytes) of $size bytes"
$RAIDLAB check 'md(a.img,b.img)' >/dev/null || fail "check after the full resync"
echo "ok: no bitmap: the whole array resynced"

# a bitmap chunk smaller than the raid chunk: a 64 KiB write is 16 regions
# of 4 KiB, and every one must be marked before the write (one bit per
# write left the other 15 regions out of the next resync)
rm -f ./*.img
$RAIDLAB create raid5 'file(a.img,size=24m)' 'file(b.img,size=24m)' 'file(c.img,size=24m)' \
    --chunk 64k --bitmap-chunk 4k --quiet || fail "create raid5 with 4k bitmap chunks"
$RAIDLAB run --quiet --target 'md(a.img,b.img,c.img)' --rw=write --bs=64k --size=64k \
    --time_based --runtime=60 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do
	[ "$(dirty a.img)" -gt 0 ] && break
	sleep 0.05
done
sleep 0.2
kill -9 "$pid" 2>/dev/null || fail "the writer ended before it was killed"
wait "$pid" 2>/dev/null || true
[ "$(dirty a.img)" -ge 16 ] || fail "a 64 KiB write marked $(dirty a.img) of its 16 regions of 4 KiB"
reopen 'md(a.img,b.img,c.img)'
[ "$(jqv md.json .resync_regions)" -ge 16 ] || fail "resynced $(jqv md.json .resync_regions) regions"
$RAIDLAB check 'md(a.img,b.img,c.img)' >check.out || fail "check: $(cat check.out)"
echo "ok: a 64 KiB write marked $(jqv md.json .resync_regions) regions of 4 KiB"
