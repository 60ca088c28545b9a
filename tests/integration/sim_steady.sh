#!/usr/bin/env bash
# state=steady set up directly (precondition=analytic, the default) against
# the simulated way there (precondition=simulated: random overwrites until
# write amplification settles), for every shipped profile: 4K random writes
# at QD32 over a quarter of the drive give the same rate (within 5 %) and
# write amplification (within 2 %).  The writes are uniform and independent
# (norandommap), as the models assume: a random map rewrites nothing twice
# in a pass, which is another workload once a pass is under way.  The drives are shrunk (superblocks of
# at most 4k units, 1.5M units of flash, a static SLC cache in proportion)
# so that the simulated path settles in seconds; the direct one costs
# nothing at creation, which `raidlab info` on four full-size drives shows.
. "$(dirname "$0")/lib.sh"
need jq
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export RAIDLAB_PROFILES=$top/profiles

info() { # spec key: a value from `raidlab info`
	$RAIDLAB info "$1" | tr ',' '\n' | sed -n "s/^ *$2=//p"
}

n=0 static=()
for f in "$top"/profiles/${ONLY:-*}.profile; do
	p=$(basename "$f" .profile)
	b=$(info "ssd($p)" superblock_units)
	sb=$(info "ssd($p)" superblocks)
	pages=$(sed -n 's/^pages *= *\([0-9]*\).*/\1/p' "$f")
	div=$(((b + 4095) / 4096))
	np=$((pages / div))
	nb=$(info "ssd($p, pages=$np)" superblock_units)
	blocks=$((1500000 / nb))
	[ "$blocks" -ge 64 ] || blocks=64
	spec="ssd($p, pages=$np, blocks=$blocks"
	if [ "$(info "ssd($p)" slc_cache)" = static ]; then
		slc=$(info "ssd($p)" slc_cache_bytes)
		# the same share of the flash as on the full-size drive
		static+=("$spec, slc_size=$((slc / (b * sb) * (nb * blocks)))")
		# the simulated way does not reach a static cache's steady state
		# (below): the comparison is made without it
		spec="$spec, slc=off"
	fi
	size=$(info "$spec)" size: | head -1)
	bytes=$($RAIDLAB info "$spec)" | sed -n 's/^size: .*(\([0-9]*\) bytes)/\1/p')
	for m in analytic simulated; do
		$RAIDLAB run --target "$spec, state=steady, precondition=$m, seed=3)" --rw=randwrite \
			--norandommap=1 --bs=4k --iodepth=32 --io_size=$((bytes / 4 / 4096 * 4096)) --quiet \
			--json "$p-$m.json" >"$p-$m.out" 2>&1 || { cat "$p-$m.out"; fail "$spec: $m run failed"; }
	done
	read -r ia wa < <(jq -r '.jobs[0] | "\(.write.iops) \(.target_counters | .. | objects |
		select(has("write_amplification") and has("gc")) | .write_amplification)"' "$p-analytic.json")
	read -r is ws < <(jq -r '.jobs[0] | "\(.write.iops) \(.target_counters | .. | objects |
		select(has("write_amplification") and has("gc")) | .write_amplification)"' "$p-simulated.json")
	echo "$p ($spec)): analytic $ia IOPS WA $wa, simulated $is IOPS WA $ws"
	awk -v a="$ia" -v s="$is" 'BEGIN { exit !(a > 0 && s > 0 && a / s < 1.05 && s / a < 1.05) }' ||
		fail "$p: 4K random-write IOPS $ia (analytic) and $is (simulated) differ by 5 % or more"
	awk -v a="$wa" -v s="$ws" 'BEGIN { exit !(a > 1 && s > 1 && a / s < 1.02 && s / a < 1.02) }' ||
		fail "$p: write amplification $wa (analytic) and $ws (simulated) differ by 2 % or more"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no profiles found in $top/profiles"
: "$size"

# A static SLC cache is folded only in idle time, so under random writes
# each of its blocks is free again only once its last unit is overwritten,
# after about U ln(b_slc) host writes: more than the simulated way writes.
# The direct state puts its blocks where that cycle leaves them; it is
# steady if the write amplification of a quarter of the drive is the same
# at once and after twice the drive's user units were written.
for spec in "${static[@]}"; do
	bytes=$($RAIDLAB info "$spec)" | sed -n 's/^size: .*(\([0-9]*\) bytes)/\1/p')
	q=$((bytes / 4 / 4096 * 4096))
	cat >steady.fio <<-JOB
		[global]
		rw=randwrite
		bs=4k
		iodepth=32
		norandommap=1
		[first]
		randseed=11
		io_size=$q
		[ramp]
		stonewall
		randseed=12
		io_size=$((q * 7))
		[later]
		stonewall
		randseed=13
		io_size=$q
	JOB
	$RAIDLAB run steady.fio --target "$spec, state=steady, seed=3)" --quiet --json st.json \
		>st.out 2>&1 || { cat st.out; fail "$spec: run failed"; }
	read -r w1 w3 < <(jq -r '[.jobs[] | .target_counters | .. | objects |
		select(has("write_amplification") and has("gc"))] |
		"\(.[0].write_amplification) \((.[2].nand.bytes_written - .[1].nand.bytes_written) /
		(.[2].host.bytes_written - .[1].host.bytes_written))"' st.json)
	echo "$spec): WA $w1 at once, $w3 after 2U"
	awk -v a="$w1" -v s="$w3" 'BEGIN { exit !(a > 1 && s > 1 && a / s < 1.02 && s / a < 1.02) }' ||
		fail "$spec: write amplification $w1 at once but $w3 later: not steady"
done

# creation of a direct steady state costs neither time nor memory per unit
# (four 500 GB drives; the simulated way takes seconds and a GB per drive)
start=$(date +%s%N)
$RAIDLAB info 'raid0(ssd(850evo, state=steady) x4, chunk=64k)' >info.out
ms=$((($(date +%s%N) - start) / 1000000))
grep -q 'state=steady' info.out || fail "info does not show a steady drive"
[ "$ms" -lt 20000 ] || fail "info on four steady 500 GB drives took $ms ms"
echo ok
