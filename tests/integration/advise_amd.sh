#!/usr/bin/env bash
# Seed system: the NVMe pair and trio on AMD's RAIDXpert2 (three SX8200 Pro,
# X399), from raidlab advise's default output (drives used, the test area
# past their SLC caches, CrystalDiskMark's short form).  The review's
# conclusions: sequential reads scale with the members (two, then three),
# 4K reads at QD1 do not move, and a raid1 pair gains no writes over one
# drive.  One advise of three drives measures the pair and the trio.
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB advise --drives 3xsx8200pro --platform amd-nvme-raid -j 2 --store st \
	--json a.json >a.out 2>a.err || { cat a.err; fail "advise amd-nvme-raid"; }
grep -q '^test area .*drives used (written once' a.out || { head -3 a.out; fail "the drives are not used"; }
grep -q "^How sure: the validation set 'amd-nvme-raid'" a.out || fail "the backing set is not named"

# group figures of one configuration: read or write MB/s of a test group
grp() { jq -r --arg l "$1" --arg g "$2" --arg d "${3}_mb_s" \
	'.advise.ranking[] | select(.label == $l) | .groups[] | select(.group == $g) | .[$d]' a.json; }
more() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a > b * f) }'; }

s1=$(grp single sequential read)
s2=$(grp 'raid0 x2' sequential read)
s3=$(grp 'raid0 x3' sequential read)
echo "amd: sequential read single $s1, raid0 x2 $s2, raid0 x3 $s3"
more "$s2" "$s1" 1.3 || fail "the pair does not scale sequential reads ($s2 against $s1)"
more "$s3" "$s2" 1.15 || fail "the trio does not scale sequential reads past the pair ($s3 against $s2)"
q1=$(grp single 'random QD1' read)
for c in 'raid0 x2' 'raid0 x3'; do
	q=$(grp "$c" 'random QD1' read)
	echo "amd: 4K QD1 read single $q1, $c $q"
	more "$q" "$q1" 0.9 && ! more "$q" "$q1" 1.1 || fail "$c moves 4K QD1 reads ($q against $q1)"
done
for g in sequential 'random QD1' 'random QD>1'; do
	w1=$(grp single "$g" write)
	wm=$(grp 'raid1 x2' "$g" write)
	echo "amd: $g write single $w1, raid1 x2 $wm"
	more "$wm" "$w1" 1.1 && fail "raid1 gains $g writes ($wm against $w1)"
done
# the answer names the trio for throughput, the mirror as the trade-off
grep -q '^Answer (throughput): raid0 x3,' a.out || { grep -A3 '^Answer' a.out; fail "the answer is not raid0 x3"; }
grep -q '^Trade-off: the best that survives a failure is raid1 x2' a.out || fail "no raid1 trade-off"
echo ok
