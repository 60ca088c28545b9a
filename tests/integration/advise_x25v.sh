#!/usr/bin/env bash
# The X25-V pair's lesson, from raidlab advise's default output: behind a RAID
# driver that passes no TRIM to its members (Intel Matrix Storage on ICH10R),
# two Intel X25-V 40 GB drives decay once written full, and leaving part of
# each drive unused (a partition that does not cover it) gives the drive back
# the reserve TRIM would have.  advise must measure the drives in that state,
# try the spare area as an axis (0/7/20/28 %), show what the state costs
# against the drives as new, and rank the spare-area rows with their smaller
# capacity.  --spare sets the axis; a platform whose TRIM reaches the members
# has no axis by default; bad lists are refused.  --html shows the same
# answer in the report.
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB advise --drives 2xx25v --platform vertex-raid0-southbridge -j 2 --store st \
	--json x.json >x.out 2>x.err || { cat x.err; fail "advise x25v"; }
grep -q '^spare area: 0 %, 7 %, 20 %, 28 % (TRIM does not reach the members' x.out ||
	{ head -4 x.out; fail "the header does not give the spare-area axis and its reason"; }
# every configuration in the drives' steady state appears at each spare area
for p in 0 7 20 28; do
	grep -q "^ *=*[0-9]*  raid0 x2 chunk=[0-9a-z]* spare=$p%" x.out || fail "no raid0 x2 row at spare=$p%"
done
# decay: the array as new writes far more than in its steady state without spare area
w0=$(jq '[.advise.ranking[] | select(.label | test("^raid0 x2 chunk=64k spare=0%$"))][0]' x.json)
w28=$(jq '[.advise.ranking[] | select(.label | test("^raid0 x2 chunk=64k spare=28%$"))][0]' x.json)
jq -e --argjson a "$w0" -n '$a.fresh_write_mb_s > 2 * $a.write_mb_s' >/dev/null ||
	fail "no decay without TRIM: $w0"
# the cure: 28 % spare at least doubles steady writes, at 72 % of the capacity
jq -e --argjson a "$w0" --argjson b "$w28" -n \
	'$b.write_mb_s > 2 * $a.write_mb_s and $b.spare_pct == 28 and $a.spare_pct == 0' >/dev/null ||
	fail "spare area does not cure the decay: $w0 / $w28"
c0=$(jq -r '.points[] | select(.label == "raid0 x2 chunk=64k spare=0%") | .capacity_bytes' x.json)
c28=$(jq -r '.points[] | select(.label == "raid0 x2 chunk=64k spare=28%") | .capacity_bytes' x.json)
[ -n "$c0" ] && [ -n "$c28" ] || fail "capacities missing from the sweep document"
awk -v a="$c0" -v b="$c28" 'BEGIN { r = b / a; exit !(r > 0.71 && r < 0.73) }' ||
	fail "spare=28% capacity $c28 is not 72 % of $c0"
grep -q '^Without TRIM the drives decay: .*as new .* in their steady state (-[0-9]* %); with 28 % of each drive left unused' x.out ||
	{ grep -A8 '^Answer' x.out; fail "the answer does not name the decay and the cure"; }

# the report shows the same answer: header, ranking, per-group view, answer
$RAIDLAB advise --drives 2xx25v --platform vertex-raid0-southbridge -j 2 --store st \
	--html x.html >/dev/null 2>h.err || { cat h.err; fail "advise --html"; }
grep -q '<section id="advise"><h2>Advise</h2>' x.html || fail "no advise section in the report"
grep -q 'spare area: 0 %, 7 %, 20 %, 28 %' x.html || fail "the report has no header"
grep -q '<h3>Per test group (MB/s read / write)</h3>' x.html || fail "the report has no per-group view"
grep -q 'Without TRIM the drives decay: raid0 x2 chunk=64k spare=0% writes' x.html ||
	fail "the report does not carry the answer"
jq -e '.advise.answer | startswith("Answer (throughput): ")' x.json >/dev/null ||
	fail "the JSON does not carry the answer"

# --spare sets the axis; one value labels every row
$RAIDLAB advise --drives 2xx25v --platform vertex-raid0-southbridge -j 2 --store st \
	--spare 20 >s.out 2>s.err || { cat s.err; fail "advise --spare 20"; }
grep -q '^spare area: 20 % (as --spare says)' s.out || fail "--spare 20 not in the header"
grep -q 'spare=0%' s.out && fail "--spare 20 still measured spare=0%"
grep -q '  single spare=20%' s.out || fail "no single spare=20% row"

# bad lists are refused, naming the option
for bad in 60 7,7 x 1,2,3,4,5,6,7 ''; do
	expect_fail 2 '--spare' $RAIDLAB advise --drives 2xx25v --spare "$bad"
done
echo ok
