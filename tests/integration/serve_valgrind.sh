#!/usr/bin/env bash
# No leaks and no memory errors under valgrind on the serve and ctl paths:
# a session with a client, named exports, --json, a live fail and rebuild
# through the control socket, a graceful stop; and the error exits.
. "$(dirname "$0")/lib.sh"
need valgrind
need nbdcopy
case "$RAIDLAB_BUILD" in *asan*) skip_env "valgrind does not run ASan binaries (the ASan build checks leaks itself)" ;; esac

VG=(valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible
	--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99)
vg() {
	local rc=0
	"${VG[@]}" "$@" >/dev/null 2>"$T/vg.err" || rc=$?
	[ "$rc" -ne 99 ] || { cat "$T/vg.err"; fail "valgrind found problems in: $*"; }
	return "$rc"
}

"${VG[@]}" "$RAIDLAB" serve --export m='raid1(mem(size=4m), mem(size=4m))' \
	--export n='mem(size=1m)' --socket s.sock --ctl c.sock --no-status --json s.json \
	--ready-file ready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
for _ in $(seq 200); do [ -s ready ] && break; sleep 0.05; done
[ -s ready ] || { cat serve.err; fail "server did not start under valgrind"; }
head -c 4M /dev/urandom >in.bin
nbdcopy in.bin 'nbd+unix:///m?socket=s.sock' || fail "nbdcopy under valgrind"
vg "$RAIDLAB" ctl c.sock fail 1 --export m
vg "$RAIDLAB" ctl c.sock rebuild 1 --export m --wait
vg "$RAIDLAB" ctl c.sock status
nbdcopy 'nbd+unix:///m?socket=s.sock' out.bin
cmp in.bin out.bin || fail "data differs"
vg "$RAIDLAB" ctl c.sock stop
rc=0; wait $SPID || rc=$?
[ $rc -ne 99 ] || { cat serve.err; fail "valgrind found problems in serve"; }
[ $rc -eq 0 ] || { cat serve.err; fail "serve exited $rc"; }
[ "$(jq '.jobs | length' s.json)" = 2 ] || fail "--json: one job per export expected"

# error exits
vg "$RAIDLAB" serve 'raid0(mem x2' --socket x.sock || true
vg "$RAIDLAB" serve 'null()' --socket x.sock || true
vg "$RAIDLAB" serve --export a='mem()' --export a='mem()' --socket x.sock || true
vg "$RAIDLAB" serve 'mem()' --socket /nonexistent/dir/x.sock || true
vg "$RAIDLAB" ctl c.sock status || true
vg "$RAIDLAB" ctl || true
echo ok
