#!/usr/bin/env bash
# Details of `raidlab run` that scripts written for fio read, side by side
# with fio on the same command lines and job files:
#  - exit status: 1 for a bad option, a bad value, a bad or missing job file
#    and no job at all, as fio's (raidlab's other commands keep 2 for usage);
#  - JSON "job options": exactly the options the job's own section or
#    command line gave, as typed (1m stays 1m), under fio's name for an alias
#    (readwrite is rw), without bare flags (time_based), in fio's order (a
#    job file's filename last), and no key at all for a job that gave none;
#    "global options" only where [global] or options before the first --name
#    gave some;
#  - --fsync=N: fsync(2), not fdatasync(2), once every N writes, each timed:
#    the "sync" block's N and lat_ns statistics as fio's (the same count, a
#    time of each call), and the normal output's "sync" latency lines;
#  - write_bw_log: no sample after the job's runtime (requests in flight at
#    the end used to add one past it);
#  - per-I/O logs (log_avg_msec=0, fio's default): a line per I/O in each of
#    the lat, clat, slat, bw and iops logs, with each I/O's size and offset
#    (log_offset=1) as fio's; disable_bw leaves the bw log empty; no slat
#    lines for a synchronous engine; under the random map a zone of
#    zonemode=strided has each block once (t/strided.py's check);
#  - --enghelp=ENGINE: the names fio lists, in fio's order (raidlab marks
#    those it does not take);
#  - "IO submit": the share of submit calls by how many requests each took,
#    as fio's, not everything at the job's depth;
#  - bw_agg: a job's mean bw sample as a share of its reporting group's
#    rate, by fio's definition (stat.c), so two like jobs without
#    group_reporting each show about half.
. "$(dirname "$0")/lib.sh"
need fio
need jq
cd "$T"

# --- exit status: fio's 1 for every bad invocation ---
printf '[j]\nrw=read\nbogus=1\n' >bad.fio
cases=(
	"--name=x --bogus=1 --filename=$T/e.img --size=1m"
	"--name=x --rw=foo --filename=$T/e.img --size=1m"
	"--size=1m"
	"$T/missing.fio"
	"$T/bad.fio"
)
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086 # each case is several words
	rc=0; fio $c >fio.out 2>&1 || rc=$?
	[ $rc = 1 ] || fail "fio exited $rc on '$c' (the premise: fio's status is 1)"
	# shellcheck disable=SC2086
	rc=0; $RAIDLAB run $c >rl.out 2>rl.err || rc=$?
	[ $rc = 1 ] || { cat rl.err; fail "raidlab run exited $rc on '$c', fio 1"; }
	[ -s rl.err ] || fail "raidlab run said nothing on '$c'"
done
# a suite's bad usage stays raidlab's 2
expect_fail 2 "no target" $RAIDLAB run cdm --size=1m

# --- "job options" and "global options", in fio's order ---
opts() { jq -c '[."global options", [.jobs[] | ."job options"]]' "$1"; }
same() { # NAME ARGS...: fio and raidlab on the same arguments; their option lists equal
	local name=$1
	shift
	fio "$@" --output-format=json --output=fio.json >/dev/null 2>&1 || fail "$name: fio failed"
	$RAIDLAB run "$@" --output-format=json --output=rl.json 2>rl.err ||
		{ cat rl.err; fail "$name: raidlab run failed"; }
	[ "$(opts rl.json)" = "$(opts fio.json)" ] ||
		fail "$name: raidlab's options $(opts rl.json), fio's $(opts fio.json)"
	echo "$name: $(opts fio.json)"
}
same "one job" --name=x --filename="$T/a.img" --size=1m --readwrite=write --fsync=4 \
	--time_based --runtime=200ms --direct=0 --blockalign=4k
same "options before --name" --size=1M --directory="$T" --name=a --rw=write --bs=4K \
	--size=512k --name=b --numjobs=2
