#!/usr/bin/env bash
# An interrupted rebuild resumes where it stopped (md's recovery_offset):
# while md(...) rebuilds a stale member the member's superblock carries a
# recovery offset that advances; after a kill -9 mid-way the next open
# resumes at exactly the offset mdadm --examine shows (not at 0), and the
# rebuilt member then holds the array's data on its own.
. "$(dirname "$0")/lib.sh"
need mdadm
need jq

ex() { mdadm --examine "$1" | sed -n "s/^ *$2 : //p" | head -1; }
recovery() { ex "$1" "Recovery Offset" | sed 's/ sectors//'; }

# interrupt LEVEL MEMBER SPEC: open SPEC for writing (it rebuilds MEMBER,
# whose writes are slowed down), wait until MEMBER records some progress,
# then kill -9 the process.  Prints the recovery offset left behind.
interrupt() {
	local member=$1 spec=$2 off="" pid i
	$RAIDLAB run --quiet --target "$spec" --rw=write --bs=64k --size=64k --offset=1m \
	    >/dev/null 2>interrupt.err &
	pid=$!
	for i in $(seq 600); do
		off=$(recovery "$member")
		[ -n "$off" ] && [ "$off" -gt 0 ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$pid" 2>/dev/null || fail "the rebuild of $member ended before it could be interrupted"
	wait "$pid" 2>/dev/null || true
	[ -n "$off" ] && [ "$off" -gt 0 ] ||
		fail "$member: the recovery offset never advanced during its rebuild ($(recovery "$member"))"
	off=$(recovery "$member") # the last checkpoint before the kill
	[ "$off" -lt "$(ex "$member" "Avail Dev Size" | cut -d' ' -f1)" ] ||
		fail "$member: recovery offset $off is not inside the member"
	echo "$off"
}

# verify SPEC BYTES: the data written before the failure reads back
verify() {
	$RAIDLAB run --quiet --target "$1" --rw=write --bs=64k --size="$2" --verify=crc32c \
	    --verify_only=1 --json v.json >/dev/null 2>&1 || true
	[ "$(jqv v.json '.jobs[0].verify.bad_blocks')" = 0 ] ||
		fail "$1: $(jqv v.json '.jobs[0].verify.bad_blocks') blocks lost"
}

# case LEVEL STALE OTHERS...: the array is written without STALE, then
# reopened with STALE behind a slow write path, interrupted, and reopened.
case_resume() {
	local level=$1 stale=$2 off rs members=() m
	shift 2
	for m in "$@" "$stale"; do members+=("file($m,size=32m)"); done
	rm -f ./*.img
	$RAIDLAB create "$level" "${members[@]}" --quiet || fail "create $level"
	local without all slow
	without="md($(IFS=,; echo "$*"))"
	all="md($(IFS=,; echo "$*"),$stale)"
	slow="md($(IFS=,; echo "$*"),delay($stale,write-lat=100ms))"
	$RAIDLAB run --quiet --keep --target "$without" --rw=write --bs=64k --size=24m \
	    --verify=crc32c >/dev/null || fail "$level: write without $stale"
	off=$(interrupt "$stale" "$slow")
	# its last checkpoint carries the array's events (or one behind, when
	# the kill cut that checkpoint short after the other members had it)
	[ "$(ex "$stale" Events)" -ge "$(($(ex "$1" Events) - 1))" ] ||
		fail "$level: $stale's checkpoint did not carry the array's event count"
	# reopen: resumed at mdadm's offset, and the report says so
	$RAIDLAB run --target "$all" --rw=write --bs=64k --size=64k --offset=30m \
	    --json r.json >/dev/null 2>err || { cat err; fail "$level: reopen"; }
	grep -q "resuming at its recovery offset $off sectors" err ||
		fail "$level: did not resume at mdadm's recovery offset $off: $(cat err)"
	rs=$(jq -r '[.. | objects | select(has("md")) | .md.resumed // empty | .[]][0]' r.json)
	[ "$rs" = "$((off * 512))" ] || fail "$level: the report says it resumed at $rs, not $((off * 512))"
	[ "$(ex "$stale" "Feature Map")" = 0x0 ] || fail "$level: $stale still recovering after the resume"
	[ -z "$(recovery "$stale")" ] || fail "$level: $stale keeps a recovery offset"
	# the rebuilt member carries the data: with one other member left out
	if [ "$level" = raid5 ]; then verify "md($2,$stale)" 24m; else verify "md($stale)" 24m; fi
	$RAIDLAB check "$all" >/dev/null || fail "$level: check after the resume"
	echo "ok: $level resumed at $off sectors"
}

case_resume raid1 b.img a.img
case_resume raid5 c.img a.img b.img
case_resume raid10 b.img a.img
