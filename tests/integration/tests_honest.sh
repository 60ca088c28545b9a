#!/usr/bin/env bash
# No integration test passes without running a section: a section that
# cannot run says so (lib.sh's skip, skip_env, need, or have/defer_skip
# with finish), which exits 77, and under CI=true skip fails.  Looked for
# in every script here (lib.sh aside, which defines the helpers):
#   1. "exit 0" before the last line (outside a trap's quoted handler):
#      "command -v X || { echo ok; exit 0; }", "[ -e /proc/mdstat ] || exit 0"
#   2. an if/elif on a probe of the machine (command -v, a file under /proc,
#      /sys or /dev, id -u, mount) whose block, to its fi, never skips:
#      "if command -v X; then ... fi" passes without the section
#   3. have or defer_skip, but no finish at the end to report them.
# And the ASan build's list of tests it leaves out (tests/asan-skip.txt)
# names only tests that exist, each with its reason; and the check that
# holds a unit test to its "tsan-skip: single-threaded" line catches one
# that starts threads.
# The check first proves itself on crafted samples: each bad one is found,
# the good one passes.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

# scan FILE...: one line per problem, "FILE:LINE: what"
scan() {
	awk '
	FNR == 1 { flush(); file = FILENAME; n = 0 }
	{ line[++n] = $0 }
	END { flush() }
	function indent(s) { match(s, /^[ \t]*/); return substr(s, 1, RLENGTH) }
	function flush(   i, j, last, ind, ok, uses, fin) {
		if (!n)
			return
		last = n
		while (last > 0 && line[last] ~ /^[ \t]*(#.*)?$/)
			last--
		for (i = 1; i <= n; i++) {
			s = line[i]
			if (s ~ /^[ \t]*#/)
				continue
			if (s ~ /(^|[;{&|[:space:]])exit 0([;}[:space:]]|$)/ && s !~ /^[ \t]*trap / && i < last)
				printf "%s:%d: exit 0 before the end: a test that stops early passes unrun sections: %s\n", file, i, s
			if (s ~ /^[ \t]*(if|elif) / && s ~ /command -v|-[a-z] +"?\/(proc|sys|dev)\/|id -u|[[:space:]]mount /) {
				ind = indent(s)
				ok = 0
				for (j = i + 1; j <= n && line[j] != ind "fi"; j++)
					if (line[j] ~ /(^|[^a-z_])(skip|skip_env|need|defer_skip|defer_skip_env)([^a-z_]|$)/)
						ok = 1
				if (!ok)
					printf "%s:%d: a probe with no skip in its block: the section passes when it cannot run: %s\n", file, i, s
			}
			if (s ~ /(^[ \t]*|(if|elif|&&|\|\||;|!)[ \t]+)(have|defer_skip|defer_skip_env) /)
				uses = uses ? uses : i
		}
		fin = line[last] ~ /^[ \t]*finish([ \t]|$)/
		if (uses && !fin)
			printf "%s:%d: have/defer_skip without finish as the last line: sections not run are not reported\n", file, uses
		n = 0
	}' "$@"
}

# --- the samples: each bad one must be found ---
mkdir samples
cat >samples/bad_or_exit.sh <<'EOF'
need jq
command -v valgrind >/dev/null || { echo ok; exit 0; }
valgrind true
echo ok
EOF
cat >samples/bad_proc.sh <<'EOF'
[ -e /proc/mdstat ] || exit 0
mdadm --create x
echo ok
EOF
cat >samples/bad_if.sh <<'EOF'
if command -v fio >/dev/null; then
	fio --name=x
fi
echo ok
EOF
cat >samples/bad_if_proc.sh <<'EOF'
if [ -e /proc/mdstat ]; then
	mdadm --create x
else
	echo "note: no md"
fi
echo ok
EOF
cat >samples/bad_root.sh <<'EOF'
if [ "$(id -u)" = 0 ] && true; then
	losetup -f
fi
echo ok
EOF
cat >samples/bad_no_finish.sh <<'EOF'
if have qemu-img; then
	qemu-img info x
fi
echo ok
EOF
cat >samples/good.sh <<'EOF'
need jq
# comments may say exit 0
if have qemu-img; then
	qemu-img info x
fi
if [ -e /proc/mdstat ]; then
	mdadm --create x
else
	defer_skip_env "no md kernel module"
fi
if command -v zsh >/dev/null; then
	zsh -c true
else
	skip "zsh is not installed"
fi
trap 'echo "term"; exit 0' TERM
finish
EOF
for f in samples/bad_*.sh; do
	scan "$f" >found || true
	[ -s found ] || fail "the check does not find the silent pass in $(basename "$f"): $(cat "$f")"
done
scan samples/good.sh >found || true
[ ! -s found ] || fail "the check finds problems in a good sample: $(cat found)"

# --- the integration tests ---
files=()
for f in "$here"/*.sh; do
	case $(basename "$f") in lib.sh | tests_honest.sh) continue ;; esac
	files+=("$f")
done
[ ${#files[@]} -gt 10 ] || fail "only ${#files[@]} scripts in $here"
scan "${files[@]}" >found || true
[ ! -s found ] || { sed "s|$here/||" found >&2; fail "$(wc -l <found) silent pass(es) in the tests"; }
# --- the ASan build's list of tests it leaves out (tests/asan-skip.txt) ---
# skiplist FILE: one line per name that is no integration test here, or
# that comes without the reason ("NAME  # why")
skiplist() {
	local name rest
	while IFS= read -r line; do
		line=${line%%#*}
		read -r name rest <<<"${line}"
		[ -n "$name" ] || continue
		[ -f "$here/$name.sh" ] || echo "$1: '$name' is no test in tests/integration"
	done <"$1"
	awk '!/^[ \t]*(#|$)/ && !/#[ \t]*[^ \t]/ { print FILENAME ": no reason given: " $0 }' "$1"
}
printf 'files_sim  # why\nno_such_test  # why\n' >samples/skip_bad_name.txt
printf 'files_sim\n' >samples/skip_no_reason.txt
for f in samples/skip_*.txt; do
	[ -n "$(skiplist "$f")" ] || fail "the list check passes $(basename "$f"): $(cat "$f")"
done
list=${RAIDLAB_TOP:-$here/../..}/tests/asan-skip.txt
[ -f "$list" ] || fail "no $list"
skiplist "$list" >found
[ ! -s found ] || { cat found >&2; fail "tests/asan-skip.txt names tests wrongly"; }
# --- unit tests left out of ThreadSanitizer as single-threaded ---
# The claim is checked where they run (tests/unit/threads.c): a program
# that starts threads fails when told it claimed a single one, and one of
# the claimed ones passes so.  test_engine starts job threads; test_crc32c
# claims none.
ubuild=${RAIDLAB_BUILD:-$here/../../build}
claimed=$(grep -ls 'tsan-skip: single-threaded' "${RAIDLAB_TOP:-$here/../..}"/tests/unit/test_*.c | wc -l)
[ "$claimed" -gt 0 ] || fail "no unit test claims to be single-threaded: the check below proves nothing"
! grep -qs 'tsan-skip: single-threaded' "${RAIDLAB_TOP:-$here/../..}/tests/unit/test_engine.c" ||
	fail "test_engine, which starts threads, claims to be single-threaded"
rc=0
RL_UT_SINGLE_THREADED=1 "$ubuild/tests/test_engine" >engine.out 2>engine.err || rc=$?
[ "$rc" != 0 ] && grep -q 'says "tsan-skip: single-threaded" but started [1-9]' engine.err ||
	{ tail -3 engine.err; fail "a threaded unit test claiming one thread was not caught (exit $rc)"; }
RL_UT_SINGLE_THREADED=1 "$ubuild/tests/test_crc32c" >crc.out 2>crc.err ||
	{ tail -3 crc.err; fail "test_crc32c fails its single-thread claim"; }
echo "ok: ${#files[@]} scripts, $(grep -cv '^[[:space:]]*\(#\|$\)' "$list") left out of the ASan build, each with its reason"