cat >g.fio <<EOF
[global]
filename=$T/g.img
size=1m
bs=4k

[a]
rw=write
fsync=4

[b]
rw=read
stonewall

[c]
kb_base=1000
filename=$T/c.img
rw=randread
EOF
same "job file" g.fio
same "job file and command line" g.fio --bs=8k
printf '[only]\nfilename=%s\nsize=64k\n' "$T/o.img" >none.fio
same "no global" none.fio
jq -e 'has("global options") | not' rl.json >/dev/null || fail "\"global options\" without any"
printf '[global]\nfilename=%s\nsize=64k\n[empty]\n' "$T/o.img" >empty.fio
same "a job of nothing" empty.fio
jq -e '.jobs[0] | has("job options") | not' rl.json >/dev/null ||
	fail "a job given nothing of its own: raidlab wrote \"job options\""
# --- fsync=N and fdatasync=N: the system call, the count, the times ---
need strace
syncs() { # TOOL ARGS...: "fsync N fdatasync M" the run made
	# (LeakSanitizer cannot run under ptrace: leaks are checked by the other runs)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -c -e trace=fsync,fdatasync -o sc.txt "$@" >/dev/null 2>&1 || fail "$*"
	echo "fsync $(awk '$NF == "fsync" { print $4 }' sc.txt) fdatasync $(awk '$NF == "fdatasync" { print $4 }' sc.txt)"
}
for kind in fsync fdatasync; do
	job=(--name=s --size=1m --rw=write --$kind=4)
	f=$(syncs fio "${job[@]}" --filename="$T/sf.img")
	r=$(syncs $RAIDLAB run "${job[@]}" --filename="$T/sr.img")
	echo "--$kind=4: fio's system calls: $f; raidlab's: $r"
	[ "$r" = "$f" ] || fail "--$kind=4: raidlab made '$r', fio '$f'"
	fio "${job[@]}" --filename="$T/sf.img" --output-format=json --output=fio.json >/dev/null
	$RAIDLAB run "${job[@]}" --filename="$T/sr.img" --output-format=json --output=rl.json
	pick='.jobs[0].sync | [.total_ios, .lat_ns.N, (.lat_ns.percentile | keys)]'
	[ "$(jq -c "$pick" rl.json)" = "$(jq -c "$pick" fio.json)" ] ||
		fail "--$kind=4: raidlab's sync $(jq -c "$pick" rl.json), fio's $(jq -c "$pick" fio.json)"
	# each sync timed: a real time, in the order of fio's (a sync is not free)
	jq -e '.jobs[0].sync.lat_ns | .min > 0 and .min <= .mean and .mean <= .max and
		.percentile["50.000000"] > 0' rl.json >/dev/null ||
		fail "--$kind=4: the syncs are not timed: $(jq -c '.jobs[0].sync.lat_ns' rl.json)"
	# normal output: fio's sync lines and the syncs among the issued requests
	fio "${job[@]}" --filename="$T/sf.img" >fio.txt
	$RAIDLAB run "${job[@]}" --filename="$T/sr.img" >rl.txt
	# (the figures, their unit and how many percentiles fit a row vary from run to run)
	shape='s/[0-9][0-9.]*/N/g; s/ +/ /g; s/\((nsec|usec|msec)\)/(unit)/'
	for want in '^  fsync/fdatasync/sync_file_range:$' '^    sync ([nu]sec\|msec): min=' \
		'^    sync percentiles ('; do
		grep -q "$want" fio.txt || fail "fio's output has no '$want' (the premise)"
		grep -q "$want" rl.txt || { cat rl.txt; fail "--$kind=4: no '$want' in raidlab's output"; }
	done
	[ "$(grep -A2 '^  fsync/' rl.txt | sed -E "$shape")" = "$(grep -A2 '^  fsync/' fio.txt | sed -E "$shape")" ] ||
		{ diff <(grep -A2 '^  fsync/' fio.txt) <(grep -A2 '^  fsync/' rl.txt); fail "--$kind=4: the sync lines"; }
	[ "$(grep -o 'issued rwts: total=[0-9,]*' rl.txt)" = "$(grep -o 'issued rwts: total=[0-9,]*' fio.txt)" ] ||
		fail "--$kind=4: $(grep -o 'issued rwts: total=[0-9,]*' rl.txt), fio $(grep -o 'issued rwts: total=[0-9,]*' fio.txt)"
