#!/usr/bin/env bash
# Test runner: every unit test program in BUILD/tests and every script in
# tests/integration, each under a timeout.  Exit code 0 = pass, 77 = skip,
# anything else = fail (liburing/automake convention).  Logs go to
# BUILD/test-logs/; the last line is "N passed, N failed, N skipped".
#
#   tests/run.sh BUILD [NAME-FILTER[,NAME-FILTER...]]
#
# A test runs when its name contains one of the filters (all when none).
# The timeout (RL_TEST_TIMEOUT seconds, default 900) catches a hang; it is
# not a speed limit: a busy machine may take several times a quiet one's time.
# A script that builds a whole package may ask for more with a header line
# "# test-timeout: SECONDS".
set -u
build=${1:-build}
filter=${2:-}
# wanted NAME: no filter, or NAME contains one of the comma-separated filters
wanted() {
	local f
	[ -z "$filter" ] && return 0
	IFS=, read -ra fs <<<"$filter"
	for f in "${fs[@]}"; do [[ $1 == *$f* ]] && return 0; done
	return 1
}
top=$(cd "$(dirname "$0")/.." && pwd)
logs="$top/$build/test-logs"
mkdir -p "$logs"
export RAIDLAB="$top/$build/raidlab"
export RAIDLAB_BUILD="$top/$build"
export RAIDLAB_TOP="$top"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0 fail=0 skip=0
failed=()
run_one() {
	local name=$1; shift
	local start end rc
	start=$(date +%s.%N)
	timeout --kill-after=10 "${limit:-${RL_TEST_TIMEOUT:-900}}" "$@" >"$logs/$name.log" 2>&1
	rc=$?
	# a cmocka test that skipped a case exits 0: it ran less than it checks
	if [ "$rc" -eq 0 ] && grep -q '^\[  SKIPPED \] [0-9]* test(s)' "$logs/$name.log"; then
		grep '^\[  SKIPPED \] [a-z]' "$logs/$name.log" | tail -n 1 >>"$logs/$name.log"
		rc=77
	fi
	end=$(date +%s.%N)
	local t; t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS  %-40s %6ss\n' "$name" "$t" ;;
	77) skip=$((skip + 1)); printf 'SKIP  %-40s %6ss  (%s)\n' "$name" "$t" "$(tail -n 1 "$logs/$name.log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); printf 'FAIL  %-40s %6ss  rc=%d\n' "$name" "$t" "$rc"
	   sed 's/^/      | /' "$logs/$name.log" | tail -n 30 ;;
	esac
}
for t in "$top/$build"/tests/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	wanted "$n" || continue
	run_one "$n" "$t"
done
for t in "$top"/tests/integration/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	[ "$n" = lib ] && continue
	# valgrind checks the plain build; a sanitizer build checks itself
	[[ $n == *_valgrind && $build == *-[at]san ]] && continue
	# the package test builds its own binary: once, with the plain build
	[[ $n == install_deb && $build == *-[at]san ]] && continue
	wanted "$n" || continue
	# a script may need longer: "# test-timeout: SECONDS" in its header
	limit=$(sed -n 's/^# test-timeout: *\([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	run_one "$n" bash "$t"
	limit=
done
echo "$pass $fail $skip" >"$top/$build/test-results.txt"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "$build: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
