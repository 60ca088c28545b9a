#!/usr/bin/env bash
# raidlab's fio-shaped outputs against fio's own, on the same command lines:
#  - json and json+: every key path fio writes (array positions and the
#    percentile and bin keys folded) is in raidlab's document too, on twelve
#    varied command lines; raidlab may add keys, it may not miss any;
#  - terse (--minimal): 130 fields for a file on one disk, field by field of
#    the same kind (integer, decimal, percent, "P%=V", name) as fio's, the
#    fields that are counts rather than timings equal, and the timings of the
#    same unit: on three jobs, each run twice by both tools, raidlab's two
#    values lie within fio's two widened 10x, the noise of runs on a shared
#    machine (a field in the wrong unit, KiB for bytes or us for ns, is off
#    by 1000);
#  - normal (fio's default): on the same twelve command lines, the sequence
#    of sections and line shapes (every figure, with its k/Mi/B prefix and
#    unit, replaced by N; runs of blanks made one) is fio's, the "NAME:
#    Laying out IO file" lines for the files created included, with these
#    deliberate differences, each taken out of both outputs before the diff:
#      * the version line says raidlab-X.Y.Z where fio says fio-3.33;
#      * ioengine= in the job line: raidlab's default engine is io_uring,
#        fio's psync (the job line is otherwise the same);
#    and, where a figure's value decides whether a line is there or how it
#    is split, one token for what varies from run to run: the percentile
#    rows (how many fit in a row depends on the widest value) and the "lat
#    (usec) :" bucket rows (only the non-empty buckets).  The "bw" and
#    "iops" sample lines come once a direction has run 500 ms (fio's
#    bwavgtime), which a short job may or may not reach on a busy machine,
#    so they are compared on the time_based line only;
#  - --status-interval with normal and terse output: a report of the figures
#    so far every interval, shaped as fio's, then the final one;
#  - disable_lat, disable_clat, disable_slat: the same latency figures zero
#    or gone in JSON and terse, and the same latency logs, as fio's;
#  - significant_figures: the sizes printed as fio's, the rates within the
#    digits.
. "$(dirname "$0")/lib.sh"
need fio
need jq

F="$T/f.img"
lines=(
	"--name=rr --rw=randread --bs=4k --size=16m --iodepth=16 --ioengine=libaio --direct=1"
	"--name=mix --rw=randrw --rwmixread=70 --bs=4k --size=16m --ioengine=psync"
	"--name=w --rw=write --bs=64k --size=16m --numjobs=2 --group_reporting"
	"--name=r --rw=read --size=16m --numjobs=2"
	"--name=v --rw=write --bs=4k --size=4m --verify=crc32c"
	"--name=u --rw=randrw --size=16m --unified_rw_reporting=both"
	"--name=p --rw=randread --size=16m --percentile_list=50:99:99.9"
	"--name=rate --rw=randread --size=16m --rate_iops=2000 --runtime=1 --time_based"
	"--name=coe --rw=randwrite --size=8m --continue_on_error=all"
	"--name=a --rw=read --size=8m --filename=F2 --name=b --rw=write --size=8m --ioengine=io_uring --iodepth=8"
	"--name=dl --rw=randrw --size=8m --ioengine=libaio --iodepth=4 --disable_lat=1 --disable_slat=1"
	"--name=dc --rw=randrw --size=8m --disable_clat=1 --significant_figures=6"
)

# keypaths FILE: every path of the document, positions as [], percentile and bin keys as N
keypaths() {
	jq -r '[paths(..) | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' "$1" |
		sed -E 's/\.(bins|percentile)\.[0-9.]+$/.\1.N/' | sort -u
}

missing=0
for fmt in json json+; do
	for i in "${!lines[@]}"; do
		read -ra args <<<"${lines[$i]//=F2/=$T/f2.img}"
		rm -f "$F" "$T/f2.img"
		fio --output-format=$fmt "${args[@]}" --filename="$F" >fio.json || fail "fio: ${lines[$i]}"
		$RAIDLAB run --output-format=$fmt "${args[@]}" --filename="$F" >rl.json ||
			fail "raidlab: ${lines[$i]}"
		keypaths fio.json >fio.keys
		keypaths rl.json >rl.keys
		if [ -n "$(comm -23 fio.keys rl.keys)" ]; then
			echo "$fmt, line $((i + 1)) (${lines[$i]}): raidlab lacks"
			comm -23 fio.keys rl.keys | sed 's/^/    /' | head -20
			missing=$((missing + $(comm -23 fio.keys rl.keys | wc -l)))
		fi
	done