done
# end_fsync's sync is neither counted nor timed, as in fio
$RAIDLAB run --name=e --size=1m --rw=write --end_fsync=1 --filename="$T/sr.img" \
	--output-format=json --output=rl.json
jq -e '.jobs[0].sync | .total_ios == 0 and .lat_ns.N == 0' rl.json >/dev/null ||
	fail "end_fsync's sync was counted: $(jq -c '.jobs[0].sync' rl.json)"
# --- bandwidth logs: no sample after the job's runtime, as fio's ---
# (a paced job of 1.6 s and a time-based one of 1 s; requests in flight at the
# end complete after it, in an interval fio does not log)
for shape in "--size=16m --rate=10m" "--size=16m --runtime=1 --time_based"; do
	for tool in fio "$RAIDLAB run"; do
		# shellcheck disable=SC2086 # the shape and the tool are several words
		$tool --name=b --filename="$T/bw.img" --rw=randread $shape --log_avg_msec=300 \
			--write_bw_log=bwl --output-format=json --output=bw.json >/dev/null ||
			fail "$tool $shape failed"
		rt=$(jq '.jobs[0].read.runtime' bw.json)
		last=$(tail -1 bwl_bw.1.log | cut -d, -f1)
		echo "${tool%% *} $shape: runtime $rt ms, bw log's last sample at $last ms"
		[ "$last" -le "$rt" ] || fail "${tool%% *} $shape: a bw sample at $last ms, after the runtime ($rt ms)"
		rm -f bwl_bw.1.log
	done
done
# --- per-I/O logs: log_avg_msec=0, fio's default ---
# logs TOOL ARGS...: run TOOL, then describe its logs in TOOL.desc: per log
# its line count and column counts, the sorted "direction bs offset" of the
# lines, the iops log's distinct values, and whether lat >= clat line by line
logs() {
	local tool=$1 f
	shift
	rm -f pio_*.log
	if [ "$tool" = fio ]; then fio "$@" >/dev/null; else $RAIDLAB run "$@" >/dev/null; fi ||
		fail "$tool $*"
	for f in lat clat slat bw iops; do
		[ -e "pio_$f.1.log" ] || { echo "$f: none"; continue; }
		echo "$f: $(wc -l <"pio_$f.1.log") lines, columns $(awk -F, '{ print NF }' "pio_$f.1.log" | sort -u | tr '\n' ' ')"
		awk -F', ' '{ print $3, $4, $5 }' "pio_$f.1.log" | sort | md5sum
	done >"$tool.desc"
	echo "iops values: $(cut -d, -f2 pio_iops.1.log | sort -u | tr -d ' ' | tr '\n' ' ')" >>"$tool.desc"
	[ -e pio_lat.1.log ] || return 0
	paste -d, pio_lat.1.log pio_clat.1.log | awk -F, '$2 + 0 < $8 + 0 { bad++ } END { print "lat < clat:", bad + 0 }' >>"$tool.desc"
}
pio=(--name=pio --filename="$T/pio.img" --size=1m --bs=4k --rw=randwrite --ioengine=libaio
	--iodepth=4 --direct=1 --log_offset=1 --write_lat_log=pio --write_bw_log=pio
	--write_iops_log=pio)
