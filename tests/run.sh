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
#
# Side by side: tests do not depend on each other (each works in its own
# temporary directory, on ports it asks the kernel for), so RL_TEST_JOBS of
# them run at once (default: twice the processors, since most of a test's
# time is spent waiting on its children, sleeps and peers; 1 = one after
# the other).  A test that must have the machine to itself -- it follows a
# simulated clock in real time, or counts something machine-wide -- says
# so with a header line "# test-alone: REASON" (a unit test: a comment line
# "test-alone: REASON" in its tests/unit source); those run one after the
# other once the rest are done.  The longest tests of the last run
# (BUILD/test-times.txt; before any, tests/test-times.txt) start first, so
# the slow ones do not end up alone at the end; the PASS, FAIL and SKIP
# lines come in the same order whatever the finishing order is.  Each
# line gives the wall time and the CPU time (user + system, the test's
# children included) in seconds.
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
jobs=${RL_TEST_JOBS:-$((2 * $(nproc 2>/dev/null || echo 1)))}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "RL_TEST_JOBS: expected a whole number >= 1, not '$jobs'" >&2; exit 2; }
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o)

# The tests, in the order their lines are printed.
asan_skip=()
read -d '' -ra asan_skip < <(sed 's/#.*//' "$top/tests/asan-skip.txt")
# RL_TEST_SET=asan-left (make check's plain stage): only what the ASan+UBSan
# build does not run -- the long timing runs of tests/asan-skip.txt, the
# valgrind tests and the package test -- since every other test runs there
set=${RL_TEST_SET:-all}
case $set in all | asan-left) ;; *) echo "RL_TEST_SET: 'all' or 'asan-left', not '$set'" >&2; exit 2 ;; esac
# plain_only NAME: valgrind checks the plain build (a sanitizer build checks
# itself), and the package test builds its own binary: once, with the plain build
plain_only() { [[ $1 == *_valgrind || $1 == install_deb ]]; }
# asan_left NAME: what the ASan+UBSan build leaves out: those, and the long
# timing runs of tests/asan-skip.txt (which says why)
asan_left() { plain_only "$1" || [[ " ${asan_skip[*]} " == *" $1 "* ]]; }
names=() cmds=() limits=() alone=()
add() { # NAME LIMIT ALONE CMD...
	names+=("$1") limits+=("$2") alone+=("$3")
	local q; printf -v q '%q ' "${@:4}"
	cmds+=("$q")
}
for t in "$top/$build"/tests/test_*; do
	[ -x "$t" ] || continue
	[[ $t == *.d ]] && continue
	n=$(basename "$t")
	wanted "$n" || continue
	[ "$set" = asan-left ] && ! asan_left "$n" && continue
	a=$(grep -s -m1 -o 'test-alone: .*' "$top/tests/unit/$n.c")
	# a test with no thread of its own gives ThreadSanitizer nothing to
	# find: left out there, and held to its claim elsewhere (tests/unit/threads.c)
	if grep -qs 'tsan-skip: single-threaded' "$top/tests/unit/$n.c"; then
		[[ $build == *-tsan ]] && continue
		add "$n" "" "${a:+1}" env RL_UT_SINGLE_THREADED=1 "$t"
	else
		add "$n" "" "${a:+1}" "$t"
	fi
