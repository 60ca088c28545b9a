#!/usr/bin/env bash
# Seed system: two Samsung SM951 striped by Windows (a dynamic volume), from
# raidlab advise's default output.  The review's conclusion: striping nearly
# doubles sequential reads, and 4K reads at QD1 do not move.
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB advise --drives 2xsm951 --platform sm951-windows-stripe -j 2 --store st \
	--json w.json >w.out 2>w.err || { cat w.err; fail "advise sm951-windows-stripe"; }
grep -q "^How sure: the validation set 'sm951-windows-stripe'" w.out || fail "the backing set is not named"
grp() { jq -r --arg l "$1" --arg g "$2" --arg d "${3}_mb_s" \
	'.advise.ranking[] | select(.label | startswith($l)) | .groups[] | select(.group == $g) | .[$d]' w.json | head -n 1; }
more() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a > b * f) }'; }
s1=$(grp single sequential read)
s2=$(grp 'raid0 x2' sequential read)
q1=$(grp single 'random QD1' read)
q2=$(grp 'raid0 x2' 'random QD1' read)
echo "sm951: sequential read $s1 -> $s2, 4K QD1 read $q1 -> $q2"
more "$s2" "$s1" 1.6 || fail "striping does not nearly double sequential reads ($s1 -> $s2)"
more "$q2" "$q1" 0.9 && ! more "$q2" "$q1" 1.1 || fail "striping moves 4K QD1 reads ($q1 -> $q2)"
grep -q '^Decided by: the sequential tests' w.out || { grep -A3 '^Answer' w.out; fail "sequential does not decide"; }
echo ok
