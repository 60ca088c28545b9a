#!/usr/bin/env bash
# raidlab validate: the published sets replay on simulated stacks; those
# whose findings all hold meet their thresholds and pass, those with findings
# the model does not reproduce yet (validation/README.md says why) fail and
# name exactly those findings, and the command exits 1; the JSON keeps its
# contract; any configuration replays with `raidlab run` to the same figure;
# a broken set file is refused with the file and the field.
#
# The plain build replays every set.  Under the sanitizers the runs are ~5x
# slower, so that build replays the smallest set only (the same code paths).
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles RAIDLAB_VALIDATION=$top/validation

sets=()
case "${RAIDLAB_BUILD:-}" in
*asan*) sets=(sm951-windows-stripe) ;;
esac

[ "$($RAIDLAB validate --list | wc -l)" -ge 3 ] || fail "validate --list: fewer than 3 sets"

rc=0
$RAIDLAB validate "${sets[@]}" -j 2 --json v.json --html v.html >out.txt 2>err.txt || rc=$?
cat out.txt
# The findings that fail today, by set (validation/README.md: "Findings that do
# not hold yet" and "Known disagreements"); every other set passes.
known_fails='{
	"vertex-raid0-southbridge": ["AS SSD 4K write +136 %, the biggest write gain",
		"HD Tune minimum read +153 %", "HD Tune average write ~+60 %"],
	"amd-nvme-raid": ["A single drive in RAID mode is slower than the same drive with the default NVMe driver in every test",
		"RAID 1: a write penalty in every test"]}'
want_rc=$(jq --argjson k "$known_fails" '[.sets[].name | select($k[.])] | if length > 0 then 1 else 0 end' v.json)
[ "$rc" -eq "$want_rc" ] || { cat err.txt; fail "validate exited $rc, want $want_rc"; }
jq -e --argjson k "$known_fails" 'all(.sets[]; .summary.pass == ($k[.name] == null)
	and .summary.findings_failed == ($k[.name] // []))' v.json >/dev/null ||
	fail "a set passes or fails other than with the findings known to fail"
jq -e '.pass == all(.sets[]; .summary.pass)' v.json >/dev/null || fail "the JSON's pass is not every set's"
for set_ in $(jq -r '.sets[] | select(.summary.pass | not) | .name' v.json); do
	grep -q "^  FAIL: $(jq --arg s "$set_" '.sets[] | select(.name == $s) | .summary.findings_failed | length' v.json) of [0-9]* findings fail: " out.txt ||
		fail "$set_: the text verdict does not name its failing findings"
done
[ "$(grep -c '^<p class="bad">FAIL: ' v.html)" -eq "$(jq '[.sets[] | select(.summary.pass | not)] | length' v.json)" ] ||
	fail "the HTML banners do not say FAIL for each failing set"

# the contract: sets[] with name and configs[] (name, spec, suite, cells[] of
# test, direction, published, simulated) and a summary
jq -e '.sets | length >= 1' v.json >/dev/null || fail "no sets in the JSON"
jq -e '[.sets[].configs[] | (.name, .spec, .suite) | strings] | length > 0' v.json >/dev/null ||
	fail "configs lack name/spec/suite"
jq -e 'all(.sets[].configs[].cells[]; (.test|type)=="string" and (.direction|type)=="string"
        and (.published|type)=="number" and (.simulated|type)=="number")' v.json >/dev/null ||
	fail "a cell lacks test/direction/published/simulated"
grep -q '<svg class="chart"' v.html || fail "the HTML report has no chart"

# calibration apart from checking: cells and findings with "fit" are in-sample,
# the rest out-of-sample; the two parts cover the set, and each part's median
# error and findings are those of its own cells and findings
jq -e 'all(.sets[]; . as $s | .summary as $m
	| ($m.in_sample.cells + $m.out_of_sample.cells) == $m.cells
	and ($m.in_sample.relations + $m.out_of_sample.relations) == $m.relations
	and ($m.in_sample.orderings + $m.out_of_sample.orderings) == $m.orderings
	and all(.configs[].cells[], .relations[]; .in_sample == (.fit != null))
	and all(["in_sample", "out_of_sample"][]; . as $k
		| [$s.configs[].cells[] | select(.in_sample == ($k == "in_sample")
		   and .anomaly == null) | .ratio | log | fabs] | sort as $l
		| ($l | length) as $n
		| $m[$k].counted == $n
		and ($n == 0 or ((if $n % 2 == 1 then $l[($n - 1) / 2]
		                  else ($l[$n / 2 - 1] + $l[$n / 2]) / 2 end | exp)
		                 - $m[$k].median_error_x | fabs) < 1e-9)
		and $m[$k].relations_held == ([$s.relations[]
			| select(.in_sample == ($k == "in_sample") and .held)] | length)))' \
	v.json >/dev/null || fail "the in-sample and out-of-sample parts do not add up"