for tool in fio raidlab; do logs $tool "${pio[@]}"; done
cat raidlab.desc
diff fio.desc raidlab.desc || fail "per-I/O logs differ from fio's (above: raidlab's)"
grep -q "^lat: 256 lines, columns 6 $" raidlab.desc || fail "not a line per I/O"
for tool in fio raidlab; do logs $tool "${pio[@]}" --ioengine=psync --disable_bw_measurement=1; done
diff fio.desc raidlab.desc || fail "psync, disable_bw: per-I/O logs differ from fio's"
grep -q "^slat: 0 lines" raidlab.desc && grep -q "^bw: 0 lines" raidlab.desc ||
	fail "psync and disable_bw: slat and bw logs not empty"
# zonemode=strided under the random map: 16 blocks a zone, each once in each pass
for tool in fio raidlab; do
	logs $tool --name=pio --filename="$T/pio.img" --size=1m --bs=4k --rw=randread \
		--zonemode=strided --zonerange=64k --zonesize=128k --log_offset=1 --write_iops_log=pio
	awk -F', ' '{ z = int((NR - 1) / 16); if (seen[z, $5]++) dup++ } END { print "repeats:", dup + 0 }' \
		pio_iops.1.log >"$tool.dup"
done
diff fio.dup raidlab.dup || fail "strided random zones: $(cat raidlab.dup) in raidlab, $(cat fio.dup) in fio"
grep -q "repeats: 0" raidlab.dup || fail "a block repeated within a pass over its zone"
# --- IO submit / complete: the calls that submitted or reaped so many requests ---
# (at iodepth=32 both submit one request a call, as fio's default
# iodepth_batch=1: the "4" bucket, where all used to sit at the depth, "32";
# and both take one completion at a time, iodepth_batch_complete_max's
# default: the complete line's "4" bucket too, where raidlab's io_uring
# reaps used to sit in "32", all that its ring held)
for e in io_uring libaio; do
	qd=(--name=q --filename="$T/qd.img" --size=16m --rw=randread --ioengine=$e --iodepth=32
		--direct=1 --runtime=1 --time_based --output-format=json)
	top='.jobs[0].iodepth_submit | to_entries | max_by(.value) | .key'
	fio "${qd[@]}" --output=fio.json >/dev/null || fail "fio $e"
	$RAIDLAB run "${qd[@]}" --output=rl.json || fail "raidlab $e"
	echo "$e: submit $(jq -c '.jobs[0].iodepth_submit' rl.json), complete $(jq -c '.jobs[0].iodepth_complete' rl.json)"
	[ "$(jq -r "$top" rl.json)" = "$(jq -r "$top" fio.json)" ] ||
		fail "$e: submit calls mostly in '$(jq -r "$top" rl.json)', fio's in '$(jq -r "$top" fio.json)'"
	jq -e '[.jobs[0].iodepth_complete[]] | add | . > 99.9 and . < 100.1' rl.json >/dev/null ||
		fail "$e: the complete shares do not add up: $(jq -c '.jobs[0].iodepth_complete' rl.json)"
	for f in fio rl; do
		jq -e '.jobs[0].iodepth_complete["4"] > 95' $f.json >/dev/null ||
			fail "$e: $f reaps more than four at a time: $(jq -c '.jobs[0].iodepth_complete' $f.json)"
	done
done
# and both end the queue as fio's loop does: what is still in flight when
# the last request has gone out comes back in one call, so a job of a fixed
# size has fio's very line (iodepth 16: 4081 calls of one, then one of 15,
# the "16" bucket, which fio prints as 0.1 %; raidlab used to show 0 there)
for e in io_uring libaio; do
	qd=(--name=q --filename="$T/qd.img" --size=16m --bs=4k --rw=randread --ioengine=$e
		--iodepth=16 --direct=1 --output-format=json)
	fio "${qd[@]}" --output=fio.json >/dev/null || fail "fio $e"
	$RAIDLAB run "${qd[@]}" --output=rl.json || fail "raidlab $e"
	line() { jq -c '.jobs[0].iodepth_complete | map_values(. * 10000 | round)' "$1"; }
	[ "$(line rl.json)" = "$(line fio.json)" ] ||
		fail "$e: complete line $(line rl.json), fio's $(line fio.json) (per cent x 10^4)"
	jq -e '.jobs[0].iodepth_complete["16"] == 0.1' rl.json >/dev/null ||
		fail "$e: no last call that takes the rest: $(jq -c '.jobs[0].iodepth_complete' rl.json)"
