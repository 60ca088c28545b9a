#!/usr/bin/env bash
# The two suites whose figures are curves, on a fleet of MPI ranks (ranks on
# localhost, oversubscribed); every figure is recomputed here with jq from
# each rank's own figures in the result:
#  1. HD Tune on three simulated drives (their speeds differ by position): at every
#     position of the transfer-rate curve the fleet's MB/s is the sum of the
#     ranks', its latency the mean of their merged samples, the slowest and
#     fastest rank are the ones with the lowest and highest MB/s there; min,
#     max and average are those of the fleet's curve; access time, burst
#     rate and the random-access rows are sums and histogram merges;
#  2. steady on three simulated drives (simulated time: the same rounds on
#     any machine, loaded or not): every round's figure is the sum of the
#     ranks', every rank ran every round, and the run stopped where the
#     SNIA rule, applied to the fleet's IOPS, first held (or at the time
#     limit) - also where one rank alone would have stopped elsewhere.
. "$(dirname "$0")/lib.sh"
need jq
need_mpi
dir=$PWD

# near(a; b): equal to 1e-9 (sums of doubles in another order); mag: |x|
# (jq 1.6's fabs fails on some inputs)
near='def mag: if . < 0 then -. else . end;
	def near(a; b): ((a - b) | mag) <= 1e-9 * ([(a | mag), (b | mag), 1e-300] | max);'

# 1. HD Tune on three simulated drives of 256 MiB (simulated time: the same
# figures on any machine) whose speed changes at half the span the other
# way round on ranks 0 and 1, so the ranks' slowest positions differ; rank
# 2 is slow everywhere
hd=(--zones 4 --sample 256k --block 64k --duration 20ms --write --json hd.json)
"${mpi[@]}" -n 1 $RAIDLAB run hdtune --target "concat(ssd(capacity=128m), delay(ssd(capacity=128m), lat=1ms))" "${hd[@]}" : \
	-n 1 $RAIDLAB run hdtune --target "concat(delay(ssd(capacity=128m), lat=500us), ssd(850evo, capacity=128m, state=full))" "${hd[@]}" : \
	-n 1 $RAIDLAB run hdtune --target "delay(ssd(capacity=256m), lat=2ms)" "${hd[@]}" >hd.out 2>hd.err ||
	{ cat hd.err hd.out; fail "3-rank HD Tune"; }
[ -s hd.json ] || { cat hd.err hd.out; fail "3-rank HD Tune wrote no result"; }
[ "$(jq '.fleet.ranks' hd.json)" = 3 ] || { cat hd.err hd.out; fail "the HD Tune result has no fleet of 3 ranks"; }
[ "$(jq '[.tests[] | select(.curve)] | length' hd.json)" = 2 ] || fail "not two transfer-rate curves (read, write)"
# the curves: position by position
jq -e "$near"' [.tests[] | select(.curve)] | all(
	(if .read then .read else .write end) as $d | .curve as $c | ($c.mb_s | length) as $n
	| $n == 4 and ($c.ranks | length) == 3
	and all(range($n); . as $i
		| [$c.ranks[].mb_s[$i]] as $m
		| near($c.mb_s[$i]; $m | add)
		and $m[$c.slowest_rank[$i]] == ($m | min) and $m[$c.fastest_rank[$i]] == ($m | max)
		and near($c.lat_us[$i]; [$c.ranks[].lat_us[$i]] | add / 3))
	and near(.min_mb_s; $c.mb_s | min) and near(.max_mb_s; $c.mb_s | max)
	and near($d.mb_s; $c.mb_s | add / $n)
	and all(range(3); . as $k | $d.fleet.ranks[$k] as $r
		| near($r.mb_s; $c.ranks[$k].mb_s | add / $n)
		and near($r.min_mb_s; $c.ranks[$k].mb_s | min) and near($r.max_mb_s; $c.ranks[$k].mb_s | max))
	and $d.passes[0].ios == ([$d.passes[0].ranks[].ios] | add)
	and $d.passes[0].ios == 3 * 4 * 4
	and near($d.iops; [$d.passes[0].ranks[].iops] | add))' hd.json >/dev/null ||
	{ jq -c '.tests[0] | [.min_mb_s, .max_mb_s, .curve.mb_s, [.curve.ranks[].mb_s]]' hd.json
	  fail "a transfer-rate curve is not the sum of the ranks' curves"; }
