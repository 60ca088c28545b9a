#!/usr/bin/env bash
# raidlab run on a fleet of MPI ranks (ranks on localhost, oversubscribed):
#  1. four ranks each read their own file ($rank in the spec); rank 0's
#     aggregate is the sum of the ranks' figures, and its latency histogram
#     and percentiles equal a merge of the ranks' histograms done here;
#     fio's JSON has the ranks and "All clients" (fio's client/server form);
#  2. stonewalling: one rank's target is made slow (delay(...), started with
#     mpirun's MPMD form); the other ranks finish their reads and the slow
#     one is stopped with part of its reads done, its figures reported apart;
#  3. one shared file, a region per rank (--offset-per-rank): each rank's
#     region holds that rank's pattern ($rank in an option) afterwards.
. "$(dirname "$0")/lib.sh"
need jq
need_mpi
dir=$PWD
n=2048 # 4k reads per rank: each reads its 8 MiB file once
job=(--name=rr --rw=randread --bs=4k --iodepth=2 --direct=0 --size=8m)

# 1. per-rank files; the aggregate against the ranks
"${mpi[@]}" -n 4 $RAIDLAB run "${job[@]}" --target "file($dir/rl.\$rank, size=8m)" --json agg.json \
	>agg.out 2>agg.err || { cat agg.err agg.out; fail "4-rank fleet run"; }
[ "$(jq '.fleet.ranks' agg.json)" -eq 4 ] || { cat agg.out; fail "the result has no fleet of 4 ranks"; }
jq -e '[.fleet.jobs[0].ranks[].target] == ["file('"$dir"'/rl.0, size=8m)", "file('"$dir"'/rl.1, size=8m)",
	"file('"$dir"'/rl.2, size=8m)", "file('"$dir"'/rl.3, size=8m)"]' agg.json >/dev/null ||
	fail "the ranks' targets are not their own files: $(jq -c '[.fleet.jobs[0].ranks[].target]' agg.json)"
j='.fleet.jobs[0]'
for k in ios bytes; do
	jq -e "$j.aggregate.read.$k == ([$j.ranks[].read.$k] | add)" agg.json >/dev/null ||
		fail "aggregate read $k $(jqv agg.json "$j.aggregate.read.$k") is not the ranks' sum"
done
[ "$(jqv agg.json "$j.aggregate.read.ios")" -eq $((4 * n)) ] || fail "not $((4 * n)) reads in all"
for k in iops mb_s; do
	jq -e "$j.aggregate.read.$k as \$a | ([$j.ranks[].read.$k] | add) as \$s | (\$a - \$s | fabs) <= 1e-6 * \$a" \
		agg.json >/dev/null || fail "aggregate read $k is not the sum of the ranks' $k"
done
# the merge, independently: bucket counts added by their bounds, then fio's
# percentile rule (the bucket of the ceil(p% of count)-th sample, its
# midpoint, clamped to the exact min and max)
jq -e "$j"' as $j
	| [$j.ranks[].read.histogram.buckets[]] | group_by(.[0])
	| map([.[0][0], .[0][1], (map(.[2]) | add)]) as $b
	| ($b | map(.[2]) | add) as $n
	| ([$j.ranks[].read.lat_us.min] | min * 1000 | round) as $min
	| ([$j.ranks[].read.lat_us.max] | max * 1000 | round) as $max
	| def pct(p): ((p * $n / 100) | ceil) as $r
		| first(foreach $b[] as $e (0; . + $e[2]; if . >= $r then $e else empty end))
		| (.[0] + ((.[1] - .[0]) / 2 | floor)) | [., $min] | max | [., $max] | min;
	$j.aggregate.read.histogram.buckets == $b and $n == $j.aggregate.read.ios
	and ([["p50", 50], ["p90", 90], ["p99", 99], ["p99_9", 99.9], ["p99_99", 99.99]]
	     | all(.[1] as $p | ($j.aggregate.read.lat_us[.[0]] * 1000 - pct($p)) | fabs < 1))
	and ($j.aggregate.read.lat_us.min * 1000 | round) == $min
	and ($j.aggregate.read.lat_us.max * 1000 | round) == $max' agg.json >/dev/null ||
	{ jq -c "$j.aggregate.read.lat_us" agg.json; fail "the aggregate latencies are not the merge of the ranks' histograms"; }