done
[ $missing = 0 ] || fail "$missing key paths of fio's JSON missing in raidlab's"
echo "json, json+: every key path of fio's on ${#lines[@]} command lines"

# shape FILE TIMED: the normal output's line shapes (see the top); TIMED 1 keeps bw/iops lines
shape() {
	sed -E -e 's/^(fio|raidlab)-[0-9][0-9.]*$/VERSION/' -e 's/ioengine=[a-z_0-9]+/ioengine=E/' \
		-e 's/\((nsec|usec|msec)\)/(T)/g' -e 's/\( *(KiB|MiB|kB|MB)\/s\)/(U\/s)/' \
		-e 's/[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?(B\/s|B)?/N/g' -e 's/([=[]) +/\1/g' -e 's/ +/ /g' "$1" |
		awk -v timed="$2" '
			!timed && /^ (bw \(|iops :)/ { next }
			/^ \|/ { if (!rows) print " |ROWS"; rows = 1; next }
			/^ lat \(T\) :/ { if (!lats) print " lat (T) : BUCKETS"; lats = 1; next }
			{ rows = 0; lats = 0; print }'
}
for i in "${!lines[@]}"; do
	read -ra args <<<"${lines[$i]//=F2/=$T/f2.img}"
	rm -f "$F" "$T/f2.img"
	fio "${args[@]}" --filename="$F" >fio.txt || fail "fio: ${lines[$i]}"
	rm -f "$F" "$T/f2.img" # each lays its files out ("Laying out IO file")
	$RAIDLAB run "${args[@]}" --filename="$F" >rl.txt || fail "raidlab: ${lines[$i]}"
	timed=0
	[[ ${lines[$i]} == *--time_based* ]] && timed=1
	shape fio.txt $timed >fio.shape
	shape rl.txt $timed >rl.shape
	grep -q '^Run status group N (all jobs):$' fio.shape || fail "fio's normal output changed: no run status group"
	if ! diff fio.shape rl.shape >shape.diff; then
		echo "normal, line $((i + 1)) (${lines[$i]}): fio's lines (<), raidlab's (>):"
		cat shape.diff
		echo "--- raidlab's output:"
		cat rl.txt
		fail "normal output: line $((i + 1)) differs from fio's in structure"
	fi
done
echo "normal: the structure of fio's on ${#lines[@]} command lines"

# --status-interval with normal and terse output: as fio, a whole report of the
# figures so far every interval (then the final one), in the same shape; the
# count may differ by one, as fio's interval counts from its own start
status=(--name=s --rw=randread --size=16m --runtime=3 --time_based --rate_iops=2000 --status-interval=1)
# blocks FILE: the shapes of the reports, one line each (the job line starts one)
blocks() {
	shape "$1" 1 | awk 'function out() { if (b != "") { sub(/\|+$/, "", b); print b } b = "" }
		/^s: \(groupid=/ { out() } b != "" || /^s: \(groupid=/ { b = b $0 "|" } END { out() }'
}
fio "${status[@]}" --filename="$F" >fio.txt || fail "fio --status-interval"
$RAIDLAB run "${status[@]}" --filename="$F" >rl.txt || fail "raidlab --status-interval"
blocks fio.txt >fio.blocks
blocks rl.txt >rl.blocks
nf=$(wc -l <fio.blocks) nr=$(wc -l <rl.blocks)
[ "$nr" -ge 3 ] && [ $((nr - nf)) -le 1 ] && [ $((nf - nr)) -le 1 ] ||
	{ cat rl.txt; fail "--status-interval=1 over 3 s: raidlab printed $nr reports, fio $nf"; }
[ "$(sort -u rl.blocks | wc -l)" = 1 ] && [ "$(sort -u rl.blocks)" = "$(tail -1 fio.blocks)" ] || {
	tail -1 fio.blocks | tr '|' '\n' >fio.last
	sort -u rl.blocks | head -1 | tr '|' '\n' >rl.first
	diff fio.last rl.first
	fail "--status-interval: raidlab's reports differ from fio's in structure"
}
fio "${status[@]}" --filename="$F" --minimal >fio.t || fail "fio --status-interval --minimal"
$RAIDLAB run "${status[@]}" --filename="$F" --minimal >rl.t || fail "raidlab --status-interval --minimal"
nf=$(wc -l <fio.t) nr=$(wc -l <rl.t)
[ "$nr" -ge 3 ] && [ $((nr - nf)) -le 1 ] && [ $((nf - nr)) -le 1 ] ||
	{ cat rl.t; fail "--status-interval --minimal: raidlab printed $nr lines, fio $nf"; }
[ "$(awk -F';' '{ print NF }' rl.t | sort -u)" = "$(awk -F';' 'NR == 1 { print NF }' fio.t)" ] ||
	fail "--status-interval --minimal: raidlab's lines have $(awk -F';' '{ print NF }' rl.t | sort -u | tr '\n' ' ') fields"
# cumulative, as fio's: the KiB read (field 6) never shrink and grow over the run
# (the last interval may fall on the job's end, its figures the final ones)
awk -F';' 'NR > 1 && $6 < prev { exit 1 } NR == 1 { first = $6 } { prev = $6 } END { exit !(prev > first) }' rl.t ||
	{ cat rl.t; fail "terse status lines are not cumulative"; }
# and with JSON output: one whole document per interval, each with every key
# path of fio's (the interim ones too: fio prints the full document each time)
fio "${status[@]}" --filename="$F" --output-format=json >fio.j || fail "fio --status-interval json"
$RAIDLAB run "${status[@]}" --filename="$F" --output-format=json >rl.j ||
	fail "raidlab --status-interval json"
# keyset FILE: one line per document, its sorted key paths (array indices as 0)
keyset() { jq -c '[paths(scalars) | map(if type == "number" then 0 else . end)] | unique' "$1"; }
keyset fio.j >fio.keys
keyset rl.j >rl.keys
nf=$(wc -l <fio.keys) nr=$(wc -l <rl.keys)
[ "$nr" -ge 3 ] && [ $((nr - nf)) -le 1 ] && [ $((nf - nr)) -le 1 ] ||
	fail "--status-interval json: raidlab printed $nr documents, fio $nf"
[ "$(sort -u rl.keys | wc -l)" = 1 ] && [ "$(sort -u rl.keys)" = "$(tail -1 fio.keys)" ] || {
	sort -u rl.keys | head -1 | jq -r '.[] | join(".")' >rl.kp
	tail -1 fio.keys | jq -r '.[] | join(".")' >fio.kp
	diff fio.kp rl.kp | head -20
	fail "--status-interval json: raidlab's documents differ from fio's in their keys"
}
jq -s -e '[.[] | .jobs[0].read.io_bytes] | . == sort and .[0] < .[-1]' rl.j >/dev/null ||
	fail "--status-interval json: the documents are not cumulative"
echo "--status-interval: $nr reports in normal, terse and JSON, fio's shapes"

# kind VALUE: what sort of terse field it is
kind() {
	case $1 in
	*%=*) echo pv ;;
	*%) echo pct ;;
	'' | *[!0-9.-]*) echo word ;;
	*.*) echo dec ;;
	*) echo int ;;
	esac
}
# fields that count rather than time (1-based): version, name, group, error,
# read KiB, write KiB, the disk's name; the I/O depth shares to within a
# point (fio counts the first few requests at the depths on the way up)
exact=(1 3 4 5 6 47 122)
depths=(93 94 95 96 97 98 99)
# timings compared by unit: bw, iops, clat mean, lat mean, per direction (a min or
# max is one sample: the noisiest figure there is)
timed=(7 8 16 40 48 49 57 81)
terse_jobs=(
	"--name=t1 --rw=read --bs=4k --size=8m --ioengine=psync"
	"--name=t2 --rw=randwrite --bs=4k --size=8m --ioengine=libaio --iodepth=8 --direct=1"
	"--name=t3 --rw=randrw --bs=16k --size=8m --ioengine=psync"
)
for job in "${terse_jobs[@]}"; do
	read -ra args <<<"$job"
	rm -f "$F"
	# each run starts with no dirty pages of the one before it: a buffered
	# write caught behind the other tool's writeback (or fio's laying out)
	# waits 100 ms and lifts a mean clat 50x
	for run in 1 2; do
		sync
		fio "${args[@]}" --filename="$F" --minimal >fio$run.t || fail "fio --minimal: $job"
		sync
		$RAIDLAB run "${args[@]}" --filename="$F" --minimal >rl$run.t || fail "raidlab --minimal: $job"
	done
	for f in fio1 fio2 rl1 rl2; do
		[ "$(wc -l <$f.t)" = 1 ] && [ "$(awk -F';' '{print NF}' $f.t)" = 130 ] ||
			{ cat $f.t; fail "$job: $f has $(awk -F';' '{print NF}' $f.t) fields, not 130"; }
	done
	IFS=';' read -ra fa <fio1.t
	IFS=';' read -ra fb <fio2.t
	IFS=';' read -ra ra <rl1.t
	IFS=';' read -ra rb <rl2.t
	for k in $(seq 0 129); do
		[ "$(kind "${fa[$k]}")" = "$(kind "${ra[$k]}")" ] ||
			fail "$job: field $((k + 1)) is '${ra[$k]}' in raidlab's, '${fa[$k]}' in fio's"
		case ${fa[$k]} in *%=*) [ "${fa[$k]%%=*}" = "${ra[$k]%%=*}" ] ||
			fail "$job: field $((k + 1)): percentile ${ra[$k]%%=*}, fio's ${fa[$k]%%=*}" ;; esac
	done
	# a mixed job's split between reads and writes is drawn at random: its sum is exact
	if [[ $job == *rw=randrw* ]]; then
		[ $((fa[5] + fa[46])) = $((ra[5] + ra[46])) ] ||
			fail "$job: read + write KiB is $((ra[5] + ra[46])) in raidlab's, $((fa[5] + fa[46])) in fio's"
		ra[5]=${fa[5]} ra[46]=${fa[46]}
	fi
	for k in "${exact[@]}"; do
		[ "${fa[$((k - 1))]}" = "${fb[$((k - 1))]}" ] || fail "fio's field $k changed between runs"
		[ "${fa[$((k - 1))]}" = "${ra[$((k - 1))]}" ] ||
			fail "$job: field $k is ${ra[$((k - 1))]} in raidlab's, ${fa[$((k - 1))]} in fio's"
	done
	for k in "${depths[@]}"; do
		a=${fa[$((k - 1))]%\%} b=${ra[$((k - 1))]%\%}
		awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }' ||
			fail "$job: I/O depth field $k is $b% in raidlab's, $a% in fio's"
	done
	for k in "${timed[@]}"; do
		vals=("${fa[$((k - 1))]}" "${fb[$((k - 1))]}" "${ra[$((k - 1))]}" "${rb[$((k - 1))]}")
		awk -v a="${vals[0]}" -v b="${vals[1]}" -v r="${vals[2]}" -v s="${vals[3]}" 'BEGIN {
			lo = a < b ? a : b; hi = a > b ? a : b
			rlo = r < s ? r : s; rhi = r > s ? r : s
			if (hi == 0) exit !(rhi == 0)
			exit !(rlo >= lo / 10 && rhi <= hi * 10) }' ||
			fail "$job: field $k: raidlab ${vals[2]} and ${vals[3]}, fio ${vals[0]} and ${vals[1]}"
	done
	echo "terse: $job: 130 fields of fio's kinds and units"
