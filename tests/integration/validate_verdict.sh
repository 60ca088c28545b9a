#!/usr/bin/env bash
# raidlab validate's verdict is honest: a set passes only when its
# thresholds are met and every finding holds, whatever its thresholds allow
# (exit status, JSON, text and HTML agree and name the failing findings);
# a failing finding's message is printed whole ("between" gives both
# bounds, long configuration names are not clipped); a cell more than 2x
# off its published figure is flagged with the set's reason for it; a set
# of findings only shows its findings, not the statistics of no cells.
# Small sets of quick runs (CrystalDiskMark, 1 pass of 0.2 s).
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles

long="a raid0 of two drives whose configuration name is long enough to be clipped"
long="$long by any fixed buffer of a few hundred characters: $(printf 'x%.0s' $(seq 1 300))"
why="the article measured another drive (a reason the set gives)"
params='{"duration": "0.2", "passes": "1"}'

# One cell 4 orders of magnitude off (with a reason), one finding that holds
# and one that fails; the thresholds ask for neither finding.
jq -n --arg long "$long" --arg why "$why" --argjson p "$params" '{
	name: "verdict-cells", title: "a failing finding under lax thresholds",
	configs: [
		{name: "one", spec: "ssd(sx8200pro)", suite: "cdm", params: $p,
		 cells: [{test: "SEQ1M Q8T1", direction: "read", published: 0.5, why: $why},
		         {test: "RND4K Q1T1", direction: "read", published: 0.01}]},
		{name: $long, spec: "raid0(ssd(sx8200pro) x2, chunk=64k)", suite: "cdm", params: $p,
		 cells: []}],
	relations: [
		{finding: "raid0 reads sequentially faster", op: ">",
		 lhs: {config: $long, test: "SEQ1M Q8T1", direction: "read"}, rhs: {config: "one"}},
		{finding: "raid0 reads sequentially 5 to 6 times faster", op: "between", factor: [5, 6],
		 lhs: {config: $long, test: "SEQ1M Q8T1", direction: "read"}, rhs: {config: "one"}}],
	thresholds: {relations_min: 1}, targets: {relations: true}}' >cells.json

rc=0
$RAIDLAB validate ./cells.json -j 1 --json v.json --html v.html >out.txt 2>err.txt || rc=$?
cat out.txt
[ "$rc" -eq 1 ] || { cat err.txt; fail "validate exited $rc with a finding failing (want 1)"; }
jq -e '.pass == false and .sets[0].summary.pass == false' v.json >/dev/null ||
	fail "the JSON says the set passes with a finding failing"
jq -e '.sets[0].summary.findings_failed == ["raid0 reads sequentially 5 to 6 times faster"]' \
	v.json >/dev/null || fail "the JSON does not name the failing finding"
jq -e '.sets[0].summary.why | startswith("1 of 2 findings fail: raid0 reads sequentially 5 to 6")' \
	v.json >/dev/null || fail "the JSON's why does not name the failing finding"
grep -q '^  FAIL: 1 of 2 findings fail: raid0 reads sequentially 5 to 6 times faster' out.txt ||
	fail "the text verdict does not name the failing finding"
grep -q '^  PASS' out.txt && fail "the text says PASS"
grep -q '<p class="bad">FAIL: 1 of 2 findings fail: raid0 reads sequentially 5 to 6' v.html ||
	fail "the HTML banner does not name the failing finding"
grep -q '>PASS' v.html && fail "the HTML says PASS"

# the failing comparison whole: both bounds, the long name unclipped, in every form
detail=$(jq -r '.sets[0].relations[1].detail' v.json)
case $detail in
*"$long"*"needs between 5x and 6x)") ;;
*) fail "the finding's detail is clipped or lacks its bounds: $detail" ;;
esac
grep -qF "$detail" out.txt || fail "the text does not print the finding's detail whole"
jq -e '.sets[0].summary.why | endswith("needs between 5x and 6x))")' v.json >/dev/null ||
	fail "the verdict's why is clipped"

# the cells beyond 2x: flagged with the set's reason, or as having none
grep -E '^  one +SEQ1M Q8T1 ' out.txt | grep -qF "x  beyond 2x: $why" ||
	fail "the cell 2x off is not flagged with its reason in the text"
grep -E '^  one +RND4K Q1T1 .*x  beyond 2x: no reason known' out.txt >/dev/null ||
	fail "the cell 2x off without a reason is not flagged in the text"
grep -qF "<small class=\"far\">beyond 2x: $why</small>" v.html ||
	fail "the cell 2x off is not flagged in the HTML"
jq -e --arg w "$why" '.sets[0].configs[0].cells[0].why == $w' v.json >/dev/null ||
	fail "the JSON does not carry the cell's reason"

# demo --platform tells the same: the flag under the row, the verdict named
$RAIDLAB demo --platform ./cells.json --html d.html >demo.txt 2>&1 ||
	{ cat demo.txt; fail "demo --platform failed"; }
grep -A1 -E '^  SEQ1M Q8T1 +read ' demo.txt | grep -qxF "    ^ beyond 2x: $why" ||
	{ cat demo.txt; fail "demo does not flag the cell 2x off under its row"; }
grep -q '^verdict: FAIL: 1 of 2 findings fail: raid0 reads sequentially 5 to 6' demo.txt ||
	fail "demo does not give the verdict"
grep -q '<p class="bad">FAIL: ' d.html || fail "demo's HTML banner does not say FAIL"

# A set of findings only, all holding: PASS, and no statistics of no cells
jq 'del(.configs[0].cells[]) | .relations |= [.[0]] | .name = "verdict-findings"' cells.json >findings.json
$RAIDLAB validate ./findings.json -j 1 --json f.json --html f.html >fout.txt 2>ferr.txt ||
	{ cat fout.txt ferr.txt; fail "a set whose findings all hold does not pass"; }
grep -q '^  PASS: every enforced threshold is met and every finding holds' fout.txt ||
	{ cat fout.txt; fail "the text does not say why the set passes"; }
grep -q 'x0.000' fout.txt && fail "the text gives the statistics of no cells"
grep -q '&times;0.000' f.html && fail "the HTML gives the statistics of no cells"
grep -q '<table' f.html && fail "the HTML has tables of no cells"
grep -q 'holds: raid0 reads sequentially faster' f.html || fail "the HTML does not show the finding"
echo "validate verdict: ok"
