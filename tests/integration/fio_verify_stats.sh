#!/usr/bin/env bash
# A verify pass in the statistics, each check beside fio itself:
#  - a write job with verify reads its blocks back, and those reads count as
#    reads, as fio counts them: "issued rwts: total=1024,1024", a read block
#    with its percentiles in the normal output and the JSON, a READ line in
#    the run status, and the read direction's runtime the pass's own (not the
#    write phase's: its bandwidth is the verify pass's), and the job's
#    runtime (job_runtime) both phases', as fio's;
#  - a verify failure is the job's error EILSEQ (84), as fio reports it:
#    "err=84" in the normal output, "error": 84 in the JSON, terse field 5,
#    and the same exit status as fio's.
. "$(dirname "$0")/lib.sh"
need fio
need jq

# run TOOL ARGS...: raidlab run or fio with ARGS
run() {
	local tool=$1
	shift
	if [ "$tool" = fio ]; then fio "$@"; else $RAIDLAB run "$@"; fi
}

# 1. write + verify: the verify reads are read I/O
args=(--name=v --rw=write --bs=4k --size=4m --verify=crc32c)
for tool in fio rl; do
	rm -f v.img
	run $tool "${args[@]}" --filename=v.img --output-format=json >$tool.json || fail "$tool: write + verify"
	jq -e '.jobs[0] | .read.total_ios == 1024 and .write.total_ios == 1024 and
		.read.io_bytes == 4194304 and (.read.clat_ns | has("percentile")) and
		.read.runtime > 0 and .read.bw_bytes > 0 and .error == 0' $tool.json >/dev/null ||
		fail "$tool: the verify reads are not counted: $(jq -c '.jobs[0].read | [.total_ios, .io_bytes, .runtime]' $tool.json)"
	rm -f v.img
	run $tool "${args[@]}" --filename=v.img >$tool.txt || fail "$tool: write + verify (normal)"
	grep -q '^     issued rwts: total=1024,1024,0,0 ' $tool.txt || fail "$tool: issued rwts: $(grep issued $tool.txt)"
	grep -q '^  read: IOPS=' $tool.txt || fail "$tool: no read block"
	grep -q '^    clat percentiles' $tool.txt || fail "$tool: no percentiles"
	grep -q '^   READ: bw=' $tool.txt || fail "$tool: no READ line in the run status"
	grep -cE '^    clat percentiles' $tool.txt >$tool.npct
done
diff fio.npct rl.npct || fail "the number of percentile blocks differs from fio's"
# the read runtime is the verify pass's, not the write phase's: with the
# writes held to 2 MB/s (2 s for 4 MiB) and the verify reads free, the reads'
# runtime is a small part of the writes' (runtimes are whole milliseconds,
# as fio's: two short phases can round to the same one, so they are made
# far apart rather than compared for inequality)
rm -f v.img
run rl "${args[@]}" --rate=,2m --filename=v.img --output-format=json >rl_rate.json ||
	fail "rl: write + verify at a write rate"
rt=$(jq -r '.jobs[0] | [.read.runtime, .write.runtime] | @csv' rl_rate.json)
jq -e '.jobs[0] | .write.runtime >= 1500 and .read.runtime * 4 < .write.runtime' rl_rate.json >/dev/null ||
	fail "the read runtime is the write phase's: $rt"
echo "write + verify: 1024 reads and 1024 writes counted, as fio (runtimes $rt)"

# 1b. the job's runtime holds the verify pass, as fio's job_runtime (its
# total_run_time) does: at least the two phases' runtimes, less a
# millisecond's rounding each (fio rounds each phase up); 32 MiB, so that
# the verify pass takes well over those milliseconds
for tool in fio rl; do
	rm -f v.img
	run $tool --name=v --rw=write --bs=4k --size=32m --verify=crc32c --filename=v.img \
		--output-format=json >$tool.json || fail "$tool: write + verify, 32 MiB"
	jq -e '.jobs[0] | .read.runtime >= 5 and .job_runtime + 2 >= .read.runtime + .write.runtime' $tool.json >/dev/null ||
		fail "$tool: job_runtime leaves the verify pass out: $(jq -c '.jobs[0] | [.job_runtime, .write.runtime, .read.runtime]' $tool.json)"
done
echo "job_runtime holds both phases: fio $(jq -c '.jobs[0] | [.job_runtime, .write.runtime, .read.runtime]' fio.json), raidlab $(jq -c '.jobs[0] | [.job_runtime, .write.runtime, .read.runtime]' rl.json)"

# 2. a verify failure: err=84 (EILSEQ)
fio --name=w --filename=p.img --rw=write --bs=4k --size=1m --verify=pattern --verify_pattern=0xaa \
	--do_verify=0 >/dev/null || fail "fio: laying out the pattern"
bad=(--name=r --filename=p.img --rw=read --bs=4k --size=1m --verify=pattern --verify_pattern=0x55)
for tool in fio rl; do
	rc=0
	run $tool "${bad[@]}" --output-format=json >$tool.json 2>/dev/null || rc=$?
	echo $rc >$tool.rc
	# fio writes its error line before the document on stdout
	sed -n '/^{/,$p' $tool.json | jq -e '.jobs[0].error == 84' >/dev/null ||
		fail "$tool: JSON error is not 84: $(grep '"error"' $tool.json)"
	run $tool "${bad[@]}" >$tool.txt 2>/dev/null || true
	grep -qE '^r: \(groupid=0, jobs=1\): err=84 \(' $tool.txt || fail "$tool: $(grep groupid $tool.txt)"
	run $tool "${bad[@]}" --minimal 2>/dev/null | grep '^3;' | cut -d';' -f5 >$tool.terse || true
	[ "$(cat $tool.terse)" = 84 ] || fail "$tool: terse error field: $(cat $tool.terse)"
done
diff fio.rc rl.rc || fail "exit status after a verify failure: fio's (<), raidlab's (>)"
echo "verify failure: err=84 in text, JSON and terse, exit status $(cat rl.rc), as fio"
