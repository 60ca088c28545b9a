#!/usr/bin/env bash
# `raidlab compare` refusals: exit status and message for each broken input
# (missing file, not JSON, wrong schema_version, missing and mistyped
# fields, a suite result mixed with a job result) and each usage error.
# Broken results are made from the golden inputs with jq.
. "$(dirname "$0")/lib.sh"
need jq

G="$RAIDLAB_TOP/tests/golden"
cp "$G/cdm-single.json" "$G/cdm-raid0x2.json" "$G/jobs-mem.json" .
good=cdm-single.json

# files that cannot be read (exit 1, the file named)
expect_fail 1 "nope.json: cannot open: No such file or directory" $RAIDLAB compare $good nope.json
mkdir adir
expect_fail 1 "adir: cannot read: Is a directory" $RAIDLAB compare adir
: >empty.json
expect_fail 1 "empty.json: not JSON: the file is empty" $RAIDLAB compare empty.json
printf 'name,mb_s\nx,1\n' >table.csv
expect_fail 1 "table.csv: not JSON: null expected at line 1, column 2" $RAIDLAB compare table.csv
head -c 2000 $good >cut.json
expect_fail 1 "cut.json: not JSON: the document ends early (truncated?)" $RAIDLAB compare cut.json
{ cat $good; echo '{}'; } >two.json
expect_fail 1 "two.json: not JSON: unexpected character at line" $RAIDLAB compare two.json
printf '{"schema_version":1,"jobs":[],"x":"\xff"}' >latin1.json
expect_fail 1 "latin1.json: not JSON: " $RAIDLAB compare latin1.json

# the contract (exit 1, the field named)
jq '.schema_version = 2' $good >v2.json
expect_fail 1 "v2.json: schema_version 2 is not supported (raidlab reads 1)" $RAIDLAB compare v2.json
jq 'del(.schema_version)' $good >nov.json
expect_fail 1 "nov.json: field 'schema_version' is missing" $RAIDLAB compare nov.json
jq '.schema_version = "1"' $good >sv.json
expect_fail 1 "sv.json: field 'schema_version' must be an integer, not a string" $RAIDLAB compare sv.json
jq 'del(.label)' $good >nolabel.json
expect_fail 1 "nolabel.json: field 'label' is missing" $RAIDLAB compare nolabel.json
jq 'del(.tests[2].read.mb_s)' $good >nomb.json
expect_fail 1 "nomb.json: field 'tests\[2\].read.mb_s' is missing" $RAIDLAB compare nomb.json
jq 'del(.target.spec)' $good >nospec.json
expect_fail 1 "nospec.json: field 'target.spec' is missing" $RAIDLAB compare nospec.json
jq '.tests[0].bs = "1M"' $good >bs.json
expect_fail 1 "bs.json: field 'tests\[0\].bs' must be an integer, not a string" $RAIDLAB compare bs.json
jq '.tests[1].write.lat_us = 12' $good >lat.json
expect_fail 1 "lat.json: field 'tests\[1\].write.lat_us' must be an object, not a number" \
	$RAIDLAB compare lat.json
jq '.jobs[1].read.iops = null' jobs-mem.json >jobnull.json
expect_fail 1 "jobnull.json: field 'jobs\[1\].read.iops' is missing" $RAIDLAB compare jobnull.json
jq '.tests = {}' $good >tobj.json
expect_fail 1 "tobj.json: field 'tests' must be an array, not an object" $RAIDLAB compare tobj.json
# figures that are not measurements (exit 1, the field and the value named)
jq '.tests[0].read.mb_s = -5' $good >neg.json
expect_fail 1 "neg.json: field 'tests\[0\].read.mb_s' is -5, outside the plausible range" $RAIDLAB compare neg.json
jq '.tests[0].read.mb_s = 0' $good >zero.json
expect_fail 1 "zero.json: field 'tests\[0\].read.mb_s' is 0, outside" $RAIDLAB compare zero.json
jq '.tests[0].read.mb_s = 1e308' $good >huge.json
expect_fail 1 "huge.json: field 'tests\[0\].read.mb_s' is 1e+308, outside" $RAIDLAB compare huge.json
jq '.jobs[1].read.lat_us.p99 = -1' jobs-mem.json >pct.json
expect_fail 1 "pct.json: field 'jobs\[1\].read.lat_us.p99' is -1" $RAIDLAB compare pct.json
jq '.jobs[1].read.iops = 1e30' jobs-mem.json >iops.json
expect_fail 1 "iops.json: field 'jobs\[1\].read.iops' is 1e+30" $RAIDLAB compare iops.json
# a job direction's counts: each bad value is refused by name (jq cannot write NaN: sed does)
n=0
for f in ios bytes runtime_s mib_s; do
	for v in -1 0 1e300 '"x"' null NaN; do
		n=$((n + 1))
		jq ".jobs[1].read.$f = \"@V@\"" jobs-mem.json | sed "s/\"@V@\"/$v/" >c$n.json
		expect_fail 1 "c$n.json: field.* 'jobs\[1\].read.$f" $RAIDLAB compare c$n.json
	done
