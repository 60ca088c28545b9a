#!/usr/bin/env bash
# raid5 with a write-hole remedy (journal= or ppl=on) and powerloss-after=N
# from the spec: the power really is cut (the open's log replay used to
# disarm it, so a "write hole" run never lost power), the writes before the
# cut survive the replay at the next open, and a read-only open of such an
# array serves reads (it used to replay into read-only members and fail
# them all, or member 0 with ppl=on).
. "$(dirname "$0")/lib.sh"

for remedy in 'journal="file(j.img,size=8m)"' 'ppl=on'; do
	rm -f ./*.img
	S="raid5(file(a.img,size=8m),file(b.img,size=8m),file(c.img,size=8m),chunk=64k,stripe_cache=4"
	rc=0
	$RAIDLAB run --keep --quiet --target "$S,$remedy,powerloss-after=100)" --rw=write --bs=64k \
	    --size=12m --iodepth=1 --verify=crc32c >out 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat out; fail "$remedy: the power was never cut (exit $rc)"; }
	cut=$(sed -n 's/.*the first: write at offset \([0-9]*\).*/\1/p' out)
	[ -n "$cut" ] && [ "$cut" -gt 0 ] || { cat out; fail "$remedy: no cut offset"; }
	reopen="raid5(a.img,b.img,c.img,chunk=64k,stripe_cache=4,${remedy/file(j.img,size=8m)/j.img})"
	# read-only: every member in sync, the data before the cut readable
	$RAIDLAB info "$reopen" | grep -q 'state=optimal' ||
		fail "$remedy: a read-only open failed members: $($RAIDLAB info "$reopen")"
	$RAIDLAB run --quiet --target "$reopen" --rw=write --bs=64k --size="$cut" \
	    --verify=crc32c --verify_only=1 || fail "$remedy: data before the cut, read-only"
	# opened for writing: the log is replayed, the data before the cut is still there
	$RAIDLAB run --quiet --force-destroy --target "$reopen" --rw=write --bs=64k --size=64k \
	    --offset=11m >/dev/null || fail "$remedy: reopening for writing"
	$RAIDLAB run --quiet --target "$reopen" --rw=write --bs=64k --size="$cut" \
	    --verify=crc32c --verify_only=1 || fail "$remedy: data before the cut after the replay"
done
echo ok