done
for t in "$top"/tests/integration/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	[ "$n" = lib ] && continue
	[[ $build == *-tsan ]] && plain_only "$n" && continue
	[[ $build == *-asan ]] && asan_left "$n" && continue
	wanted "$n" || continue
	[ "$set" = asan-left ] && ! asan_left "$n" && continue
	# a script may need longer: "# test-timeout: SECONDS" in its header
	limit=$(sed -n 's/^# test-timeout: *\([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	a=$(sed -n 's/^# test-alone: *\(.*\)$/\1/p' "$t" | head -n 1)
	add "$n" "$limit" "${a:+1}" bash "$t"
done
count=${#names[@]}

# Start order: longest first by the last run's wall times (unknown: first);
# a build folder with no run yet takes the times tests/test-times.txt gives
# for its kind of build
declare -A last=()
if [ -r "$top/$build/test-times.txt" ]; then
	while read -r n s; do last[$n]=$s; done <"$top/$build/test-times.txt"
elif [ -r "$top/tests/test-times.txt" ]; then
	col=2
	[[ $build == *-asan ]] && col=3
	[[ $build == *-tsan ]] && col=4
	while read -r n s; do
		[ "$s" = - ] || last[$n]=$s
	done < <(awk -v c="$col" '!/^#/ && NF >= 4 { print $1, $c }' "$top/tests/test-times.txt")
fi
order=()
while read -r _ i; do order+=("$i"); done < <(
	for ((i = 0; i < count; i++)); do echo "${last[${names[i]}]:-100000} $i"; done | sort -k1,1gr -k2,2n)

# Each test's temporary files go under a folder of its own (TMPDIR), so that
# what a test killed by its timeout leaves -- a server still running in its
# folder, a file suite's loop device and mount -- can be found and removed
# (sweep_tmp) before the next test, as the test's own exit trap would have.
tmpbase=$(mktemp -d "${TMPDIR:-/var/tmp}/raidlab-run.XXXXXX")
# sweep_tmp DIR: stop the processes working in DIR, undo raidlab's mounts
# and loop devices there (raidlab cleanup), remove DIR.
sweep_tmp() {
	local d=$1 p c t
	[ -d "$d" ] || return 0
	for p in /proc/[0-9]*; do
		c=$(readlink "$p/cwd" 2>/dev/null) || continue
		[[ $c == "$d"/* ]] && kill -KILL "${p#/proc/}" 2>/dev/null
	done
	for t in "$d"/*/; do
		compgen -G "$t/raidlab-fs.*" >/dev/null && TMPDIR=${t%/} "$RAIDLAB" cleanup >/dev/null 2>&1
	done
	rm -rf "$d" 2>/dev/null || true
}
trap 'sweep_tmp "$tmpbase"' EXIT
# run_one I: runs test I, writes its log and "RC WALL CPU" to its .res file.
run_one() {
	local i=$1 name=${names[$1]} start end rc cpu=""
	local lim=${limits[i]:-${RL_TEST_TIMEOUT:-900}}
	eval "local -a cmd=(${cmds[i]})"
	rm -f "$logs/$name.res" "$logs/$name.cpu"
	mkdir -p "$tmpbase/$i"
	start=$(date +%s.%N)
	if ((${#timer[@]})); then
		TMPDIR=$tmpbase/$i "${timer[@]}" "$logs/$name.cpu" timeout --kill-after=10 "$lim" "${cmd[@]}"
	else
		TMPDIR=$tmpbase/$i timeout --kill-after=10 "$lim" "${cmd[@]}"
	fi </dev/null >"$logs/$name.log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	sweep_tmp "$tmpbase/$i"
	# /usr/bin/time says "Command exited with non-zero status N" first
	[ -s "$logs/$name.cpu" ] && cpu=$(tail -n 1 "$logs/$name.cpu" | awk '{ printf "%.1f", $1 + $2 }')
	# a cmocka test that skipped a case exits 0: it ran less than it checks
	if [ "$rc" -eq 0 ] && grep -q '^\[  SKIPPED \] [0-9]* test(s)' "$logs/$name.log"; then
		grep '^\[  SKIPPED \] [a-z]' "$logs/$name.log" | tail -n 1 >>"$logs/$name.log"
		rc=77
	fi
	awk -v r="$rc" -v a="$start" -v b="$end" -v c="${cpu:--}" \
		'BEGIN { printf "%d %.1f %s\n", r, b - a, c }' >"$logs/$name.res.tmp"
	mv "$logs/$name.res.tmp" "$logs/$name.res"
}

pass=0 fail=0 skip=0
failed=()
shown=0
# show: print the finished tests at the head of the list, in list order
show() {
	local name rc t c
	while ((shown < count)) && [ -s "$logs/${names[shown]}.res" ]; do
		name=${names[shown]}
		read -r rc t c <"$logs/$name.res"
		case $rc in
		0) pass=$((pass + 1)); printf 'PASS  %-40s %6ss %6ss cpu\n' "$name" "$t" "$c" ;;
		77) skip=$((skip + 1)); printf 'SKIP  %-40s %6ss %6ss cpu  (%s)\n' "$name" "$t" "$c" "$(tail -n 1 "$logs/$name.log")" ;;
		*) fail=$((fail + 1)); failed+=("$name"); printf 'FAIL  %-40s %6ss %6ss cpu  rc=%d\n' "$name" "$t" "$c" "$rc"
		   sed 's/^/      | /' "$logs/$name.log" | tail -n 30 ;;
		esac
		shown=$((shown + 1))
	done
}
for ((i = 0; i < count; i++)); do rm -f "$logs/${names[i]}.res"; done
# Ctrl-C or TERM: each test's timeout passes the signal on to the test's
# process group (timeout puts the test in one of its own), then exit.
stop_tests() {
	local p
	for p in "$@"; do
		if [ "$(ps -o comm= -p "$p")" = timeout ]; then
			kill -TERM "$p" 2>/dev/null
		else
			stop_tests $(pgrep -P "$p")
		fi
	done
}
trap 'trap - INT TERM; stop_tests $(jobs -p); wait; exit 130' INT TERM
# reap: wait for one test to end, print what can be printed
reap() {
	wait -n
	running=$(jobs -pr | wc -l)
	show
}
# the others side by side, then the alone ones one after the other
running=0
for i in "${order[@]}"; do
	[ -z "${alone[i]}" ] || continue
	while ((running >= jobs)); do reap; done
	run_one "$i" &
	running=$((running + 1))
done
while ((running > 0)); do reap; done
for i in "${order[@]}"; do
	[ -n "${alone[i]}" ] || continue
	run_one "$i" &
	running=1
	reap
done
show

# this run's wall times, for the next run's start order (a filtered run adds to them)
for ((i = 0; i < count; i++)); do
	read -r _ t _ <"$logs/${names[i]}.res" && last[${names[i]}]=$t
done
for n in "${!last[@]}"; do echo "$n ${last[$n]}"; done | sort >"$top/$build/test-times.txt"
echo "$pass $fail $skip" >"$top/$build/test-results.txt"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "$build: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