done
# and they must agree with the figures shown
jq '.jobs[1].read.bytes *= 2' jobs-mem.json >twice.json
expect_fail 1 "twice.json: fields 'jobs\[1\].read.bytes' and 'runtime_s' .* disagree with mb_s" \
	$RAIDLAB compare twice.json
jq '.jobs[1].read.mib_s = 1' jobs-mem.json >mib.json
expect_fail 1 "mib.json: field 'jobs\[1\].read.mib_s' is 1, but mb_s" $RAIDLAB compare mib.json
jq '.tests = []' $good >notests.json
expect_fail 1 "notests.json: field 'tests' is empty: there is nothing to compare" $RAIDLAB compare notests.json
jq '.jobs = []' jobs-mem.json >nojobs.json
expect_fail 1 "nojobs.json: field 'jobs' is empty" $RAIDLAB compare nojobs.json
# labels that look like formulas stay text in CSV
jq '.label = "=HYPERLINK(\"http://x\",\"y\")"' $good >f1.json
jq '.label = "+1+2"' cdm-raid0x2.json >f2.json
$RAIDLAB compare f1.json f2.json --csv formula.csv >/dev/null || fail "compare with formula labels"
grep -q "^1,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"," formula.csv ||
	{ head -3 formula.csv; fail "a label starting with = is not neutralised"; }
grep -q "^2,'+1+2," formula.csv || { head -3 formula.csv; fail "a label starting with + is not neutralised"; }

# every broken file is reported, not only the first; nothing is written
expect_fail 1 "v2.json: schema_version 2" $RAIDLAB compare v2.json $good nomb.json --html out.html --csv out.csv
grep -q "nomb.json: field 'tests\[2\].read.mb_s' is missing" "$T/err" || fail "second broken file not reported"
[ ! -e out.html ] && [ ! -e out.csv ] || fail "outputs written although a result was refused"

# a suite result and a job result are not compared (exit 2)
expect_fail 2 "cannot compare cdm-single.json (a suite result: cdm) with jobs-mem.json (a job result)" \
	$RAIDLAB compare $good jobs-mem.json
expect_fail 2 "compare suite results with suite results and job results with job results" \
	$RAIDLAB compare jobs-mem.json $good

# usage (exit 2)
expect_fail 2 "usage: raidlab compare" $RAIDLAB compare
expect_fail 2 "baseline 3: there are only 2 results" $RAIDLAB compare $good cdm-raid0x2.json --baseline 3
expect_fail 2 "baseline: '0' is not a result number" $RAIDLAB compare $good --baseline 0
expect_fail 2 "baseline: 'x' is not a result number" $RAIDLAB compare $good --baseline=x
expect_fail 2 "metric: 'MB/s' is not mb_s, iops or lat" $RAIDLAB compare $good --metric MB/s
expect_fail 2 "html needs a value" $RAIDLAB compare $good --html
expect_fail 2 "unknown option '--baseline-column'" $RAIDLAB compare $good --baseline-column 1
expect_fail 2 "cannot both go to standard output" $RAIDLAB compare $good --csv - --html -

# outputs that cannot be written (exit 1), and '-' for standard output
expect_fail 1 "--csv $T/no/such/dir.csv: directory $T/no/such does not exist" $RAIDLAB compare $good --csv "$T/no/such/dir.csv"
if [ -w /dev/full ]; then
	expect_fail 1 "cannot write /dev/full: No space left on device" $RAIDLAB compare $good --html /dev/full
else
	defer_skip_env "no writable /dev/full: the full-device case"
fi
out=$($RAIDLAB compare $good cdm-raid0x2.json --csv -)
[ "$(head -n 1 <<<"$out" | cut -c1-13)" = "config,label," ] || fail "--csv - writes CSV to standard output"
grep -q 'configurations' <<<"$out" && fail "--csv -: the table must not be mixed into the CSV"
out=$($RAIDLAB help compare)
grep -q 'usage: raidlab compare' <<<"$out" || fail "help compare"
finish