# rank 0 alone reports: one aggregate line, one line per rank
[ "$(grep -c '^  All clients  *read ' agg.out)" -eq 1 ] || { cat agg.out; fail "not one 'All clients' line"; }
[ "$(grep -c '^  rank [0-3] .* read ' agg.out)" -eq 4 ] || { cat agg.out; fail "not one line per rank"; }
grep -q "^  slowest: rank [0-3] " agg.out || { cat agg.out; fail "no slowest rank"; }
ls rl.* 2>/dev/null && fail "the ranks' test files were left behind"
# fio's JSON as fio's client/server mode prints it: each rank's job, then "All clients"
"${mpi[@]}" -n 2 $RAIDLAB run "${job[@]}" --target "file($dir/rl.\$rank, size=8m)" --output-format=json \
	>fio.json 2>fio.err || { cat fio.err; fail "2-rank fleet run, fio's JSON"; }
jq -e '(.client_stats | length) == 3 and .client_stats[2].jobname == "All clients"
	and (.client_stats[:2] | all(.hostname != null))
	and .client_stats[2].read.io_bytes == ([.client_stats[:2][].read.io_bytes] | add)
	and (.client_stats[2].read.iops - ([.client_stats[:2][].read.iops] | add) | fabs) < 1e-6 * .client_stats[2].read.iops' \
	fio.json >/dev/null || { jq -c '.client_stats[] | [.jobname, .hostname, .read.iops]' fio.json; fail "fio's JSON has no 'All clients' sum"; }
echo "ok: 4 ranks, aggregate $(jqv agg.json "$j.aggregate.read.iops | floor") IOPS = sum of the ranks'," \
	"p99 $(jqv agg.json "$j.aggregate.read.lat_us.p99") us from the merged histograms"

# 2. stonewalling: rank 3 reads through a 20 ms delay, 40 s for its 2048
# reads; the others take well under that, then stop it
"${mpi[@]}" -n 3 $RAIDLAB run "${job[@]}" --fleet-stonewall --target "file($dir/sw.\$rank, size=8m)" \
	--json sw.json : -n 1 $RAIDLAB run "${job[@]}" --fleet-stonewall \
	--target "delay(file($dir/sw.\$rank, size=8m), lat=20ms)" --json sw.json >sw.out 2>sw.err ||
	{ cat sw.err sw.out; fail "stonewalled fleet run"; }
jq -e '.fleet.stonewall' sw.json >/dev/null || fail "the result does not say it was stonewalled"
r='.fleet.jobs[0].ranks'
for k in 0 1 2; do
	[ "$(jqv sw.json "$r[$k].read.ios")" -eq $n ] || fail "rank $k did not finish its $n reads"
	[ "$(jqv sw.json "$r[$k].stopped_by_stonewall")" = false ] || fail "rank $k is said to be stopped"
done
slow=$(jqv sw.json "$r[3].read.ios")
[ "$slow" -gt 0 ] && [ "$slow" -lt $n ] || fail "the slow rank did $slow of $n reads: it was not stopped"
[ "$(jqv sw.json "$r[3].stopped_by_stonewall")" = true ] || fail "the slow rank is not said to be stopped"
[ "$(jqv sw.json '.fleet.jobs[0].slowest_rank')" -eq 3 ] || fail "the slow rank is not the slowest"
jq -e '.fleet.jobs[0].aggregate.read.ios == ([.fleet.jobs[0].ranks[].read.ios] | add)' sw.json >/dev/null ||
	fail "the stonewalled aggregate is not the sum of what the ranks did"
grep -q 'stonewall: 1 of 4 ranks stopped' sw.out || { cat sw.out; fail "the report does not show the stonewall"; }
grep -q '^  rank 3 .*stopped by stonewall' sw.out || { cat sw.out; fail "rank 3 is not shown as stopped"; }
echo "ok: stonewall stopped the slow rank after $slow of $n reads"

# 3. one shared file, a region per rank
truncate -s 16m shared
"${mpi[@]}" -n 4 $RAIDLAB run --target "$dir/shared" --name=w --rw=write --bs=64k --size=4m \
	--offset-per-rank=4m --buffer_pattern='0x4$rank' --direct=0 >sh.out 2>sh.err ||
	{ cat sh.err sh.out; fail "fleet writes to one shared file"; }
for k in 0 1 2 3; do
	got=$(dd if=shared bs=4M skip=$k count=1 2>/dev/null | od -An -v -tx1 | tr -s ' \n' '\n' | sort -u | xargs)
	[ "$got" = "4$k" ] || fail "region $k of the shared file holds bytes '$got', not rank $k's 4$k"
done
# outside mpirun there are no ranks to give regions to
expect_fail 1 'only under mpirun' $RAIDLAB run --target "$dir/shared" --name=w --rw=write --size=4m \
	--offset-per-rank=4m
echo "ok: four ranks wrote their own regions of one file"