jq -e '.sets[] | select(.name=="sm951-windows-stripe") | .summary.in_sample.cells == 3' \
	v.json >/dev/null || fail "sm951: not the 3 cells its parameters were fitted to"
grep -q '^  in-sample (fitted to): ' out.txt && grep -q '^  out-of-sample (predicted): ' out.txt ||
	fail "the text report does not give both agreements"
# the HTML report too: both agreements per set, and the cells in two tables,
# as many rows in each as the JSON's part has cells
[ "$(grep -c '<b>In-sample (fitted to)</b>' v.html)" -eq "$(jq '.sets | length' v.json)" ] &&
	[ "$(grep -c '<b>Out-of-sample (predicted)</b>' v.html)" -eq "$(jq '.sets | length' v.json)" ] ||
	fail "the HTML report does not give both agreements for every set"
html_rows() { # rows of the tables of class $1
	awk -v c="$1" '/^<table class="/ { on = index($0, "\"" c "\"") > 0 }
		/^<\/table>/ { on = 0 } on && /^<tr class=/ { n++ } END { print n + 0 }' v.html
}
[ "$(html_rows in-sample)" -eq "$(jq '[.sets[].summary.in_sample.cells] | add' v.json)" ] &&
	[ "$(html_rows out-of-sample)" -eq "$(jq '[.sets[].summary.out_of_sample.cells] | add' v.json)" ] ||
	fail "the HTML tables do not split the cells as the JSON does"

# replay one configuration by hand: the same figure (simulation is deterministic)
spec=$(jq -r '.sets[] | select(.name=="sm951-windows-stripe") | .configs[]
              | select(.suite=="asssd") | select(.name=="raid0 x2") | .spec' v.json)
want=$(jq -r '.sets[] | select(.name=="sm951-windows-stripe") | .configs[]
              | select(.suite=="asssd") | select(.name=="raid0 x2") | .cells[]
              | select(.test=="Seq" and .direction=="read") | .simulated' v.json)
[ -n "$spec" ] && [ -n "$want" ] || fail "the sm951 set has no raid0 x2 AS SSD Seq read"
$RAIDLAB run asssd --target "$spec" --json replay.json --quiet >/dev/null
got=$(jq -r '.tests[] | select(.name=="Seq") | .read.mb_s' replay.json)
awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > b * 0.999 && a < b * 1.001) }' ||
	fail "raidlab run $spec gives $got MB/s, validate said $want"
echo "replayed $spec: AS SSD Seq read $got MB/s (validate: $want)"

# the PERC set must keep its mode orderings (every one) and its thresholds
if [ ${#sets[@]} -eq 0 ]; then
	jq -e '.sets[] | select(.name=="perc-h730p") | .summary
	       | .orderings > 40 and .orderings == .orderings_held and ."within_1.25" >= 0.78' \
		v.json >/dev/null || fail "perc-h730p: orderings or agreement below the recorded level"
fi

# a broken set: named file and field, exit 1
jq '.configs[0].cells[0].published = -1' "$top/validation/sm951-windows-stripe.json" >bad.json
expect_fail 1 "bad.json: configs\[0\].cells\[0\]: published must be a positive number" \
	$RAIDLAB validate ./bad.json
jq '.relations[0].fit = 3' "$top/validation/sm951-windows-stripe.json" >badfit.json
expect_fail 1 "badfit.json: relations\[0\]: fit must name the parameters" $RAIDLAB validate ./badfit.json
expect_fail 2 "no validation set 'nosuchset'" $RAIDLAB validate nosuchset
echo "validate: ok"
