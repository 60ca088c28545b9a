#!/usr/bin/env bash
# The array tools refuse what they cannot do properly and leave nothing
# behind: a rebuild onto a smaller member (raid5/raid6 too, not only the
# mirrors) is refused and the file it created removed, a refused create
# removes the files it created and a successful one counts its members, a
# check that could compare nothing fails instead of reporting "no
# mismatches", and a create over members that store nothing fails cleanly
# (no leak under the sanitizer build).
. "$(dirname "$0")/lib.sh"

# --- rebuild onto a smaller member: every redundant level ---
for level in raid1 raid10 raid5 raid6; do
	n=4 opt=",chunk=64k"
	[ $level = raid1 ] && n=2 opt=""
	members=()
	for ((i = 0; i < n; i++)); do members+=("file(m$i.img,size=8m)"); done
	rm -f m*.img new.img
	$RAIDLAB run --quiet --keep --target "$level($(IFS=,; echo "${members[*]}")$opt)" \
	    --rw=write --bs=64k --size=1m || fail "$level: write"
	members[1]="file(new.img,size=4m)"
	for ((i = 0; i < n; i++)); do [ $i = 1 ] || members[i]="m$i.img"; done
	spec="$level($(IFS=,; echo "${members[*]}")$opt)"
	expect_fail 2 "a smaller replacement would shrink the array" \
	    $RAIDLAB rebuild "$spec" --member 1 --force-destroy
	[ ! -e new.img ] || fail "$level: the refused rebuild left new.img behind"
done

# --- create: a refused one removes what it made, a good one counts its members ---
expect_fail 2 "larger than the data offset" \
    $RAIDLAB create raid1 'file(x.img,size=1m)' 'file(y.img,size=1m)'
[ ! -e x.img ] && [ ! -e y.img ] || fail "the refused create left its files behind"
out=$($RAIDLAB create raid1 'file(x.img,size=4m)' 'file(y.img,size=4m)') || fail "create"
grep -q "^raid1 array of 2 members" <<<"$out" || fail "create says: $out"
expect_fail 2 "stores no data" $RAIDLAB create raid1 'null()' 'null()'

# --- check: comparing nothing is an error ---
expect_fail 1 "nothing could be compared" $RAIDLAB check 'md(x.img)'
rm -f m*.img
$RAIDLAB create raid5 'file(m0.img,size=4m)' 'file(m1.img,size=4m)' 'file(m2.img,size=4m)' \
    --chunk 64k --quiet || fail "create raid5"
expect_fail 1 "nothing could be compared" $RAIDLAB check 'md(m0.img,m2.img)'
out=$($RAIDLAB check 'md(m0.img,m1.img,m2.img)') || fail "check of the whole raid5: $out"
grep -q "no mismatches" <<<"$out" || fail "check: $out"
echo ok
