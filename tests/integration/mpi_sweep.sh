#!/usr/bin/env bash
# raidlab sweep under mpirun: rank 0 hands the points out to every rank and
# writes the one store and output.  A 4-rank sweep gives what a one-host
# sweep gives (JSON apart from the timing fields, CSV and store byte for
# byte); a rank killed while it computes (SIGKILL, mpirun --enable-recovery)
# loses only its point, which another rank runs, and the sweep completes
# with the same figures.  Ranks on localhost, oversubscribed.
. "$(dirname "$0")/lib.sh"
need jq
need_mpi
spec='raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k})'
args=(cdm5 --target "$spec" --size 8m --passes 1 --duration 200ms)
# the JSON without what depends on the clock of the host that ran a point
untimed() { jq -S 'del(.. | .wall_ns?)' "$1"; }

# one host
$RAIDLAB sweep "${args[@]}" --quiet -j 2 --store one --json one.json --csv one.csv 2>one.err ||
	{ cat one.err; fail "one-host sweep"; }
[ "$(jq '.points | length' one.json)" -eq 8 ] || fail "one-host sweep: $(jq '.points | length' one.json) points"

# four ranks: the same points, the same figures, one store written by rank 0
"${mpi[@]}" -n 4 $RAIDLAB sweep "${args[@]}" --store four --json four.json --csv four.csv >four.out 2>four.err ||
	{ cat four.err; fail "4-rank sweep"; }
# each point once, said by rank 0 alone (four independent sweeps would say 32)
[ "$(grep -c '^sweep: [0-9]*/8 ' four.err)" -eq 8 ] || { cat four.err; fail "not 8 progress lines"; }
grep -q '^sweep: 8 points .* 4 at a time (one per MPI rank)' four.err || { cat four.err; fail "no plan line"; }
cmp <(untimed one.json) <(untimed four.json) ||
	{ diff <(untimed one.json) <(untimed four.json) | head -20; fail "4-rank sweep differs from the one-host sweep"; }
cmp one.csv four.csv || fail "4-rank CSV differs from the one-host CSV"
[ "$(ls four | wc -l)" -eq 8 ] || fail "the 4-rank store has $(ls four | wc -l) files, expected 8"
diff <(ls one) <(ls four) || fail "the stores hold other keys"
# again: every point is in the store, nothing to hand out; the ranks still end
"${mpi[@]}" -n 4 $RAIDLAB sweep "${args[@]}" --store four --json again.json >again.out 2>again.err ||
	{ cat again.err; fail "4-rank sweep with every point stored"; }
grep -q '8 in the store, 0 to run' again.err || { cat again.err; fail "the stored points were not taken"; }
cmp <(untimed four.json | grep -v '"stored"') <(untimed again.json | grep -v '"stored"') ||
	fail "the stored sweep differs"
[ "$(grep -c 'raid10 x4 chunk=256k' four.out)" -eq 1 ] || { cat four.out; fail "the table is not printed once"; }

# a rank dies while it computes: kill rank 2 once it has a worker running
# (which also shows points do go to other ranks); rank 0 hears nothing from
# it for RAIDLAB_MPI_TIMEOUT seconds and hands its point to another rank.
# The points run longer here (2 s of simulated time each, about a second
# on the machine) so that rank 2's worker lives long enough to be seen: at
# 200 ms a point could end between two looks, and rank 2 finish its points
# unseen.  The one-host sweep of the same points is the reference.
kargs=(cdm5 --target "$spec" --size 8m --passes 1 --duration 2s)
$RAIDLAB sweep "${kargs[@]}" --quiet -j 2 --json onek.json 2>onek.err ||
	{ cat onek.err; fail "one-host sweep (2 s points)"; }
RAIDLAB_MPI_TIMEOUT=3 "${mpi[@]}" -n 4 $RAIDLAB sweep "${kargs[@]}" --quiet --store kill --json kill.json \
	>kill.out 2>kill.err &
mp=$!
victim=
for _ in $(seq 1200); do
	# $mp is timeout; mpirun its child; the ranks mpirun's children
	for p in $(for q in $(pgrep -P $mp); do pgrep -P "$q"; done); do
		grep -qz '^OMPI_COMM_WORLD_RANK=2$' /proc/$p/environ 2>/dev/null && victim=$p
	done
	[ -n "$victim" ] && [ -n "$(pgrep -P "$victim")" ] && break
	victim=
	kill -0 $mp 2>/dev/null || break
	sleep 0.05
done
[ -n "$victim" ] || { wait $mp || true; cat kill.err; fail "rank 2 never ran a point"; }
kill -KILL "$victim"
rc=0
wait $mp || rc=$?
[ "$rc" -eq 0 ] || { cat kill.err; fail "the sweep with a killed rank exited $rc"; }
grep -q 'rank 2 has been silent .* taken for dead' kill.err || { cat kill.err; fail "rank 2's death was not noticed"; }
[ "$(jq '.failed | length' kill.json)" -eq 0 ] || fail "points failed: $(jq -c '.failed' kill.json)"
cmp <(untimed onek.json) <(untimed kill.json) ||
	{ diff <(untimed onek.json) <(untimed kill.json) | head -20; fail "the sweep with a killed rank differs from the one-host sweep"; }
echo "ok: 4-rank sweep = one-host sweep; a killed rank lost only its point"
