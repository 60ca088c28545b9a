#!/usr/bin/env bash
# Submission latency as fio measures it, each check beside fio itself on the
# same command line:
#  - io_uring and libaio: slat is the time from a request's issue to the
#    return of the submit call that handed it to the kernel, clat the rest;
#    every counted request has all three (slat_ns, clat_ns and lat_ns N equal
#    to total_ios), lat's mean is slat's plus clat's, and slat's mean lies
#    within fio's widened 10x (the noise of a shared machine; a slat that took
#    in the completion, or none at all, is off by far more);
#  - psync: no slat (fio's sync engines record none): N 0, no "slat" line;
#  - the normal output prints the "slat (...)" line where fio does, and
#    terse fields 10-13 (slat) are non-zero there, 38-41 (lat) above 14-17
#    (clat) as fio's;
#  - slat_percentiles=1, lat_percentiles=1, clat_percentiles=0: the same
#    percentile objects in JSON and the same "X percentiles" rows in the
#    normal output as fio's; terse's 20 percentile slots hold lat's with
#    lat_percentiles and are all "0%=0" with clat_percentiles=0.
. "$(dirname "$0")/lib.sh"
need fio
need jq

F="$T/f.img"
base=(--name=s --filename="$F" --rw=randread --bs=4k --size=8m --direct=1)
fio --name=lay --filename="$F" --size=8m --rw=write --bs=1m >/dev/null || fail "fio: laying out"

# run TOOL OUT ARGS...: one run's JSON into OUT
run() {
	local tool=$1 out=$2
	shift 2
	if [ "$tool" = fio ]; then fio "$@" >"$out"; else $RAIDLAB run "$@" >"$out"; fi ||
		fail "$tool $*"
}

for engine in io_uring libaio; do
	args=("${base[@]}" --ioengine=$engine --iodepth=4 --output-format=json)
	for tool in fio rl; do
		run $tool $tool.json "${args[@]}"
		jq -e '.jobs[0].read | .total_ios > 0 and .slat_ns.N == .total_ios and
			.clat_ns.N == .total_ios and .lat_ns.N == .total_ios and .slat_ns.min > 0' \
			$tool.json >/dev/null || fail "$tool, $engine: slat, clat and lat not all counted: \
$(jq -c '.jobs[0].read | [.total_ios, .slat_ns.N, .clat_ns.N, .lat_ns.N, .slat_ns.min]' $tool.json)"
		# lat = slat + clat, request by request: so are the means (1 % for rounding)
		jq -e '.jobs[0].read | (.slat_ns.mean + .clat_ns.mean) / .lat_ns.mean | . > 0.99 and . < 1.01' \
			$tool.json >/dev/null || fail "$tool, $engine: lat's mean is not slat's plus clat's: \
$(jq -c '.jobs[0].read | [.slat_ns.mean, .clat_ns.mean, .lat_ns.mean]' $tool.json)"
	done
	fmean=$(jq '.jobs[0].read.slat_ns.mean' fio.json)
	rmean=$(jq '.jobs[0].read.slat_ns.mean' rl.json)
	awk -v f="$fmean" -v r="$rmean" 'BEGIN { exit !(r >= f / 10 && r <= f * 10) }' ||
		fail "$engine: slat mean $rmean ns, fio's $fmean ns"
	echo "$engine: slat $rmean ns (fio $fmean ns), lat = slat + clat for every request"

	# the normal output: a slat line as fio's, in the same place
	for tool in fio rl; do
		run $tool $tool.txt "${base[@]}" --ioengine=$engine --iodepth=4
		grep -E '^ +(slat|clat|lat) \((nsec|usec|msec)\): min=' $tool.txt | sed -E 's/\(.*//; s/ +/ /g' >$tool.lines
	done
	diff fio.lines rl.lines || fail "$engine: the latency lines differ from fio's (<)"
	[ "$(head -1 rl.lines)" = " slat " ] || fail "$engine: no slat line: $(cat rl.txt)"

	# terse: slat fields 10-13 set, lat 38-41 above clat 14-17
	for tool in fio rl; do
		run $tool $tool.t "${base[@]}" --ioengine=$engine --iodepth=4 --minimal
		awk -F';' '{ exit !($10 > 0 && $11 >= $10 && $12 > 0 && $40 > $16) }' $tool.t ||
			fail "$tool, $engine: terse slat (10-13) or lat (38-41) not measured: $(cut -d';' -f10-17,38-41 $tool.t)"
	done
done

# psync: fio records no slat for a synchronous engine
for tool in fio rl; do
	run $tool $tool.json "${base[@]}" --ioengine=psync --output-format=json
	jq -e '.jobs[0].read | .total_ios > 0 and .slat_ns.N == 0 and .clat_ns.N == .total_ios' \
		$tool.json >/dev/null || fail "$tool, psync: $(jq -c '.jobs[0].read.slat_ns' $tool.json)"
	run $tool $tool.txt "${base[@]}" --ioengine=psync
	! grep -q '^ *slat (' $tool.txt || fail "$tool, psync: a slat line"
done
echo "psync: no slat, as fio"

# which latencies get percentiles: the JSON objects and normal rows of fio's
pcts=(--slat_percentiles=1 --lat_percentiles=1 --clat_percentiles=0)
for tool in fio rl; do
	run $tool $tool.json "${base[@]}" --ioengine=libaio --iodepth=4 "${pcts[@]}" --output-format=json
	jq -r '.jobs[0].read | to_entries[] | select(.value | type == "object" and has("percentile")) | .key' \
		$tool.json >$tool.pkeys
	run $tool $tool.txt "${base[@]}" --ioengine=libaio --iodepth=4 "${pcts[@]}"
	grep -oE '^ +[a-z]+ percentiles' $tool.txt | sed 's/^ *//' >$tool.prows
	run $tool $tool.t "${base[@]}" --ioengine=libaio --iodepth=4 "${pcts[@]}" --minimal
done
printf 'slat_ns\nlat_ns\n' | diff - fio.pkeys || fail "fio's percentile objects changed: $(cat fio.pkeys)"
diff fio.pkeys rl.pkeys || fail "JSON: the latencies with percentiles differ from fio's (<)"
diff fio.prows rl.prows || fail "normal output: the percentile rows differ from fio's (<)"
# terse's percentiles are lat's: its median lies between lat's min and max (fields 38, 39)
awk -F';' '{ split($24, m, "="); exit !(m[1] == "50.000000%" && m[2] >= $38 && m[2] <= $39) }' rl.t ||
	fail "terse: the 50th percentile is not lat's: $(cut -d';' -f18-41 rl.t)"
for tool in fio rl; do
	run $tool $tool.t "${base[@]}" --ioengine=libaio --iodepth=4 --clat_percentiles=0 --minimal
	awk -F';' '{ for (i = 18; i <= 37; i++) if ($i != "0%=0") exit 1 }' $tool.t ||
		fail "$tool: clat_percentiles=0 left terse percentiles: $(cut -d';' -f18-37 $tool.t)"
	run $tool $tool.json "${base[@]}" --ioengine=libaio --iodepth=4 --clat_percentiles=0 \
		--output-format=json+
	jq -e '.jobs[0].read.clat_ns | has("percentile") or has("bins") | not' $tool.json >/dev/null ||
		fail "$tool: clat_percentiles=0 left clat percentiles or bins in JSON"
done
echo "slat_percentiles, lat_percentiles, clat_percentiles: as fio's"
