#!/usr/bin/env bash
# `raidlab ctl fail` refuses the member that holds the last readable copy of
# some data (raid1's last in-sync member, any raid0 member, a second raid5
# failure, a third raid6 one), as mdadm --fail refuses the last member of a
# raid1: the export would fail every request there.  --force does it anyway.
. "$(dirname "$0")/lib.sh"

serve() { # serve SPEC: a server on s.sock with control socket c.sock
	rm -f s.sock c.sock ready
	"$RAIDLAB" serve "$1" --socket s.sock --ctl c.sock --no-status --ready-file ready \
		>serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 200); do [ -s ready ] && break; sleep 0.05; done
	[ -s ready ] || { cat serve.err; fail "server for $1 did not start"; }
}
stop() { "$RAIDLAB" ctl c.sock stop >/dev/null; wait "$SPID" || true; }

serve 'raid1(mem(size=16m), mem(size=16m))'
"$RAIDLAB" ctl c.sock fail 0 >out || fail "raid1: failing the first member"
expect_fail 1 "member 1 holds the last readable copy" "$RAIDLAB" ctl c.sock fail 1
"$RAIDLAB" ctl c.sock status | grep -q "degraded; members: 0 failed 1 in_sync" ||
	fail "raid1: the refused fail changed the array: $("$RAIDLAB" ctl c.sock status)"
"$RAIDLAB" ctl c.sock fail 1 --force >out || fail "raid1: --force"
"$RAIDLAB" ctl c.sock status | grep -q "failed; members: 0 failed 1 failed" ||
	fail "raid1: --force did not fail it: $("$RAIDLAB" ctl c.sock status)"
stop

serve 'raid0(mem(size=16m), mem(size=16m))'
expect_fail 1 "member 0 holds the last readable copy" "$RAIDLAB" ctl c.sock fail 0
stop

serve 'raid5(mem(size=16m), mem(size=16m), mem(size=16m))'
"$RAIDLAB" ctl c.sock fail 2 >out || fail "raid5: the first failure"
expect_fail 1 "member 0 holds the last readable copy" "$RAIDLAB" ctl c.sock fail 0
stop

serve 'raid6(mem(size=16m), mem(size=16m), mem(size=16m), mem(size=16m))'
"$RAIDLAB" ctl c.sock fail 0 >out && "$RAIDLAB" ctl c.sock fail 3 >out || fail "raid6: two failures"
expect_fail 1 "member 1 holds the last readable copy" "$RAIDLAB" ctl c.sock fail 1
stop
echo ok
