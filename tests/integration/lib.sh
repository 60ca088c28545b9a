# Shared helpers for integration tests (sourced).  Each test runs in its own
# temporary directory, removed on exit; $RAIDLAB is the binary under test.
set -euo pipefail
: "${RAIDLAB:?run through tests/run.sh, or set RAIDLAB to the raidlab binary}"
# The folder of the tests (they run from a temporary one), and the Python
# helpers beside them (nbdraw.py: raw NBD for the serve tests).
INTEG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PYTHONPATH="$INTEG_DIR${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
T=$(mktemp -d "${TMPDIR:-/var/tmp}/raidlab-test.XXXXXX")
cleanup_hooks=()
on_exit() {
	local h
	for h in "${cleanup_hooks[@]}"; do eval "$h" || true; done
	# no background helper (a server, a client) outlives its test
	pkill -KILL -P $$ 2>/dev/null || true
	wait 2>/dev/null || true # reap them, so cleanup below sees them gone
	# a file suite killed with its test (a timeout) leaves mounts and loop
	# devices in its runtime directory: raidlab's own cleanup removes them
	if compgen -G "$T/raidlab-fs.*" >/dev/null; then
		TMPDIR=$T "$RAIDLAB" cleanup >/dev/null 2>&1 || true
	fi
	rm -rf "$T"
}
trap on_exit EXIT
cd "$T"

fail() { echo "FAIL: $*" >&2; exit 1; }
# skip REASON: something this project's scripts provide is missing (a peer
# program, a package).  scripts/install-deps.sh installs every one, so in CI
# (CI=true) such a skip is a failure: CI must run every section.
skip() {
	[ "${CI:-}" = true ] && fail "CI has every package installed, but: $* (scripts/install-deps.sh)"
	echo "SKIP: $*"
	exit 77
}
# skip_env REASON: the machine itself cannot run the section, and no
# package can change that (not root, no /dev/fuse, no loop devices).
skip_env() { echo "SKIP: $*"; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }
# A test with sections that need different things runs every section it
# can and ends with `finish`: then a section that could not run makes the
# whole test report skipped, naming it, after the rest has passed.  Never
# "if command -v X; then ... fi" alone: that passes without the section
# (tests_honest.sh looks for it).
#   if have PROG; then ...; fi   PROG missing: noted as with skip (a package)
#   defer_skip REASON            a section not run for want of a package
#   defer_skip_env REASON        ... for what no package provides (see skip_env)
#   finish [MESSAGE]             MESSAGE (default ok), or skip / skip_env
not_run=() not_run_env=()
have() { command -v "$1" >/dev/null 2>&1 || { defer_skip "$1 is not installed"; return 1; }; }
defer_skip() {
	local r
	for r in "${not_run[@]}"; do [ "$r" != "$*" ] || return 0; done
	not_run+=("$*")
}
defer_skip_env() { not_run_env+=("$*"); }
finish() {
	local all=("${not_run[@]}" "${not_run_env[@]}")
	local IFS=';'
	[ ${#not_run[@]} -eq 0 ] || skip "the rest passed; not run: ${all[*]}"
	[ ${#not_run_env[@]} -eq 0 ] || skip_env "the rest passed; not run: ${all[*]}"
	echo "${1:-ok}"
}
# need_mount_chain: what serve + nbdfuse + loop + mkfs.ext4 + mount takes (root, FUSE, loop devices).
need_mount_chain() {
	need nbdfuse
	need fusermount3
	need losetup
	need mkfs.ext4
	[ -c /dev/fuse ] || skip_env "no /dev/fuse"
	[ "$(id -u)" = 0 ] || skip_env "needs root for loop devices and mount"
	[ -e /dev/loop-control ] || skip_env "no loop devices"
}

# expect_fail CODE PATTERN CMD...: CMD must exit with CODE and print PATTERN on stderr.
expect_fail() {
	local code=$1 pat=$2; shift 2
	local rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$code" ] || { cat "$T/err"; fail "'$*' exited $rc, expected $code"; }
	grep -q -- "$pat" "$T/err" || { cat "$T/err"; fail "'$*': no '$pat' in its error output"; }
}

# free_port: a port nothing uses on 127.0.0.1, for TCP and UDP alike (never
# a fixed one: tests run in parallel)
free_port() {
	python3 -c '
import socket
while True:
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.bind(("127.0.0.1", 0))
    port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", port))
    except OSError:
        continue
    print(port)
    break'
}

# jqv FILE EXPR: one value from a JSON file.
jqv() { jq -r "$2" "$1"; }

# need_mpi: mpirun and a raidlab built with MPI; sets mpi=(timeout ... mpirun
# FLAGS) for ranks on this host (oversubscribed, as root, surviving a dead
# rank), bounded so that a job that never ends (a rank that hangs in
# MPI_Finalize) fails its test instead of holding CI (RAIDLAB_MPI_LIMIT
# seconds, default 600; mpirun is the child of timeout).  Open
# MPI's runtime keeps allocations until exit in plugins it has unloaded,
# which LeakSanitizer can neither name nor suppress: no leak check under
# mpirun (the same code paths are leak-checked in single-process tests).
need_mpi() {
	need mpirun
	$RAIDLAB version | grep -q '^mpi: Open MPI' ||
		skip "raidlab was built without MPI (libopenmpi-dev): $($RAIDLAB version | tail -1)"
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
	mpi=(timeout -k 10 "${RAIDLAB_MPI_LIMIT:-600}" mpirun --oversubscribe --allow-run-as-root
		--enable-recovery)
}
# bound tcp|udp PORT: something listens on (tcp) or is bound to (udp) PORT
bound() {
	local hex
	hex=$(printf '%04X' "$2")
	if [ "$1" = tcp ]; then
		awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
			/proc/net/tcp /proc/net/tcp6
	else
		awk -v p=":$hex" 'substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
			/proc/net/udp /proc/net/udp6
	fi
}

# vg CMD...: CMD under valgrind; a leak or a memory error fails the test,
# CMD's own exit status is returned
vg() {
	local rc=0
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$@" \
		>/dev/null 2>"$T/vg.err" || rc=$?
	[ "$rc" -ne 99 ] || { cat "$T/vg.err"; fail "valgrind found problems in: $*"; }
	return "$rc"
}
