#!/usr/bin/env bash
# A suite on a fleet of MPI ranks (ranks on localhost, oversubscribed):
#  1. CrystalDiskMark on three ranks, each on its own file ($rank in the
#     spec): rank 0 writes one result in which each test's MB/s and IOPS
#     are the sums of the ranks' figures, its latencies and histogram those
#     of a merge of the ranks' histograms done here, with the slowest and
#     fastest rank and each rank's own figures; one table, on rank 0;
#  2. a rank whose target is too small stops every rank, and rank 0 names
#     it and says why;
#  3. --fleet-stonewall in a suite: ATTO with one rank's target slowed
#     (delay(...)); the others finish each test, the slow rank is stopped;
#  4. one shared file, a region per rank (--offset-per-rank);
#  5. file suites, whose figures do not add up over ranks, are refused.
# (hdtune and steady over a fleet: mpi_fleet_suite_curves.sh)
. "$(dirname "$0")/lib.sh"
need jq
need_mpi
dir=$PWD
short=(--size 4m --passes 1 --warmup 0 --duration 100ms)

# 1. CDM on three ranks
"${mpi[@]}" -n 3 $RAIDLAB run cdm --target "file($dir/rl.\$rank, size=4m)" "${short[@]}" \
	--json cdm.json >cdm.out 2>cdm.err || { cat cdm.err cdm.out; fail "3-rank CDM"; }
[ "$(jq '.fleet.ranks' cdm.json)" = 3 ] || { cat cdm.err cdm.out; fail "the result has no fleet of 3 ranks"; }
[ "$(jq '[.tests[] | .read, .write] | length' cdm.json)" = 8 ] || fail "not 4 tests read and written"
jq -e --arg d "$dir" '[.tests[] | .read, .write | .fleet.ranks | map(.target)]
	| all(. == ["file(\($d)/rl.0, size=4m)", "file(\($d)/rl.1, size=4m)", "file(\($d)/rl.2, size=4m)"])' \
	cdm.json >/dev/null || fail "the ranks' targets are not their own files"
# every test and direction: the figure is the sum of the ranks' figures (one
# pass: the best pass is the pass), and so is the pass's; I/Os and bytes add up
jq -e 'def near(a; b): (a - b | fabs) <= 1e-9 * ([a, b] | max);
	[.tests[] | .read, .write] | all(
		. as $t | $t.passes[0] as $p
		| all(("mb_s", "iops") as $k
			| near($t[$k]; [$t.fleet.ranks[][$k]] | add)
			and near($p[$k]; [$p.ranks[][$k]] | add)
			and near($t[$k]; $p[$k]))
		and $p.ios == ([$p.ranks[].ios] | add) and $p.bytes == ([$p.ranks[].bytes] | add)
		and ($p.ranks | length) == 3)' cdm.json >/dev/null ||
	{ jq -c '.tests[] | [.name, .read.mb_s, [.read.fleet.ranks[].mb_s]]' cdm.json; fail "a test's aggregate is not the sum of the ranks' figures"; }
# slowest and fastest: the ranks with the lowest and highest MB/s
jq -e '[.tests[] | .read, .write | .fleet] | all(
	[.ranks[].mb_s] as $m | ($m | min) as $lo | ($m | max) as $hi
	| $m[.slowest_rank] == $lo and $m[.fastest_rank] == $hi)' cdm.json >/dev/null ||
	fail "the slowest or fastest rank is not the one with the lowest or highest MB/s"
# latencies: the ranks' histograms merged here, bucket counts added by their
# bounds, then fio's percentile rule (the bucket of the ceil(p% of count)-th
# sample, its midpoint, clamped to the exact min and max)
jq -e '[.tests[] | .read, .write] | all(. as $t | $t.passes[0] as $p
	| [$p.ranks[].histogram.buckets[]] | group_by(.[0])
	| map([.[0][0], .[0][1], (map(.[2]) | add)]) as $b
	| ($b | map(.[2]) | add) as $n
	| ([$p.ranks[].lat_us.min] | min * 1000 | round) as $min
	| ([$p.ranks[].lat_us.max] | max * 1000 | round) as $max
	| def pct(q): ((q * $n / 100) | ceil) as $r
		| first(foreach $b[] as $e (0; . + $e[2]; if . >= $r then $e else empty end))
		| (.[0] + ((.[1] - .[0]) / 2 | floor)) | [., $min] | max | [., $max] | min;
	$p.histogram.buckets == $b and $n == $p.ios
	and ([["p50", 50], ["p90", 90], ["p99", 99], ["p99_9", 99.9], ["p99_99", 99.99]]
	     | all(.[1] as $q | ($p.lat_us[.[0]] * 1000 - pct($q)) | fabs < 1))
	and ($t.lat_us.p99 * 1000 - pct(99) | fabs) < 1
	and ($p.lat_us.min * 1000 | round) == $min and ($p.lat_us.max * 1000 | round) == $max)' \
	cdm.json >/dev/null || { jq -c '.tests[0].read.passes[0].lat_us' cdm.json; fail "the latencies are not the merge of the ranks' histograms"; }
