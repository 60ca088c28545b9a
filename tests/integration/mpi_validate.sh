#!/usr/bin/env bash
# raidlab validate under mpirun: a 4-rank run prints the same agreement
# figures (and writes the same JSON) as a 1-rank run of the same set.
# One small set (sm951-windows-stripe: 8 cells, a few configurations) keeps
# it short on a busy machine.  Ranks on localhost, oversubscribed.
. "$(dirname "$0")/lib.sh"
need jq
need_mpi
set_=sm951-windows-stripe

"${mpi[@]}" -n 1 $RAIDLAB validate $set_ --quiet --json one.json >one.out 2>one.err ||
	{ cat one.err one.out; fail "1-rank validate"; }
grep -q 'median error' one.out || { cat one.out; fail "1-rank validate printed no agreement figures"; }
"${mpi[@]}" -n 4 $RAIDLAB validate $set_ --quiet --json four.json >four.out 2>four.err ||
	{ cat four.err four.out; fail "4-rank validate"; }
diff one.out four.out || fail "4-rank validate prints other figures than the 1-rank run"
cmp <(jq -S . one.json) <(jq -S . four.json) ||
	{ diff <(jq -S . one.json) <(jq -S . four.json) | head; fail "4-rank validate JSON differs"; }
echo "ok: $(grep -c 'median error' four.out) set(s), the same figures on 1 and 4 ranks"
