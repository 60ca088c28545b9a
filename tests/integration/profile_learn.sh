#!/usr/bin/env bash
# test-timeout: 1800
# raidlab profile learn / check on simulated drives used as black boxes:
# the profile learned from ssd(850evo) and from ssd(sx8200pro) predicts the
# AS SSD and Anvil suites on the original (workloads learn does not run as
# such) with a median error of at most 1.20x and at least 80 % of the cells
# within 1.5x; the SX8200 Pro's 150 GB sequential fill rate (past its SLC
# cache, which learn only samples) within 1.25x; the learned file is
# accepted wherever a profile name is (ssd(FILE), sweeps); on a small drive
# the fill covers, the spare area fitted to sustained random writes after
# it (rw4k-full) predicts them from full better than the 7 % guess, and
# advise answers on two of them; bad input is
# refused with a message and nothing is left behind.
. "$(dirname "$0")/lib.sh"
need jq

# bad input first: each a clear error, exit 2, no file written
for args in "learn" "learn ssd(850evo)" "learn ssd(850evo) -o x.profile --time 0s" \
	"learn ssd(850evo) -o x.profile --bogus" "frobnicate" "check" "check nofile.profile ssd(850evo)"; do
	set +e
	# shellcheck disable=SC2086
	$RAIDLAB profile $args >bad.out 2>bad.err
	rc=$?
	set -e
	[ $rc -ne 0 ] || fail "profile $args: exit 0"
	grep -q "raidlab profile" bad.err || { cat bad.err; fail "profile $args: no error message"; }
	[ ! -e x.profile ] || fail "profile $args wrote x.profile"
done

learn() { # NAME SPEC TIME
	$RAIDLAB profile learn "$2" -o "$1.profile" --time "$3" --quiet >"$1.learn" 2>&1 ||
		{ cat "$1.learn"; fail "learn $2"; }
	grep -q '^link_bw = .*# \[fit: ' "$1.profile" || { cat "$1.profile"; fail "$1: link_bw not tagged with its probes"; }
	# every model parameter line carries a tag
	untagged=$(grep -E '^(latency|cmd_time|cmd_write_time|t_read|t_prog_slc|channel_rate|dies|capacity|slc|link_bw) =' \
		"$1.profile" | grep -vc '# \[' || true)
	[ "$untagged" = 0 ] || { cat "$1.profile"; fail "$1: $untagged fitted parameters without a tag"; }
	$RAIDLAB profile check "$1.profile" "$2" --json "$1.json" >"$1.check" 2>&1 ||
		{ cat "$1.check"; fail "check $1"; }
	med=$(jq .median_ratio "$1.json")
	s15=$(jq .share_15 "$1.json")
	n=$(jq '.cells | length' "$1.json")
	[ "$n" -ge 16 ] || fail "$1: only $n cells compared"
	awk -v m="$med" -v s="$s15" 'BEGIN { exit !(m <= 1.20 && s >= 0.80) }' ||
		{ cat "$1.check"; fail "$1: median error ${med}x, share within 1.5x $s15 (want <= 1.20, >= 0.80)"; }
	echo "ok: $2 learned; AS SSD + Anvil: median ${med}x, within 1.5x $s15 over $n cells"
}

learn evo 'ssd(850evo)' 20s
learn sx 'ssd(sx8200pro)' 40s

# the 150 GB fill: the original and the learned profile, 1 MiB QD8
fill() {
	$RAIDLAB run --target "$1" --name=fill --rw=write --bs=1m --iodepth=8 --size=150g \
		--output-format=json | jq '.jobs[0].write.bw_bytes'
}
a=$(fill 'ssd(sx8200pro)')
b=$(fill "ssd(./sx.profile)")
awk -v a="$a" -v b="$b" 'BEGIN { r = b / a; if (r < 1) r = 1 / r; exit !(a > 0 && r <= 1.25) }' ||
	fail "150 GB fill: original $a B/s, learned $b B/s (more than 1.25x apart)"