# rank 0 alone prints, once, and says what the figures are
[ "$(grep -c '^cdm: CrystalDiskMark' cdm.out)" = 1 ] || { cat cdm.out; fail "not one table"; }
grep -q '^fleet: 3 MPI ranks at once; MB/s and IOPS are the sums' cdm.out || { cat cdm.out; fail "the table does not say it is a fleet's"; }
[ "$(grep -c '^  SEQ1M Q8T1 read: slowest rank [0-2] ' cdm.out)" = 1 ] || { cat cdm.out; fail "no slowest rank in the table"; }
ls rl.* 2>/dev/null && fail "the ranks' test files were left behind"
echo "ok: CDM on 3 ranks: SEQ1M Q8T1 read $(jqv cdm.json '.tests[0].read.mb_s | floor') MB/s =" \
	"$(jq -c '[.tests[0].read.fleet.ranks[].mb_s | floor]' cdm.json) summed"

# 2. rank 2's target is too small for the test area: every rank stops
truncate -s 4m t.0 t.1
truncate -s 1m t.2
"${mpi[@]}" -n 3 $RAIDLAB run cdm --target "$dir/t.\$rank" "${short[@]}" --json small.json \
	>small.out 2>small.err || true
grep -q "cdm on $dir/t.0: rank 2 ([^)]*): the target has 1048576 bytes" small.err ||
	{ cat small.err; fail "rank 0 does not say that rank 2's target is too small"; }
[ ! -e small.json ] || fail "a result was written though rank 2 could not run"

# 3. stonewalling: rank 2 writes and reads through a 100 ms delay (64
# requests at QD4: 1.6 s per direction); ranks 0 and 1 finish and stop it
atto=(--size 4m --min-bs 64k --max-bs 64k --fleet-stonewall)
"${mpi[@]}" -n 2 $RAIDLAB run atto --target "file($dir/sw.\$rank, size=4m)" "${atto[@]}" --json sw.json : \
	-n 1 $RAIDLAB run atto --target "delay(file($dir/sw.\$rank, size=4m), lat=100ms)" "${atto[@]}" \
	--json sw.json >sw.out 2>sw.err || { cat sw.err sw.out; fail "stonewalled ATTO"; }
jq -e '.fleet.stonewall' sw.json >/dev/null || fail "the result does not say it was stonewalled"
for d in write read; do
	p=".tests[0].$d.passes[0]"
	[ "$(jq "[$p.ranks[0,1].ios] == [64, 64]" sw.json)" = true ] || fail "ranks 0 and 1 did not finish their $d"
	slow=$(jqv sw.json "$p.ranks[2].ios")
	[ "$slow" -lt 64 ] && [ "$(jqv sw.json "$p.ranks[2].stopped_by_stonewall")" = true ] ||
		fail "the slow rank did $slow of 64 ${d}s: it was not stopped"
	[ "$(jqv sw.json "$p.ranks_stopped_by_stonewall")" = 1 ] || fail "the $d pass does not count one stopped rank"
	[ "$(jqv sw.json "$p.ios")" = $((128 + slow)) ] || fail "the stonewalled $d aggregate is not what the ranks did"
done
echo "ok: stonewall stopped the slow rank after $slow of 64 reads"

# one shared file, a test area per rank (--offset-per-rank): rank 1's lies
# 4 MiB in, and nothing is written between or after the two areas
truncate -s 8m shared
"${mpi[@]}" -n 2 $RAIDLAB run cdm --target "$dir/shared" --size 2m --passes 1 --warmup 0 \
	--duration 100ms --offset-per-rank 4m --json shared.json >sh.out 2>sh.err ||
	{ cat sh.err sh.out; fail "CDM on one shared file, a region per rank"; }
[ "$(jqv shared.json '.fleet.offset_per_rank')" = 4194304 ] || fail "the result does not give the offset per rank"
nonzero() { dd if=shared bs=1M skip=$1 count=$2 2>/dev/null | tr -d '\0' | wc -c; }
[ "$(nonzero 0 2)" -gt 0 ] && [ "$(nonzero 4 2)" -gt 0 ] || fail "a rank's test area of the shared file was not written"
[ "$(nonzero 2 2)" = 0 ] && [ "$(nonzero 6 2)" = 0 ] || fail "the ranks wrote outside their test areas"
echo "ok: two ranks measured their own regions of one file"

# 5. refused: file copies (mpirun's exit status does not tell under
# --enable-recovery: the message does, and nothing ran)
refused() {
	local pat=$1; shift
	"${mpi[@]}" -n 2 $RAIDLAB run "$@" >ref.out 2>ref.err || true
	grep -q -- "$pat" ref.err || { cat ref.err; fail "'run $*' on 2 ranks: no '$pat'"; }
	[ ! -s ref.out ] || { cat ref.out; fail "'run $*' on 2 ranks printed a result"; }
}
refused 'fc-test: file suites do not run over an MPI fleet' fc-test --target "dir($dir)"
expect_fail 2 'only under mpirun' $RAIDLAB run cdm --target 'mem(size=64m)' --fleet-stonewall
echo "mpi_fleet_suite: ok"