done

# disable_lat, disable_clat, disable_slat: that latency leaves every output and
# its log, as in fio: JSON (its N 0; clat without percentiles, the latency
# shares 0), terse (its fields 0, clat's percentiles "0%=0", the shares 0), the
# latency log files written (normal output: the shape lines above)
# zeros FILE FIELD...: every named terse field of FILE is a zero of its kind
zeros() {
	local file=$1
	shift
	awk -F';' -v list="$*" 'BEGIN { n = split(list, f, " ") }
		{ for (i = 1; i <= n; i++) if ($f[i] !~ /^0(\.0+)?%?$/ && $f[i] != "0%=0") exit 1 }' "$file"
}
declare -A json_ok=(
	[disable_lat]='.lat_ns.N == 0 and .clat_ns.N > 0'
	[disable_clat]='.clat_ns.N == 0 and (.clat_ns | has("percentile") | not) and .lat_ns.N > 0'
	[disable_slat]='.slat_ns.N == 0 and .clat_ns.N > 0 and .lat_ns.N > 0'
)
# terse fields (1-based) that go to 0: read's and write's lat (38-41, 79-82), or
# clat and its 20 percentiles (14-37, 55-78) with the latency shares (100-121)
declare -A terse_zero=(
	[disable_lat]="38 39 40 41 79 80 81 82"
	[disable_clat]="$(seq -s' ' 14 37) $(seq -s' ' 55 78) $(seq -s' ' 100 121)"
	[disable_slat]="10 11 12 13 51 52 53 54"
)
for opt in disable_lat disable_clat disable_slat; do
	args=(--name=d --rw=randrw --bs=4k --size=4m --ioengine=libaio --iodepth=4 --$opt=1 --write_lat_log=d)
	shares='[.jobs[0] | .latency_ns, .latency_us, .latency_ms | .[]] | add'
	[ $opt = disable_clat ] && extra=" and ($shares) == 0" || extra=" and ($shares) > 99"
	for tool in fio rl; do
		run=(fio)
		[ $tool = rl ] && run=($RAIDLAB run)
		rm -f "$F" d_*.log
		"${run[@]}" "${args[@]}" --filename="$F" --output-format=json >$tool.json ||
			fail "$tool: $opt=1"
		ls d_*.log >$tool.logs
		jq -e "(.jobs[0] | [.read, .write] | all(${json_ok[$opt]}))$extra" $tool.json >/dev/null ||
			fail "$tool, $opt=1: JSON's latencies are not as expected"
		"${run[@]}" "${args[@]}" --filename="$F" --minimal >$tool.t || fail "$tool: $opt=1 --minimal"
		zeros $tool.t ${terse_zero[$opt]} || { cat $tool.t; fail "$tool, $opt=1: terse fields not 0"; }
	done
	diff fio.logs rl.logs || fail "$opt=1: the latency logs differ from fio's (<)"
	echo "$opt: JSON, terse and logs as fio's"
