#!/usr/bin/env bash
# raidlab sweep: alternatives in a spec become points; invalid combinations
# are skipped with their reason; an interrupted sweep keeps what finished
# and the next run measures only the rest; an extended sweep measures only
# the new points; the JSON and CSV hold every point with its axes;
# raidlab compare reads the JSON; the HTML report has the heatmap, the
# series along a numeric axis (one line per member count along chunk size)
# and the trade-off chart.  Simulated stacks with small suite sizes.
. "$(dirname "$0")/lib.sh"
need jq

small=(--size 4m --passes 1 --duration 50ms)

# malformed alternatives: a usage error naming the position
expect_fail 2 "position 4: '{' is not closed" $RAIDLAB sweep cdm5 --target 'raid{0,10(ssd(850evo) x2)'
expect_fail 2 "empty alternative" $RAIDLAB sweep cdm5 --target 'raid{0,}(ssd(850evo) x2)'
expect_fail 2 "not a suite" $RAIDLAB sweep nosuch --target 'ssd(850evo)'
expect_fail 2 "unknown option '--bogus'" $RAIDLAB sweep cdm5 --bogus=1 --target 'ssd(850evo)'

# invalid combinations are skipped with the reason, the rest run
spec='raid{0,10,5}(ssd(850evo) x{2,3}, chunk=64k)'
$RAIDLAB sweep cdm5 --store st --target "$spec" "${small[@]}" -j 2 --json v.json --csv v.csv \
	>out 2>err || { cat err; fail "sweep with invalid combinations"; }
grep -q 'skipped raid5(ssd(850evo) x2, chunk=64k): .*raid5 needs at least 3 members' err ||
	fail "raid5 of 2 not skipped with its reason"
[ "$(jq '.points | length' v.json)" -eq 5 ] || fail "expected 5 points, got $(jq '.points | length' v.json)"
[ "$(jq '.skipped | length' v.json)" -eq 1 ] || fail "expected 1 skipped point"
jq -e '.axes == ["level", "count"]' v.json >/dev/null || fail "axes: $(jq -c .axes v.json)"
jq -e '[.points[] | select(.axes.level == "raid10" and .axes.count == "3")] | length == 1' v.json \
	>/dev/null || fail "the raid10 x3 point lacks its axes"
# capacity and failures survived come from the stack itself
jq -e '[.points[] | select(.axes.level == "raid0")][0].failures_survived == 0' v.json >/dev/null ||
	fail "raid0 survives no failure"
jq -e '[.points[] | select(.axes.level == "raid5")][0].failures_survived == 1' v.json >/dev/null ||
	fail "raid5 survives one failure"
jq -e '([.points[] | select(.label == "raid0 x2")][0].capacity_bytes) ==
	2 * ([.points[] | select(.label == "raid10 x2")][0].capacity_bytes)' v.json >/dev/null ||
	fail "raid0 x2 should hold twice what raid10 x2 holds"
# CSV: a header, then one row per point x test x direction
rows=$(jq '[.points[].result.tests[] | (.read, .write) | select(. != null)] | length' v.json)
[ "$(($(wc -l <v.csv) - 1))" -eq "$rows" ] || fail "CSV rows: $(wc -l <v.csv), expected $rows + 1"
head -1 v.csv | grep -q '^level,count,label,spec,workload,capacity_bytes,failures_survived,test' ||
	fail "CSV header: $(head -1 v.csv)"

# interrupt: Ctrl-C (SIGINT to the process group) after two points are stored
total=8
spec8='raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k})'
setsid $RAIDLAB sweep cdm5 --store int --target "$spec8" --size 16m --passes 1 --duration 300ms \
	-j 1 >int.out 2>int.err &
