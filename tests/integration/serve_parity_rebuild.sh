#!/usr/bin/env bash
# Online rebuild of parity arrays: raidlab serve a raid5 (md superblocks,
# made by raidlab create) and a raid6 of file members, fill them through
# NBD, and run a verifying client (nbdshadow.py: random writes, every read
# checked against every acknowledged write) while `raidlab ctl` fails
# members (raid5: one, raid6: two) and rebuilds them one after the other.
# The client must see no error and no wrong byte, and must have verified
# reads during each rebuild.  After the server stops: `raidlab check` finds
# every stripe's parity consistent, mdadm --examine shows the rebuilt md
# member active, and the export read back with other members failed (so
# the rebuilt ones are read and used for reconstruction) holds exactly
# what the client's acknowledged writes say it holds.
H="$(cd "$(dirname "$0")" && pwd)/nbdshadow.py" # lib.sh moves to the test's folder
. "$(dirname "$0")/lib.sh"
need nbdcopy
need nbdinfo
need python3
need mdadm
U='nbd+unix:///?socket=s.sock'

serve_start() { # SPEC
	rm -f ready s.sock c.sock
	"$RAIDLAB" serve --no-status --ready-file ready --socket s.sock --ctl c.sock "$1" \
		>serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 100); do [ -s ready ] && return 0; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
	cat serve.err
	fail "server did not start: $1"
}
serve_stop() {
	"$RAIDLAB" ctl c.sock stop >/dev/null || fail "ctl stop"
	wait $SPID || { cat serve.err; fail "server exited non-zero"; }
}
verified() { sed -n 's/.* verified \([0-9]*\)$/\1/p' counts; }

# run_case NAME SPEC FAILS REREAD_SPEC [AFTER]: serve SPEC, fail the members
# in FAILS, rebuild each under the verifying client, check, run the command
# AFTER, then read the export back through REREAD_SPEC (the same members,
# others failed or left out).
run_case() {
	local name=$1 spec=$2 fails=$3 reread=$4 after=${5:-} m v0 v1
	serve_start "$spec"
	head -c "$(nbdinfo --size "$U")" /dev/urandom >in.img
	nbdcopy in.img "$U" || fail "$name: nbdcopy in"
	rm -f stop counts
	python3 "$H" s.sock in.img stop counts expected.img >client.out 2>&1 &
	CPID=$!
	cleanup_hooks+=("kill $CPID 2>/dev/null")
	for _ in $(seq 200); do [ -s counts ] && break; kill -0 $CPID 2>/dev/null || break; sleep 0.05; done
	[ -s counts ] || { cat client.out; fail "$name: the client did not start"; }
	for m in $fails; do
		"$RAIDLAB" ctl c.sock fail "$m" >fail.out || { cat fail.out; fail "$name: ctl fail $m"; }
	done
	grep -q "degraded" fail.out || { cat fail.out; fail "$name: not degraded after the fails"; }
	for m in $fails; do
		v0=$(verified)
		"$RAIDLAB" ctl c.sock rebuild "$m" --rate 24MB/s --wait >rb.out 2>&1 ||
			{ cat rb.out serve.err; fail "$name: rebuild of member $m"; }
		grep -q "rebuild done" rb.out || { cat rb.out; fail "$name: rebuild $m did not finish"; }
		kill -0 $CPID 2>/dev/null || { cat client.out; fail "$name: the client ended during the rebuild"; }
		v1=$(verified)
		[ "$v1" -gt "$v0" ] || fail "$name: no verified reads during the rebuild of member $m"
		echo "$name: member $m rebuilt while the client verified $((v1 - v0)) bytes of reads"
	done
	"$RAIDLAB" ctl c.sock status >st.out
	grep -q "optimal" st.out || { cat st.out; fail "$name: not optimal after the rebuilds"; }
	touch stop
	wait $CPID || { cat client.out; fail "$name: the client saw an error or a wrong byte"; }
	echo "$name: client: $(cat counts)"
	serve_stop
	# the server's summary names the last rebuild
	grep -q "rebuild of member $m done" serve.err ||
		{ cat serve.err; fail "$name: no rebuild report for member $m"; }

	"$RAIDLAB" check "$spec" >check.out 2>&1 || { cat check.out; fail "$name: check after the rebuild"; }
	grep -q "no mismatches" check.out || { cat check.out; fail "$name: parity inconsistent"; }
	[ -z "$after" ] || $after
	serve_start "$reread"
	nbdcopy "$U" out.img || fail "$name: nbdcopy out"
	serve_stop
	cmp out.img expected.img || fail "$name: an acknowledged write reads back wrong ($reread)"
	rm -f out.img expected.img in.img
}

# the superblocks after the rebuild: member 0 active again, every member in the array
md_examine() {
	local out
	out=$(mdadm --examine p0.img) || fail "mdadm --examine p0.img: $out"
	grep -q "Device Role : Active device 0" <<<"$out" || fail "member 0 not active: $out"
	grep -q "Array State : AAA" <<<"$out" || fail "array state after the rebuild: $out"
}

# raid5 with md superblocks: member 0 is rebuilt, then read back with member 1 left out
"$RAIDLAB" create raid5 'file(p0.img,size=24m)' 'file(p1.img,size=24m)' 'file(p2.img,size=24m)' \
	--chunk 64k --quiet || fail "create raid5"
run_case raid5 'md(p0.img,p1.img,p2.img)' 0 'md(p0.img,p2.img)' md_examine

# raid6 with two members failed: both rebuilt, then read back with the other two failed
spec='raid6(file(q0.img,size=16m),file(q1.img,size=16m),file(q2.img,size=16m),file(q3.img,size=16m),chunk=64k'
run_case raid6 "$spec)" "0 1" "$spec,failed=2+3)"
echo "serve_parity_rebuild: ok"
