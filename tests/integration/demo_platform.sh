#!/usr/bin/env bash
# raidlab demo --platform: a validated platform's story.  Every
# configuration of the set is shown with its suite and spec, and each
# published figure printed beside a simulated one is the one in the set's
# CSV (the article's table), read here from the CSV itself (scaled down:
# 1 pass of 0.2 s, so only the published column is checked exactly).
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles RAIDLAB_VALIDATION=$top/validation
set_json=$top/validation/perc-h730p.json
csv=$top/validation/$(jq -r .data "$set_json")

$RAIDLAB demo --platform perc-h730p --duration=0.2 --passes=1 --html rep.html >out.txt 2>err.txt ||
	{ cat err.txt; fail "demo --platform perc-h730p failed"; }
grep -q '^system: .*PERC H730P' out.txt || fail "the platform is not named"
grep -q '<svg class="chart"' rep.html || fail "the report has no chart"

# every configuration, with its suite and spec, in the set's order
jq -r '.configs[] | "\(.name): \(.suite) on \(.spec)"' "$set_json" >want-configs.txt
grep -E '^[^ ].*: [a-z0-9-]+ on ' out.txt >got-configs.txt
diff want-configs.txt got-configs.txt || fail "the configurations are not the set's"

# the printed published figures, as "config|test|dir|published"
awk '/^[^ ].*: [a-z0-9-]+ on / { sub(/: [a-z0-9-]+ on .*/, ""); cfg = $0; next }
	/^  / && NF >= 5 && $(NF) ~ /x$/ {
		test = $1; for (i = 2; i <= NF - 4; i++) test = test " " $i
		print cfg "|" test "|" $(NF - 3) "|" $(NF - 1) }' out.txt >printed.txt
[ "$(wc -l <printed.txt)" -eq "$(jq '[.configs[].cells[]] | length' "$set_json")" ] ||
	fail "not every published cell is printed ($(wc -l <printed.txt) lines)"
# the CSV's figure of each cell: row array,mode (the configuration's name), column from the set
n=0
while IFS='|' read -r cfg test dir pub; do
	col=$(jq -r --arg c "$cfg" --arg t "$test" --arg d "$dir" \
		'.configs[] | select(.name == $c) | .cells[] | select(.test == $t and .direction == $d) | .column' \
		"$set_json")
	[ -n "$col" ] || fail "$cfg $test $dir: printed, but no such cell in the set"
	want=$(awk -F, -v key="${cfg%%/*},${cfg#*/}" -v col="$col" '
		/^#/ { next } !hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
		$1 "," $2 == key { print $(c[col]) }' "$csv")
	[ -n "$want" ] || fail "$cfg $col: not in $csv"
	awk -v a="$pub" -v b="$want" 'BEGIN { exit !(a == b) }' ||
		fail "$cfg $test $dir: printed published $pub, the CSV says $want"
	n=$((n + 1))
done <printed.txt
echo "$n published figures printed as in $(basename "$csv")"

# bad input: an unknown platform, an option no suite of the platform takes
expect_fail 2 "no validated platform 'nosuch'" $RAIDLAB demo --platform nosuch
expect_fail 2 "no suite of platform perc-h730p takes --min-bs" $RAIDLAB demo --platform perc-h730p --min-bs=4k
expect_fail 2 "--drive and --out-dir do not apply" $RAIDLAB demo --platform perc-h730p --drive sx8200pro
echo ok
