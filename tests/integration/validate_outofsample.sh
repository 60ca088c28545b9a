#!/usr/bin/env bash
# The out-of-sample sets: published measurements that no parameter of any
# profile was set from (validation/README.md, "Out-of-sample sets").  Each
# is found by validate --list, carries no "fit" anywhere (so every cell
# and finding is out-of-sample), replays with its figures in the JSON and
# holds the agreement its thresholds record; a change to the model that
# moves one of them past its threshold fails here.  Every cell is then
# replayed apart with `raidlab run` on the configuration's own suite,
# parameters and target, and must give the figure validate reported: the
# set runs what it says it runs.
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles RAIDLAB_VALIDATION=$top/validation

# set name, then each cell's published figure in the set's order (from its
# source, validation/NAME.csv): a set dropped, renamed or re-transcribed fails
declare -A published=(
	[pm9a3-md-raid0-fio]="57.2"
	[pm1733-md-raid0-fio]="55.1"
	[pm9a3-md-raid1-fio]="1669 556 2303 768"
)
sets=(pm9a3-md-raid0-fio pm1733-md-raid0-fio pm9a3-md-raid1-fio)
for s in "${sets[@]}"; do
	$RAIDLAB validate --list | grep -qx "$s" || fail "validate --list does not find $s"
	jq -e '[.. | objects | select(has("fit"))] | length == 0' "$top/validation/$s.json" >/dev/null ||
		fail "$s: a cell or finding carries \"fit\"; an out-of-sample set has none"
	got=$(jq -r '[.configs[].cells[].published | tostring] | join(" ")' "$top/validation/$s.json")
	[ "$got" = "${published[$s]}" ] || fail "$s: published figures '$got', expected '${published[$s]}'"
done

rc=0
$RAIDLAB validate "${sets[@]}" -j 2 --json v.json >out.txt 2>err.txt || rc=$?
cat out.txt
[ "$rc" -eq 0 ] || { cat err.txt; fail "validate of the out-of-sample sets exited $rc"; }
jq -e 'all(.sets[]; .summary.pass and .summary.in_sample.cells == 0
	and .summary.out_of_sample.cells == .summary.cells)' v.json >/dev/null ||
	fail "an out-of-sample set fails or reports in-sample cells"
[ "$(jq '.sets | length' v.json)" -eq "${#sets[@]}" ] || fail "validate did not replay every set"

# each configuration again through raidlab run: same suite, parameters and
# target, the same figure for every cell
for s in "${sets[@]}"; do
	n=$(jq --arg s "$s" '.sets[] | select(.name == $s) | .configs | length' v.json)
	# every cell within the set's own guard: 10 % where it enforces that,
	# otherwise within 4x (the agreement reached; validation/README.md)
	if jq -e '.thresholds.max_error' "$top/validation/$s.json" >/dev/null; then
		lo=0.9 hi=1.1
	else
		lo=0.25 hi=4
	fi
	for ((i = 0; i < n; i++)); do
		cfg=$(jq -c --argjson i "$i" '.configs[$i]' "$top/validation/$s.json")
		suite=$(jq -r '.suite' <<<"$cfg")
		spec=$(jq -r '.spec' <<<"$cfg")
		mapfile -t args < <(jq -r '(.params // {}) | to_entries[] | "--\(.key)=\(.value)"' <<<"$cfg")
		$RAIDLAB run "$suite" --target "$spec" "${args[@]}" --json "r$i.json" --quiet >/dev/null ||
			fail "$s: raidlab run $suite --target $spec ${args[*]} failed"
		while IFS=$'\t' read -r test dir sim pub; do
			got=$(jq -r --arg t "$test" --arg d "$dir" '.tests[] | select(.name == $t) | .[$d].mb_s' "r$i.json")
			[ "$got" = "$sim" ] || fail "$s: raidlab run gives $got MB/s for $test $dir, validate said $sim"
			awk -v s="$sim" -v p="$pub" -v lo="$lo" -v hi="$hi" 'BEGIN { r = s / p; exit !(r > lo && r < hi) }' ||
				fail "$s: $test $dir simulated $sim MB/s, not within x$lo..x$hi of the published $pub"
			echo "$s: $test $dir: $sim MB/s against $pub published"
		done < <(jq -r --arg s "$s" --argjson i "$i" '.sets[] | select(.name == $s) | .configs[$i].cells[]
			| [.test, .direction, (.simulated | tostring), (.published | tostring)] | @tsv' v.json)
	done
done
echo "validate out-of-sample: ok (${sets[*]})"
