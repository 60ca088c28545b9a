#!/usr/bin/env bash
# What a suite prints on the console: with several targets each target's
# table, then the comparison (--summary: the comparison alone); with
# --output-format=cdm-text CrystalDiskMark 7/8's own text export, line by
# line as its DiskMarkDlg.cpp lays it out, figures from the result JSON;
# the progress line on a terminal: the running test, tests done of the
# total and the time left (none without a terminal, with --quiet or JSON).
. "$(dirname "$0")/lib.sh"
need jq
fast=(--size=16m --passes=2 --warmup=0 --duration=100ms)
A='ssd(samsung-sm951-512)'
B='raid0(ssd(samsung-sm951-512) x2, chunk=128k)'

# --- several targets: per-target tables, then the comparison -----------------
$RAIDLAB run cdm --target "$A" --target "$B" --label one --label two "${fast[@]}" \
	--out-dir "$T" >all.txt 2>all.err || { cat all.err; fail "cdm on two targets failed"; }
[ "$(grep -c '^cdm: CrystalDiskMark 8 (default)$' all.txt)" = 2 ] || { cat all.txt; fail "not one table per target"; }
grep -q "^target: $A (simulated" all.txt || fail "no table of the first target"
grep -qF "target: $B (simulated" all.txt || fail "no table of the second target"
grep -q '^configurations (baseline #1):' all.txt || fail "no comparison after the tables"
# the tables come first, the comparison last, and each table shows what its JSON holds
[ "$(grep -n '^configurations' all.txt | cut -d: -f1)" -gt "$(grep -n '^target: raid0' all.txt | cut -d: -f1)" ] ||
	fail "the comparison is not after the tables"
for l in one two; do
	v=$(jq -r '.tests[] | select(.name == "RND4K Q1T1") | .read.mb_s * 100 | round / 100' "$T/cdm-$l.json")
	grep -qE "^RND4K Q1T1 +$(printf '%.2f' "$v") " all.txt || fail "table of $l lacks RND4K Q1T1 read $v"
done
$RAIDLAB run cdm --target "$A" --target "$B" --summary "${fast[@]}" --out-dir "$T" >sum.txt 2>/dev/null ||
	fail "--summary failed"
grep -q '^cdm: ' sum.txt && fail "--summary still prints the per-target tables"
grep -q '^configurations (baseline #1):' sum.txt || fail "--summary lost the comparison"

# --- --output-format=cdm-text ----------------------------------------------
$RAIDLAB run cdm --target "$A" "${fast[@]}" --mix --json r.json --output-format=cdm-text >cdm.txt ||
	fail "cdm-text failed"
grep -qv $'\r$' cdm.txt && fail "cdm-text: a line does not end in CRLF, as CDM writes"
tr -d '\r' <cdm.txt >c.txt
rule=$(printf -- '-%.0s' $(seq 78))
num() { jq -r "$1" r.json; }
# the expected text, line by line: the header, [Read] / [Write] / [Mix], the footer
{
	echo "$rule"
	echo "raidlab $(num .tool.version): CrystalDiskMark 8 (default)"
	printf '%34s%s\n' '' "raidlab: not CrystalDiskMark's own run"
	echo "$rule"
	echo "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]"
	echo "* KB = 1000 bytes, KiB = 1024 bytes"
	echo
	for d in read write mix; do
		case $d in
		read) echo "[Read]" ;;
		write) echo "[Write]" ;;
		mix) echo "[Mix] Read 70%/Write 30%" ;;
		esac
		for i in 0 1 2 3; do
			t=".tests[$i]"
			bs=$(num "$t.bs")
			if [ "$bs" -ge 1048576 ]; then sz=$((bs / 1048576)) u=MiB; else sz=$((bs / 1024)) u=KiB; fi
			[ "$(num "$t.pattern")" = seq ] && k=SEQ || k=RND
			mbs=$(num "$t.$d.mb_s")
			# awk formats in double precision, as C does (bash's printf uses long double)
			awk -v k=$k -v sz="$sz" -v u=$u -v q="$(num "$t.iodepth")" -v th="$(num "$t.threads")" \
				-v mbs="$mbs" -v bs="$bs" -v lat="$(num "$t.$d.lat_us.mean")" 'BEGIN {
				printf "  %s %4d%s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>\n",
					k, sz, u, q, th, mbs, mbs * 1000000 / bs, lat }'
		done
		echo
	done
	echo "Profile: Default"
	echo "   Test: 16 MiB (x2) [$A]"
	echo "   Mode:"
	echo "   Time: Measure 0.1 sec / Interval 0 sec "
} >want.txt
n=$(wc -l <want.txt)
head -n "$n" c.txt | diff want.txt - || fail "cdm-text differs from CrystalDiskMark's layout"
sed -n "$((n + 1))p" c.txt | grep -qE '^   Date: 20[0-9]{2}/[01][0-9]/[0-3][0-9] [0-9]{1,2}:[0-5][0-9]:[0-5][0-9]$' ||
	fail "cdm-text: no Date line"