# the ranks differ by position: rank 2 is the slowest everywhere, rank 0
# the fastest in the first half and rank 1 in the second; so the fleet's
# minimum is above the sum of the ranks' minima, its maximum below the sum
# of their maxima (extremes of the summed curve, not sums of extremes)
jq -e '[.tests[] | select(.curve) | .curve as $c
	| $c.slowest_rank == [2, 2, 2, 2] and $c.fastest_rank == [0, 0, 1, 1]
	and .min_mb_s > ([$c.ranks[].mb_s | min] | add) and .max_mb_s < ([$c.ranks[].mb_s | max] | add)]
	| all' hd.json >/dev/null || { jq -c '.tests[] | select(.curve) | [.min_mb_s, .max_mb_s, .curve.slowest_rank, .curve.fastest_rank, [.curve.ranks[].mb_s]]' hd.json
	                              fail "the ranks' curves do not differ by position as their drives do"; }
# access time, burst rate, random access: sums of the ranks, histograms merged
jq -e "$near"' [.tests[] | select(.curve | not) | (.read // .write) as $d | $d.passes[0] as $p | {t: ., $d, $p}]
	| length == 15 and all(
		near(.d.mb_s; [.d.fleet.ranks[].mb_s] | add) and near(.d.iops; [.d.fleet.ranks[].iops] | add)
		and near(.p.mb_s; [.p.ranks[].mb_s] | add) and .p.ios == ([.p.ranks[].ios] | add)
		and near(.p.lat_us.mean; ([.p.ranks[] | .lat_us.mean * .ios] | add) / .p.ios)
		and ([.d.fleet.ranks[].mb_s] as $m
			| $m[.d.fleet.slowest_rank] == ($m | min) and $m[.d.fleet.fastest_rank] == ($m | max))
		and (if .t.burst_mb_s then near(.t.burst_mb_s; .d.mb_s) else true end)
		and (if .t.access_time_ms then near(.t.access_time_ms * 1000; .d.lat_us.mean) else true end))' \
	hd.json >/dev/null || { jq -c '.tests[] | [.name, (.read // .write).mb_s, [(.read // .write).fleet.ranks[].mb_s]]' hd.json
	                        fail "an HD Tune test is not the sum and merge of the ranks'"; }
grep -q '^  Transfer Rate (read) read: slowest rank 2 ' hd.out || { cat hd.out; fail "the table does not name the slowest rank"; }
echo "ok: HD Tune on 3 ranks: transfer rate (read) $(jq -c '[.tests[0].curve.mb_s[] | floor]' hd.json) MB/s by position"

# 2. steady: rounds of 2 ms (simulated) of 4 KiB random writes; a drive
# behind a small write-back cache swings from round to round, a bare one
# does not.  Each case: which ranks swing, and what must follow.
st=(--size=64m --fill=0 --round=0.002 --time-limit=0.05 --zones=4)
swing='cache(ssd(850evo), size=8m)'
flat='ssd(850evo)'
# steady(y): raidlab's rule (suite_steady_check) on the last 5 values of y
rule='def steady(y): (y | length) as $n
	| if $n < 5 then false else y[$n - 5:] as $w | ($w | add / 5) as $m
	| if $m <= 0 then false
	  else ((($w | max) - ($w | min)) / $m) as $exc
	  | (([range(5) | (. - 2) * ($w[.] - $m)] | add) / 10 | (if . < 0 then -. else . end) * 4 / $m) as $rise
	  | $exc <= 0.2 and $rise <= 0.1 end end;'
steady_case() { # NAME SPEC-OF-RANK-0 SPEC-OF-RANK-1 SPEC-OF-RANK-2
	local name=$1
	"${mpi[@]}" -n 1 $RAIDLAB run steady --target "$2" "${st[@]}" --json "$name.json" : \
		-n 1 $RAIDLAB run steady --target "$3" "${st[@]}" --json "$name.json" : \
		-n 1 $RAIDLAB run steady --target "$4" "${st[@]}" --json "$name.json" \
		>"$name.out" 2>"$name.err" || { cat "$name.err" "$name.out"; fail "steady $name on 3 ranks"; }
	# (under --enable-recovery mpirun's status may not tell: the result does)
	[ -s "$name.json" ] || { cat "$name.err" "$name.out"; fail "steady $name on 3 ranks wrote no result"; }
	# each round: the sum of the ranks (who all ran it), its slowest and fastest
	jq -e "$near"' .tests[0] as $t | $t.write.passes as $p | $t.steady_state.rounds as $n
		| $t.name == "RND4K Q32T1" and ($p | length) == $n and ($t.curve.x | length) == $n
		and all(range($n); . as $i | $p[$i] as $q | [$q.ranks[].mb_s] as $m
			| ($q.ranks | length) == 3 and all($q.ranks[]; .ios > 0)
			and ([$q.ranks[].rank] == [0, 1, 2])
			and near($q.iops; [$q.ranks[].iops] | add) and near($q.mb_s; $m | add)
			and $q.ios == ([$q.ranks[].ios] | add)
			and near($t.curve.mb_s[$i]; $q.mb_s)
			and $m[$q.slowest_rank] == ($m | min) and $m[$q.fastest_rank] == ($m | max)
			and $t.curve.slowest_rank[$i] == $q.slowest_rank
			and near($t.curve.x[$i]; [$p[:$i + 1][] | [.ranks[].runtime_s] | max] | add))
		and (([$n, 5] | min) as $w
			| near($t.write.mb_s; [$p[$n - $w:][].mb_s] | add / $w)
			and near($t.steady_state.mean_iops; [$p[$n - $w:][].iops] | add / $w)
			and all(range(3); . as $k | $t.write.fleet.ranks[$k] as $r
				| near($r.iops; [$p[$n - $w:][].ranks[$k].iops] | add / $w)))' \
		"$name.json" >/dev/null || { jq -c '.tests[0] | .steady_state, [.write.passes[] | [.iops, [.ranks[].iops]]]' "$name.json"
		                            fail "steady $name: a round is not the sum of the ranks' rounds"; }
	# the stop: at the first round where the rule holds on the fleet's IOPS,
	# else at the time limit (the longest rank's time, summed over the rounds)
	jq -e "$rule"' .tests[0] as $t | [$t.write.passes[].iops] as $y | ($y | length) as $n
		| $t.steady_state.reached == steady($y)
		and all(range(5; $n); . as $i | steady($y[:$i]) | not)
		and (if steady($y) then true
		     else $t.curve.x[-1] >= 0.05 and ($n == 1 or $t.curve.x[-2] < 0.05) end)' \
		"$name.json" >/dev/null || { jq -c '.tests[0] | .steady_state, [.write.passes[].iops]' "$name.json"
		                            fail "steady $name: the rounds did not stop where the rule on the aggregate says"; }
	# the other tests run on after it, in lockstep: the write over LBA is a fleet's curve
	jq -e "$near"' .tests[1] as $l | $l.name == "Write over LBA" and ($l.curve.ranks | length) == 3
		and all(range(4); . as $i | near($l.curve.mb_s[$i]; [$l.curve.ranks[].mb_s[$i]] | add))' \
		"$name.json" >/dev/null || fail "steady $name: the write over LBA is not the ranks' sum"
	[ "$(grep -c '^  RND4K Q32T1 write: slowest rank [0-2] ' "$name.out")" = 1 ] ||
		{ cat "$name.out"; fail "steady $name: the table does not name the slowest rank"; }
}
# own(k): rank k's own IOPS, round by round
own='def own(k): [.tests[0].write.passes[].ranks[k].iops];'
# a. rank 0 swings, alone it would not be steady at round 5; the fleet is
steady_case a "$swing" "$flat" "$flat"
jq -e "$rule$own"' .tests[0].steady_state | .reached and .rounds == 5' a.json >/dev/null ||
	{ jq -c '.tests[0].steady_state' a.json; fail "steady a: the fleet was not steady at round 5"; }
jq -e "$rule$own"' steady(own(0)) | not' a.json >/dev/null ||
	fail "steady a: rank 0 alone is steady too: the case no longer tells the fleet's rule from rank 0's own"
# b. ranks 0 and 1 swing: the fleet is steady later than rank 2 alone would be
steady_case b "$swing" "$swing" "$flat"
jq -e "$rule$own"' .tests[0].steady_state.rounds > 5 and steady(own(2)[:5])' b.json >/dev/null ||
	{ jq -c '.tests[0].steady_state' b.json; fail "steady b: rank 2 did not run on past where it alone would have stopped"; }
# c. all swing alike: no steady state, the time limit ends the rounds on every rank
steady_case c "$swing" "$swing" "$swing"
jq -e '.tests[0].steady_state | (.reached | not) and .rounds > 5' c.json >/dev/null ||
	{ jq -c '.tests[0].steady_state' c.json; fail "steady c: the time limit did not end the rounds"; }
echo "ok: steady on 3 ranks: rounds a $(jqv a.json '.tests[0].steady_state.rounds')," \
	"b $(jqv b.json '.tests[0].steady_state.rounds'), c $(jqv c.json '.tests[0].steady_state.rounds') (time limit)"
echo "mpi_fleet_suite_curves: ok"