done

# --- a short run's rates: fio takes them from the runtime in whole ms,
# rounded up, so bw_bytes is io_bytes * 1000 / runtime and IOPS likewise
# (raidlab used the exact runtime: a 2.6 ms run of 16 MiB showed 6.4 GB/s
# where fio's rule gives 5.6) ---
rel='.jobs[0].write | .runtime >= 1 and .bw_bytes == ((.io_bytes * 1000 / .runtime) | floor)
	and ((.iops - .total_ios * 1000 / .runtime) | fabs) < 1e-6 and .bw == ((.bw_bytes / 1024) | floor)'
for tool in fio raidlab; do
	run=(fio)
	[ $tool = raidlab ] && run=("$RAIDLAB" run)
	"${run[@]}" --name=short --filename="$T/short.img" --rw=write --bs=128k --size=16m \
		--output-format=json --output=short.json >/dev/null || fail "$tool: the short run"
	jq -e "$rel" short.json >/dev/null ||
		fail "$tool: rates not from whole ms: $(jq -c '.jobs[0].write | [.runtime, .io_bytes, .bw_bytes, .iops]' short.json)"
done

# --- --enghelp=ENGINE: the options fio lists, in its order ---
for e in io_uring libaio cpuio exec net; do
	names() { "$@" --enghelp=$e | cut -d: -f1 | tr -d ' ' | tr '\n' ' '; }
	f=$(names fio)
	r=$(names $RAIDLAB run)
	[ "$r" = "$f" ] || fail "--enghelp=$e: raidlab lists '$r', fio '$f'"
done
# --- bw_agg: the share of the group's rate, by fio's definition ---
# per job and direction: reported, and min(100, whole KiB/s of the mean
# samples x 100 / (group bytes x 1000 / longest runtime / 1024))
agg_def='[.jobs[] | {g: .groupid, io: .read.io_bytes, rt: .read.runtime, m: .read.bw_mean,
	n: .read.bw_samples, p: .read.bw_agg}] as $r | $r[] as $x |
	([$r[] | select(.g == $x.g)] | (map(.io) | add) * 1000 / (map(.rt) | max) | floor) as $agg |
	"\($x.p) \(if $x.n == 0 then 0 elif $agg > 1024 then
		([($x.m | floor) * 100 / ($agg / 1024), 100] | min) else 100 end)"'
for tool in fio raidlab; do
	run=(fio)
	[ $tool = raidlab ] && run=("$RAIDLAB" run)
	"${run[@]}" --name=agg --filename="$T/agg.img" --rw=read --bs=64k --size=16m --numjobs=2 \
		--runtime=1200ms --time_based --output-format=json --output=agg.json >/dev/null ||
		fail "$tool: two jobs"
	jq -r "$agg_def" agg.json >agg.txt
	[ "$(wc -l <agg.txt)" = 2 ] || fail "$tool: bw_agg of two jobs: $(cat agg.txt)"
	while read -r got want; do
		awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 1e-4 && d > -1e-4) }' ||
			fail "$tool: bw_agg $got, by fio's definition $want (a share of the group's rate)"
	done <agg.txt
	# shares of one rate: together about 100 however the two jobs split it
	# (each against its own rate, they would make about 200)
	awk '{ s += $1 } END { exit !(s < 150) }' agg.txt ||
		fail "$tool: the two jobs' bw_agg add up to more than one group's: $(tr '\n' ' ' <agg.txt)"
	echo "$tool: bw_agg of two jobs $(tr '\n' ' ' <agg.txt)"
done
echo "fio_report_details: ok"