pid=$!
for _ in $(seq 600); do
	[ "$(find int -name '*.json' 2>/dev/null | wc -l)" -ge 2 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
kill -INT -- -$pid 2>/dev/null || true
rc=0
wait $pid || rc=$?
have=$(find int -name '*.json' | wc -l)
if [ "$have" -lt "$total" ]; then
	[ "$rc" -eq 1 ] || { cat int.err; fail "an interrupted sweep exited $rc"; }
	grep -q 'interrupted' int.err || fail "no word of the interruption"
	# resume: only the missing points run
	$RAIDLAB sweep cdm5 --store int --target "$spec8" --size 16m --passes 1 --duration 300ms \
		-j 2 --json r.json >/dev/null 2>r.err || { cat r.err; fail "resumed sweep"; }
	grep -q "$total points (0 configurations skipped as invalid), $have in the store, $((total - have)) to run" r.err ||
		{ cat r.err; fail "the resumed sweep does not run just the $((total - have)) missing"; }
	[ "$(grep -c '^sweep: [0-9]*/' r.err)" -eq $((total - have)) ] || fail "progress lines"
	[ "$(jq '[.points[] | select(.stored)] | length' r.json)" -eq "$have" ] || fail "stored points"
else
	echo "note: the sweep finished before the interrupt; resume checked without it"
fi
[ "$(find int -name '*.json' | wc -l)" -eq "$total" ] || fail "the store lacks points"
grep -q 'ETA' int.err || fail "no ETA in the progress"

# extended: one more chunk size runs only its 4 new points; the rest come from the store
$RAIDLAB sweep cdm5 --store int --target 'raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k,1m})' \
	--size 16m --passes 1 --duration 300ms -j 2 --json e.json >/dev/null 2>e.err ||
	{ cat e.err; fail "extended sweep"; }
grep -q "12 points (0 configurations skipped as invalid), 8 in the store, 4 to run" e.err ||
	{ cat e.err; fail "the extended sweep reran stored points"; }
# another suite option is another key: nothing is taken from the store
$RAIDLAB sweep cdm5 --store int --target "$spec8" --size 16m --passes 1 --duration 200ms -j 2 \
	>/dev/null 2>o.err || fail "sweep with other options"
grep -q "0 in the store, 8 to run" o.err || fail "a different --duration reused results"

# compare reads the sweep: one column per point
$RAIDLAB compare e.json --csv cmp.csv >cmp.out || fail "compare of a sweep"
[ "$(grep -c '^  #[0-9]' cmp.out)" -eq 12 ] || fail "compare shows $(grep -c '^  #[0-9]' cmp.out) columns"

# chunk sizes x member counts over raid0: lines along chunk size, one per count
$RAIDLAB sweep cdm5 --store st --target 'raid0(ssd(850evo) x{2,3,4}, chunk={16k,64k,256k,1m})' \
	"${small[@]}" -j 2 --quiet --json c.json --html c.html || fail "chunk sweep"
[ "$(jq '.points | length' c.json)" -eq 12 ] || fail "chunk sweep: 12 points"
grep -q '<h3>Along chunk</h3>' c.html || fail "no series along chunk size"
grep -q '<h3>Along count</h3>' c.html || fail "no series along the member count"
# the first chart along chunk: 3 lines (counts 2, 3, 4), each through 4 chunk sizes
chart=$(awk '/<h3>Along chunk<\/h3>/{on=1} on&&/<svg class="chart lines"/{n++} n==1{print} n==1&&/<\/svg>/{exit}' c.html)
[ "$(grep -c '<polyline class="line"' <<<"$chart")" -eq 3 ] ||
	fail "the chunk chart has $(grep -c '<polyline class="line"' <<<"$chart") lines, expected 3"
grep -q 'count=2 cdm5' <<<"$chart" && grep -q 'count=4 cdm5' <<<"$chart" || fail "series names"
grep -q '<svg class="chart heatmap"' c.html || fail "no heatmap"
[ "$(grep -c '<rect class="cell"' c.html)" -eq $((12 * 8)) ] || fail "heatmap cells"
grep -q '<svg class="chart tradeoff"' c.html || fail "no trade-off chart"
[ "$(grep -c '<circle class="point"' c.html)" -eq 12 ] || fail "trade-off points"
# compare --html of the sweep draws the same sections
$RAIDLAB compare c.json --html cc.html >/dev/null || fail "compare --html of a sweep"
grep -q '<svg class="chart heatmap"' cc.html && grep -q '<svg class="chart tradeoff"' cc.html ||
	fail "compare's report of a sweep lacks the sweep charts"
echo ok
