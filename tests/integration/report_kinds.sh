#!/usr/bin/env bash
# Every result kind is readable by the reports: `compare` reads advise's
# --json and a rebuild sweep's JSON (whose tests carry a rate but no IOPS
# or latency: shown as absent, not refused), and the rebuild sweep's HTML
# is written with its figures.
. "$(dirname "$0")/lib.sh"
need jq

# a rebuild sweep: JSON and HTML
"$RAIDLAB" sweep rebuild --target 'raid{1,5}(ssd(sm951) x{2,3}, failed=0)' --no-store \
	--json reb.json --html reb.html --quiet 2>reb.err || { cat reb.err; fail "sweep rebuild exited non-zero"; }
[ -s reb.html ] || { cat reb.err; fail "sweep rebuild --html wrote an empty file"; }
grep -q '</html>' reb.html || fail "the rebuild HTML is cut short"
for p in 0 1 2; do
	mb=$(jqv reb.json ".points[$p].result.tests[0].write.mb_s")
	shown=$(printf '%.2f' "$mb")
	grep -q "$shown" reb.html || fail "the rebuild HTML does not show point $p's $shown MB/s"
	est=$(awk -v s="$(jqv reb.json ".points[$p].result.tests[0].rebuild.estimate_s")" 'BEGIN { printf "%.1f min", s / 60 }')
	grep -q "$est" reb.html || fail "the rebuild HTML does not show point $p's estimated rebuild, $est"
done
"$RAIDLAB" compare reb.json >reb.txt 2>cmp.err || { cat cmp.err; fail "compare refused the rebuild sweep's JSON"; }
grep -q "^rebuild write  *$(printf '%.2f' "$(jqv reb.json '.points[0].result.tests[0].write.mb_s')")" reb.txt ||
	{ cat reb.txt; fail "compare does not show the rebuild's MB/s"; }
"$RAIDLAB" compare reb.json --metric iops >iops.txt 2>cmp.err || { cat cmp.err; fail "compare --metric iops refused the rebuild"; }
grep -q '^rebuild write  *-  *-' iops.txt || { cat iops.txt; fail "the rebuild's missing IOPS are not shown as absent"; }

# advise's JSON, its rows with a member failed included
printf '[w]\nrw=randwrite\nbs=4k\niodepth=4\nsize=16m\n' >small.fio
"$RAIDLAB" advise --drives 2xsm951 --workload small.fio --store st --json adv.json >adv.txt 2>adv.err ||
	{ cat adv.err; fail "advise exited non-zero"; }
"$RAIDLAB" compare adv.json >advcmp.txt 2>cmp.err || { cat cmp.err; fail "compare refused advise's JSON"; }
n=$(jqv adv.json '[.points[].label] | unique | length')
grep -q "#$n " advcmp.txt || { cat advcmp.txt; fail "compare does not show all $n configurations (labels) of advise"; }
grep -q '^w write ' advcmp.txt || { cat advcmp.txt; fail "compare does not show advise's workload"; }
echo "report_kinds: ok"
