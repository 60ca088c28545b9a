#!/usr/bin/env bash
# raidlab advise on the Vertex pair's platform (2 OCZ Vertex on Intel Matrix
# Storage over ICH10R), with its defaults: the drives are measured in their
# steady state, since no TRIM reaches members behind that RAID; and advise
# says how sure it is from the validation set's findings, replayed on the
# model: three of them fail (among them AS SSD 4K write +136 %), so the
# raid0 x2 rows are "contradicted", nothing says "Backed by", and the
# failing findings are listed.  A second advise on the same store replays
# nothing again.  --spare 0: the spare-area axis is advise_x25v.sh's question.
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB advise --drives 2xvertex --platform vertex-raid0-southbridge --workload asssd -j 2 --spare 0 \
	--store st --json v.json >v.out 2>v.err || { cat v.err; fail "advise vertex"; }
grep -q '^test area .*drives steady (steady: TRIM does not reach the members' v.out ||
	{ head -3 v.out; fail "the header does not say the drives are steady for want of TRIM"; }
grep -q 'Backed by' v.out && fail "'Backed by' printed while findings fail"
grep -q '^  - AS SSD 4K write +136 %' v.out || { cat v.out; fail "the failing finding is not listed"; }
[ "$(jq -r '.advise.ranking[] | select(.label | startswith("raid0 x2")) | .basis' v.json | sort -u)" = contradicted ] ||
	fail "raid0 x2 is not marked contradicted"
[ "$(jq -r '.advise.ranking[] | select(.label == "single") | .basis' v.json)" = validated ] ||
	fail "the single drive is not marked validated"
jq -e '.advise.validation.held < .advise.validation.total' v.json >/dev/null ||
	fail "the JSON does not carry the validation outcome"
# the per-group view carries every group, in text and JSON
grep -q '^Per test group' v.out || fail "no per-group table"
jq -e '[.advise.ranking[].groups[].group] | index("random QD1") != null' v.json >/dev/null ||
	fail "no random QD1 group in the JSON"
# the set's outcome is kept in the store: a second run does not replay it
$RAIDLAB advise --drives 2xvertex --platform vertex-raid0-southbridge --workload asssd -j 2 --spare 0 \
	--store st >v2.out 2>v2.err || fail "second advise"
grep -q 'replaying the validation set' v2.err && fail "the validation set was replayed twice"
cmp -s <(grep -v '^sweep' v.out) <(grep -v '^sweep' v2.out) || fail "the second answer differs"
echo ok
