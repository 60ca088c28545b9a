#!/usr/bin/env bash
# HD Tune's Random Access rows against fio: on a real file (O_DIRECT), fio
# runs the same patterns as `raidlab run hdtune` (random offsets over the
# whole file, queue depth 1, the row's size or the Random row's size mix,
# the same duration), and the two tools run alternately, ROUNDS times each.
# Each row's IOPS (and for the Random row its MB/s) must agree within a
# tolerance made of the noise the runs themselves show: the spread (max /
# min) of raidlab's runs times the spread of fio's, times 1.25 for what the
# two engines do differently per request.  A run that is not QD1, not
# direct, not random over the file or not the row's size is off by far more
# than that (buffered or deeper-queued reads by 10x and more; writes of
# another size by the size ratio in MB/s).  raidlab's buffers are in 4 KiB
# pages here (--small-pages), as fio's default buffers are: in huge pages a
# 1 MiB request reaches the disk as one segment where fio's may be split,
# and on some hosts that alone moves the 1 MB row by 2x (docs/results.md).
# test-alone: it compares raidlab's rates with fio's on this machine's disk; other tests' I/O beside it moves one tool's runs and not the other's
. "$(dirname "$0")/lib.sh"
need fio
need jq

ROUNDS=3
DUR=1
img=$T/ra.img
dd if=/dev/urandom of="$img" bs=1M count=64 oflag=direct status=none || fail "writing the test file"

rows=("512 bytes" "4 KB" "64 KB" "1 MB" "Random")
sizes=(512 4k 64k 1m "")
mix=

# fio_row RW SIZE: "IOPS MB/s" of one fio run of that row
fio_row() {
	local bs=(--bs="$2")
	# the Random row: each size drawn on its own, as raidlab draws it (fio's random
	# map would cut large blocks short where they meet blocks already visited)
	[ -n "$2" ] || bs=(--bssplit="$mix" --norandommap)
	fio --name=ra --filename="$img" --rw="$1" "${bs[@]}" --iodepth=1 --direct=1 \
		--ioengine=io_uring --time_based --runtime="$DUR" --size=64m \
		--output-format=json >fio.json 2>fio.err || { cat fio.err; fail "fio $1 $2"; }
	jq -r '.jobs[0] | (.read.iops + .write.iops | tostring) + " "
		+ ((.read.bw_bytes + .write.bw_bytes) / 1e6 | tostring)' fio.json
}

: >runs.txt
for round in $(seq $ROUNDS); do
	$RAIDLAB run hdtune --target "$img" --zones=2 --sample=1m --duration=$DUR --write --small-pages --quiet \
		--json "rl$round.json" || fail "raidlab run hdtune, round $round"
	# the Random row's sizes, as raidlab states them
	mix=$(jq -r '.tests[] | select(.name == "Random Access Random (read)") | .bssplit' rl1.json)
	for d in read write; do
		for i in "${!rows[@]}"; do
			jq -r --arg n "Random Access ${rows[$i]} ($d)" --arg d $d --arg r $round '
				.tests[] | select(.name == $n) | .[$d] as $x
				| "raidlab \($r) \($d) \($n | sub(" "; "_"; "g")) \($x.iops) \($x.mb_s)"' \
				"rl$round.json" >>runs.txt
			read -r iops mbs < <(fio_row "rand$d" "${sizes[$i]}")
			n="Random Access ${rows[$i]} ($d)"
			echo "fio $round $d ${n// /_} $iops $mbs" >>runs.txt
		done
	done
done
[ "$(grep -c '^raidlab ' runs.txt)" -eq $((ROUNDS * 10)) ] || { cat runs.txt; fail "raidlab rows missing"; }

# per row and figure: medians, each tool's spread, the tolerance and the verdict
awk '
	{ k = $3 " " $4; v[$1, k, $2] = $5; m[$1, k, $2] = $6; keys[k] = 1; n = ($2 > n ? $2 : n) }
	function med(a, cnt,   i, j, t, s) {
		for (i = 1; i <= cnt; i++) s[i] = a[i]
		for (i = 1; i <= cnt; i++) for (j = i + 1; j <= cnt; j++)
			if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
		return cnt % 2 ? s[(cnt + 1) / 2] : (s[cnt / 2] + s[cnt / 2 + 1]) / 2
	}
	function spread(a, cnt,   i, lo, hi) {
		lo = hi = a[1]
		for (i = 2; i <= cnt; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		return lo > 0 ? hi / lo : 1e9
	}
	function check(k, what, R, F,   mr, mf, tol, ratio) {
		mr = med(R, n); mf = med(F, n)
		tol = 1.25 * spread(R, n) * spread(F, n)
		ratio = mf > 0 ? mr / mf : 1e9
		ok = ratio <= tol && ratio >= 1 / tol
		printf "%-40s %-4s raidlab %10.1f fio %10.1f ratio %.3f tolerance x%.3f %s\n",
			k, what, mr, mf, ratio, tol, ok ? "ok" : "OFF"
		bad += !ok
	}
	END {
		for (k in keys) {
			delete R; delete F; delete RM; delete FM
			for (i = 1; i <= n; i++) {
				R[i] = v["raidlab", k, i]; F[i] = v["fio", k, i]
				RM[i] = m["raidlab", k, i]; FM[i] = m["fio", k, i]
			}
			check(k, "IOPS", R, F)
			if (k ~ /Random_\(/) check(k, "MB/s", RM, FM)
		}
		exit bad > 0
	}' runs.txt >verdict.txt || { sort verdict.txt; fail "raidlab's Random Access rows disagree with fio's"; }
sort verdict.txt
echo "hdtune_fio: ok"
