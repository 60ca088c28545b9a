#!/usr/bin/env bash
# `raidlab compare` on the fixed results in tests/golden/*.json (written by
# hand after docs/results.md): the table, the CSV and the HTML report must
# equal tests/golden/expected/NAME.{txt,csv,html} byte for byte.
#
# After an intended change of the output, regenerate the expected files and
# review the difference before committing it:
#   RAIDLAB_UPDATE_GOLDEN=1 tests/run.sh build compare_golden
#   git diff tests/golden/expected
. "$(dirname "$0")/lib.sh"

G="$RAIDLAB_TOP/tests/golden"
E="$G/expected"
mkdir -p "$E"

# same NAME FILE...: compare FILE with the expected file (or replace it when updating)
same() {
	local name=$1 f
	shift
	for f in "$@"; do
		if [ -n "${RAIDLAB_UPDATE_GOLDEN:-}" ]; then
			cp "$f" "$E/$name.${f##*.}"
			continue
		fi
		[ -f "$E/$name.${f##*.}" ] || fail "no golden file $E/$name.${f##*.} (run with RAIDLAB_UPDATE_GOLDEN=1)"
		if ! diff -u "$E/$name.${f##*.}" "$f" >"$T/diff"; then
			head -n 60 "$T/diff"
			fail "$name.${f##*.} differs from tests/golden/expected (RAIDLAB_UPDATE_GOLDEN=1 regenerates)"
		fi
	done
}

# golden NAME ARGS...: all three renderings.  Runs inside tests/golden so the
# file names in the outputs are the relative ones.
golden() {
	local name=$1
	shift
	(cd "$G" && "$RAIDLAB" compare "$@" --csv "$T/$name.csv" --html "$T/$name.html") >"$T/$name.txt" ||
		fail "compare $* failed"
	same "$name" "$T/$name.txt" "$T/$name.csv" "$T/$name.html"
}

# golden_table NAME ARGS...: the terminal table only.
golden_table() {
	local name=$1
	shift
	(cd "$G" && "$RAIDLAB" compare "$@") >"$T/$name.txt" || fail "compare $* failed"
	same "$name" "$T/$name.txt"
}

# three CrystalDiskMark-like runs: cdm on one drive and on raid0 x2, cdm-nvme
# (partly different tests) on raid0 x3 with a label that needs escaping
golden cdm cdm-single.json cdm-raid0x2.json cdm-nvme-raid0x3.json
golden_table cdm-iops-baseline2 cdm-single.json cdm-raid0x2.json cdm-nvme-raid0x3.json \
	--metric iops --baseline 2
golden_table cdm-lat cdm-raid0x2.json cdm-single.json --metric=lat
# ATTO transfer-size sweeps, HD Tune curves, plain job results
golden atto atto-single.json atto-raid0x2.json
golden hdtune hdtune-single.json hdtune-raid0x2.json
# AS SSD: mean of passes, and its scores
golden asssd asssd-single.json asssd-raid0x2.json
golden jobs jobs-mem.json jobs-raid0.json --metric lat
# one result alone is a valid comparison (no % columns)
golden_table single cdm-single.json

[ -n "${RAIDLAB_UPDATE_GOLDEN:-}" ] && echo "golden files rewritten in $E"

# a few properties the goldens must keep, so a careless regeneration is caught
grep -q '^SEQ1M Q8T1 read  *3412.49  *6517.95 *+91.0%  *9210.27 *+169.9%$' "$E/cdm.txt" ||
	fail "cdm table: SEQ1M Q8T1 read row"
grep -q '^RND4K Q32T16 read  *-  *-  *2411.90  *-$' "$E/cdm.txt" ||
	fail "cdm table: a test only #3 has"
grep -q '^3,"raid0 x3 <nvme> & ""wide""",cdm-nvme-raid0x3.json,cdm-nvme,' "$E/cdm.csv" ||
	fail "CSV quoting of the label"
