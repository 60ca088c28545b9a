#!/usr/bin/env bash
# raidlab sweep --timeout under mpirun: a point still running at its limit
# fails with "timed out after N s" whichever rank runs it (rank 0's own
# worker or another rank's), the store keeps the timeout, and the rank
# drops the point and takes the next: the quick points handed out after the
# slow ones still finish.  Two ranks on localhost; the slow points are a
# job that writes 4 KiB at a time for ten hours of simulated time (hours of
# work on any machine), the quick ones write 1 MiB.
# test-timeout: 300
. "$(dirname "$0")/lib.sh"
need jq
# without the limit kept the sweep would run for hours: bound it (need_mpi reads it)
export RAIDLAB_MPI_LIMIT=${RAIDLAB_MPI_LIMIT:-150}
need_mpi

cat >slow.fio <<'EOF2'
[long]
rw=randwrite
bs=4k
iodepth=32
time_based=1
runtime=10h
EOF2
printf '[quick]\nrw=write\nbs=64k\nsize=1m\n' >quick.fio
spec='raid0(ssd(850evo) x{1,2})'
# (mpirun's exit status does not tell: under --enable-recovery a rank that
# exits 1 does not fail the job; the result does)
rc=0
"${mpi[@]}" -n 2 $RAIDLAB sweep slow.fio quick.fio --target "$spec" --timeout 5 --store st \
	--json a.json >a.out 2>a.err || rc=$?
[ -s a.json ] || { cat a.err; fail "the 2-rank sweep with --timeout 5 wrote no result (exit $rc)"; }
[ "$(jq '[.failed[] | select(.workload == "slow.fio" and .reason == "timed out after 5 s")] | length' a.json)" = 2 ] ||
	{ jq .failed a.json; cat a.err; fail "the slow points are not failed with 'timed out after 5 s'"; }
[ "$(jq '[.points[] | select(.workload == "quick.fio")] | length' a.json)" = 2 ] ||
	{ jq .failed a.json; cat a.err; fail "the quick points did not finish after the slow ones timed out"; }
[ "$(grep -c 'slow.fio): failed: timed out after 5 s' a.err)" = 2 ] || { cat a.err; fail "no progress line for each timeout"; }
[ "$(grep -l '"timed_out_after_s": *5' st/*.json | wc -l)" = 2 ] || fail "the store does not keep the two timeouts"
! pgrep -f -- "--store st --timeout 5" >/dev/null || fail "a timed-out worker is still running"
echo "mpi_sweep_timeout: ok"