sed -n "$((n + 2))p" c.txt | grep -qx "     OS: Linux $(uname -r) ($(uname -m))" || fail "cdm-text: no OS line"
sed -n "$((n + 3))p" c.txt | grep -qF "Comment: raidlab $(num .tool.version), target $A (simulated" ||
	fail "cdm-text: the comment does not say simulated"
[ "$(wc -l <c.txt)" = $((n + 3)) ] || fail "cdm-text: lines after the comment"
grep -q '^RND4K\|^Read\|MB/s per\|^configurations' c.txt && fail "cdm-text: the table printed too"
# a suite without CDM's layout is refused, naming those that have it
expect_fail 2 "cdm-text is CrystalDiskMark 7/8's text export: suites cdm, cdm-nvme and cdm7" \
	$RAIDLAB run atto --target "$A" --output-format=cdm-text

# --- HD Tune on a fresh simulated drive: flat, and the console says why ------
hd=(--size=256m --zones=20 --duration=200ms)
$RAIDLAB run hdtune --target "$A" "${hd[@]}" --json fresh.json >fresh.txt || fail "hdtune (fresh)"
[ "$(jq '.target_final_counters.nand.bytes_read' fresh.json)" = 0 ] || fail "a fresh drive read flash"
[ "$(jq '.tests[0].min_mb_s == .tests[0].max_mb_s' fresh.json)" = true ] || fail "fresh: not flat"
grep -q '^note: no read reached the simulated flash' fresh.txt || fail "fresh hdtune: no note on why it is flat"
$RAIDLAB run hdtune --target "ssd(samsung-sm951-512, state=full)" "${hd[@]}" --json full.json >full.txt ||
	fail "hdtune (state=full)"
[ "$(jq '.tests[0].min_mb_s < .tests[0].max_mb_s' full.json)" = true ] || fail "state=full: still flat"
acc='.tests[] | select(.name == "Access Time (read)") | .access_time_ms'
[ "$(jq --argjson f "$(jq "$acc" fresh.json)" "$acc > \$f" full.json)" = true ] ||
	fail "state=full: the access time is not that of flash"
grep -q '^note: no read reached' full.txt && fail "state=full: the note, though flash was read"

# --- the progress line: test, done/total, ETA on a terminal only -------------
need script
img="file($T/p.img, size=32m)"
slow=(--size=16m --passes=2 --warmup=1 --duration=150ms)
# script(1) gives the run a terminal; the progress line goes to it (stderr), the table to a file
script -qfec "$RAIDLAB run cdm --target '$img' ${slow[*]} >$T/tty-table.txt" /dev/null >tty.raw ||
	fail "cdm on a terminal failed"
tr '\r' '\n' <tty.raw >tty.txt
grep -q '^cdm: ' "$T/tty-table.txt" || fail "no table after the progress line"
grep -qE '\[[1-8]/8 tests\]\[[0-9.]+%\]\[eta [0-9]{2}m:[0-9]{2}s\] (SEQ|RND)[^ ]+ Q[0-9]+T[0-9]+ (read|write)' tty.txt ||
	{ head -c 2000 tty.txt; fail "no progress line with tests done/total and an ETA"; }
# every step is shown, in order (the count only grows)
steps=$(grep -oE '^.*\[([1-8])/8 tests\]' tty.txt | grep -oE '[1-8]/8' | cut -d/ -f1 | uniq | tr '\n' ' ')
[ "$steps" = "1 2 3 4 5 6 7 8 " ] || fail "steps shown: $steps (want 1 to 8 in order)"
# quiet where nobody watches: no terminal, --quiet, JSON on standard output
$RAIDLAB run cdm --target "$img" "${fast[@]}" >/dev/null 2>notty.err || fail "cdm without a terminal failed"
grep -q 'eta' notty.err && fail "a progress line without a terminal"
for o in --quiet --output-format=json; do
	script -qfec "$RAIDLAB run cdm --target '$img' ${fast[*]} $o >/dev/null" /dev/null >q.raw ||
		fail "cdm $o failed"
	grep -q 'eta' q.raw && fail "a progress line with $o"
done
echo ok