grep -q '"hot ""zipf"", 4k"' "$E/jobs.csv" || fail "CSV quoting of a job name"
[ "$(head -c 6 "$E/cdm.csv")" = config ] || fail "CSV header"
[ "$(grep -c $'\r$' "$E/cdm.csv")" = "$(wc -l <"$E/cdm.csv")" ] || fail "CSV lines end in CRLF"
grep -q 'raid0 x3 &lt;nvme&gt; &amp; &quot;wide&quot;' "$E/cdm.html" || fail "HTML escaping"
grep -q '<nvme>' "$E/cdm.html" && fail "an unescaped label in the HTML"
for n in cdm atto hdtune jobs; do
	[ "$(grep -c '<svg class="chart' "$E/$n.html")" -gt 0 ] || fail "$n.html has no chart"
done
grep -q '<svg class="chart lines"' "$E/atto.html" || fail "ATTO curve"
grep -q 'position (GB)' "$E/hdtune.html" || fail "HD Tune curve axis"
grep -q '^score total  *4265  *6480 *+51.9%$' "$E/asssd.txt" || fail "AS SSD score row"
grep -q '^note: the results come from different suites' "$E/cdm.txt" || fail "different suites noted"
# a long label is wrapped into lines, not cut
grep -q '<tspan x="[0-9.]*" dy="0">raid0(file(/mnt/scratch/a.img,</tspan><tspan x="[0-9.]*" dy="14">size=1g) x2, chunk=64k)</tspan>' \
	"$E/jobs.html" || fail "HTML: the long label is not wrapped"
grep -q 'a.img…' "$E/jobs.html" && fail "HTML: a label is still cut"
# access times in ms only, as AS SSD and HD Tune show them: no MB/s, IOPS or throughput bars
grep -q '^Acc.time read  *0.042 ms  *0.045 ms  *+7.3%$' "$E/asssd.txt" || fail "AS SSD Acc.time not in ms"
grep -q '^Access time read  *0.048 ms  *0.048 ms' "$E/hdtune.txt" || fail "HD Tune Access time not in ms"
grep -q '^1,single SSD,asssd-single.json,asssd,Acc.time,read,rand,512,1,1,,,.*,0.042,' "$E/asssd.csv" ||
	fail "CSV: Acc.time has MB/s or IOPS, or no access_time_ms"
grep -q '<td class="name">Acc.time</td><td>read</td><td class="n">0.042 ms</td>' "$E/asssd.html" ||
	fail "HTML: Acc.time not in ms"
grep -q '<title>Acc.time</title>' "$E/asssd.html" && fail "HTML: a throughput chart of the access time"

# a result of many jobs: compared without building their histograms (some 190 KB of tree per
# job before, over 300 MB for these 1,000), with the same figures
$RAIDLAB run --target 'mem(size=64m)' --rw=randread --runtime=300ms --time_based --quiet \
    --json one.json
[ "$(jq '.jobs[0].read.histogram.buckets | length' one.json)" -gt 50 ] || fail "no histogram to strip"
jq '.jobs[0] as $j | .jobs = [range(1000) as $i | $j | .name = "job\($i)"]' one.json >many.json
rss=$(python3 -c '
import resource, subprocess, sys
with open("many.txt", "w") as out:
    rc = subprocess.call(sys.argv[1:], stdout=out)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' $RAIDLAB compare many.json one.json)
[ "${rss% *}" = 0 ] || fail "compare of 1,000 jobs exited ${rss% *}"
[ "${rss#* }" -lt 150000 ] || fail "compare of 1,000 jobs used ${rss#* } KB at its peak"
[ "$(grep -c '^job[0-9][0-9]* ' many.txt)" = 1000 ] || fail "not every job is in the table"
# job999 (many.json, column 1) shows what the job shows in one.json (column 2)
a=$(awk '$1 == "job999" && $2 == "read" { print $3 }' many.txt)
b=$(awk '$1 == "job" && $2 == "read" { print $4 }' many.txt)
[ -n "$a" ] && [ "$a" = "$b" ] || { grep '^job999 \|^job ' many.txt; fail "figures differ: $a, $b"; }
echo ok