echo "ok: 150 GB sequential fill: original $a B/s, learned $b B/s"

# the spare area: a small drive the fill covers, with 40 % spare.  learn
# runs sustained random writes after the fill and searches op for their
# rate, so the learned drive keeps its speed from full about as long as
# the original does; the common guess (7 %) slows down far sooner.
small='ssd(850evo, dies=1, blocks=96, op=40, slc_size=256m)'
$RAIDLAB profile learn "$small" -o spare.profile --time 60s --quiet >spare.learn 2>&1 ||
	{ cat spare.learn; fail "learn $small"; }
grep -q '^#   rw4k-full ' spare.profile || { cat spare.profile; fail "spare: rw4k-full not measured"; }
grep -q '^blocks = .*# \[fit: rw4k-full' spare.profile || { cat spare.profile; fail "spare: blocks not fitted to rw4k-full"; }
# the same profile with the blocks the 7 % guess gives (learn's own formula:
# capacity * 1.07 over the superblock, at least 12 more, plus 1 %)
guess=$(awk '/^channels/ {c = $3} /^dies/ {d = $3} /^capacity/ {cap = $3}
	END { sb = c * d * 2 * 16384 * 256; n = cap * 1.07 / sb; n = (n == int(n)) ? n : int(n) + 1
	      l = cap / sb; l = ((l == int(l)) ? l : int(l) + 1) + 12; if (n < l) n = l
	      m = n / 100; n += (m == int(m)) ? m : int(m) + 1; print n }' spare.profile)
sed "s/^blocks = .*/blocks = $guess/" spare.profile >guess.profile
rw() { # TARGET: IOPS of 20 s of 4K random writes QD32 from full
	$RAIDLAB run --target "$1" --name=rw --rw=randwrite --bs=4k --iodepth=32 --runtime=20s \
		--time_based --output-format=json | jq '.jobs[0].write.iops'
}
o=$(rw "${small%)}, state=full)")
l=$(rw 'ssd(./spare.profile, state=full)')
g=$(rw 'ssd(./guess.profile, state=full)')
awk -v o="$o" -v l="$l" -v g="$g" 'BEGIN { r = l / o; if (r < 1) r = 1 / r; q = g / o; if (q < 1) q = 1 / q
	exit !(o > 0 && r <= 1.25 && r < q) }' ||
	fail "spare: 20 s of random writes from full: original $o IOPS, learned $l, with the 7 % guess $g"
echo "ok: spare area fitted ($(grep '^blocks' spare.profile | cut -c1-60)): 20 s from full: original $o IOPS, learned $l, 7 % guess $g"

# advise takes a learned profile as it takes a shipped one
$RAIDLAB advise --drives 2x./spare.profile -j 1 >adv.out 2>adv.err || { cat adv.err; fail "advise --drives 2x./spare.profile"; }
grep -q '^Answer (throughput): ' adv.out && grep -q 'raid1 x2' adv.out ||
	{ cat adv.out; fail "advise on a learned profile: no ranking or no answer"; }
echo "ok: advise --drives 2x./spare.profile: $(grep '^Answer' adv.out)"

# Ctrl-C during learn: nothing left behind (no profile, no candidate file)
mkdir tmpd
TMPDIR=$T/tmpd $RAIDLAB profile learn 'ssd(sx8200pro)' -o int.profile --time 60s --quiet >int.out 2>&1 &
pid=$!
sleep 2
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -ne 0 ] || fail "an interrupted learn exits 0"
[ ! -e int.profile ] || fail "an interrupted learn left int.profile"
ls int.profile.tmp* >/dev/null 2>&1 && fail "an interrupted learn left a temporary profile"
[ -z "$(ls tmpd)" ] || fail "an interrupted learn left $(ls tmpd) in TMPDIR"
echo "ok: Ctrl-C leaves nothing behind (exit $rc)"