done

# significant_figures: the digits of the normal output's figures with a unit, as
# fio's: the job line's block sizes and the I/O sizes are the same in both
# (16 MiB read), the rates have at most that many characters (digits and point)
sized() { grep -oE '(bs=\(R\) [^,]*|io=[^,]*)' "$1"; }
figures() { grep -oE '(IOPS|BW|bw)=[0-9.]+' "$1" | sed 's/^[A-Za-z]*=//'; }
for sf in 1 2 6 10; do
	args=(--name=s --rw=read --bs=4k --size=16m --significant_figures=$sf)
	rm -f "$F"
	fio "${args[@]}" --filename="$F" --ioengine=psync >fio.txt || fail "fio: significant_figures=$sf"
	$RAIDLAB run "${args[@]}" --filename="$F" >rl.txt || fail "raidlab: significant_figures=$sf"
	diff <(sized fio.txt) <(sized rl.txt) ||
		fail "significant_figures=$sf: block sizes or I/O sizes differ from fio's (<)"
	for tool in fio rl; do
		[ -n "$(figures $tool.txt)" ] || fail "$tool, significant_figures=$sf: no figures found"
		figures $tool.txt | awk -v sf=$sf 'length($0) > sf { exit 1 }' ||
			{ cat $tool.txt; fail "$tool, significant_figures=$sf: a figure has more characters"; }
	done
	# with 10, no rate here needs a prefix: bytes per second in full, as fio's
	if [ $sf = 10 ]; then
		grep -qE 'BW=[0-9]+B/s \([0-9]+B/s\)' rl.txt || { cat rl.txt; fail "significant_figures=10: BW"; }
	fi
done
echo "significant_figures: sizes as fio's, rates within the digits"

# --- usr_cpu, sys_cpu, ctx: each job's own, as fio's (its jobs are processes) ---
# Two clones spinning on the null target: each one's CPU is its thread's
# (and a share of the rest), never the process's two threads together; with
# group_reporting the figure is the average per job, and ctx the sum.  (A
# spinning thread beside other tests on a busy machine may get little CPU:
# above 0.5 % says it was measured at all.)
$RAIDLAB run --name=c --target='null(size=1g)' --rw=randread --bs=4k --iodepth=8 --numjobs=2 \
	--runtime=1 --time_based --output-format=json >cpu.json || fail "raidlab: cpu, numjobs=2"
jq -e '(.jobs | length) == 2 and all(.jobs[]; .usr_cpu + .sys_cpu > 0.5 and .usr_cpu + .sys_cpu <= 102)' \
	cpu.json >/dev/null || { jq -c '[.jobs[] | [.usr_cpu, .sys_cpu, .ctx]]' cpu.json;
	fail "numjobs=2: a job's CPU is not its own thread's (0-100 % each)"; }
$RAIDLAB run --name=c --target='null(size=1g)' --rw=randread --bs=4k --iodepth=8 --numjobs=2 \
	--group_reporting --runtime=1 --time_based --output-format=json >cpug.json ||
	fail "raidlab: cpu, group_reporting"
jq -e '(.jobs | length) == 1 and .jobs[0].usr_cpu + .jobs[0].sys_cpu > 0.5 and
	.jobs[0].usr_cpu + .jobs[0].sys_cpu <= 102' cpug.json >/dev/null ||
	{ jq -c '[.jobs[] | [.usr_cpu, .sys_cpu, .ctx]]' cpug.json;
	fail "group_reporting: the CPU figure is not the average per job"; }
echo "cpu: each job's own, the group's average"
echo "fio_outputs: ok"
