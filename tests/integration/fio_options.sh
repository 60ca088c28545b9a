#!/usr/bin/env bash
# fio's flow, steady state, latency_target, numa_cpu_nodes and dedupe
# options do what fio documents: each check fails if the option is ignored,
# and where fio can run the same thing here its output is compared.
. "$(dirname "$0")/lib.sh"
need jq
need md5sum

# --- flow: two jobs of weights 1 and 3 issue in that ratio ---
cat >flow.fio <<'EOF'
[global]
ioengine=null
size=1g
bs=4k
rw=randread
norandommap
time_based
runtime=500ms
[light]
flow=1
[heavy]
flow=3
EOF
ratio() { jq -r '.jobs[1].read.total_ios / .jobs[0].read.total_ios' "$1"; }
$RAIDLAB run flow.fio --output-format=json >flow.json
r=$(ratio flow.json)
awk -v r="$r" 'BEGIN { exit !(r > 2.7 && r < 3.3) }' || fail "flow 1:3 gave a ratio of $r"
if have fio; then
	fio flow.fio --output-format=json >flow-fio.json
	rf=$(ratio flow-fio.json)
	# the peer's figure is shown, not judged: fio's flow control drifts on a
	# busy machine (4.8 seen beside other tests), raidlab's is checked above
	echo "flow 1:3: raidlab $r, fio $rf"
fi
# in simulated time too (one thread, one clock)
sed 's/^ioengine=null/target=ssd(x25v)\nsize=64m\niodepth=4/; s/^size=1g//' flow.fio >flow-sim.fio
$RAIDLAB run flow-sim.fio --output-format=json >flow-sim.json
r=$(ratio flow-sim.json)
awk -v r="$r" 'BEGIN { exit !(r > 2.7 && r < 3.3) }' || fail "simulated flow 1:3 gave $r"

# --- steady state: a rate-limited job is steady at once and ends early ---
ss=(--name=ss --ioengine=null --size=1g --rw=read --bs=4k --rate_iops=2000 --time_based
	--runtime=20 --ss=iops:20% --ss_dur=2)
$RAIDLAB run "${ss[@]}" --output-format=json >ss.json
jq -e '.jobs[0].steadystate.attained == 1' ss.json >/dev/null || fail "steady state not attained"
rt=$(jqv ss.json '.jobs[0].job_runtime')
[ "$rt" -lt 6000 ] || fail "the job ran $rt ms: steady state did not end it"
jq -e '.jobs[0].steadystate.data.iops | length == 2 and all(. > 1800 and . < 2200)' ss.json \
	>/dev/null || fail "steady state samples: $(jq -c .jobs[0].steadystate.data ss.json)"
if have fio; then
	fio "${ss[@]}" --output-format=json >ss-fio.json
	for f in ss.json ss-fio.json; do
		jq -c '.jobs[0].steadystate | [keys, (.data | keys), .ss, .duration, .attained,
			(.data.iops | length)]' "$f"
	done >ss-shape
	[ "$(sed -n 1p ss-shape)" = "$(sed -n 2p ss-shape)" ] ||
		{ cat ss-shape; fail "raidlab's steadystate block differs from fio's"; }
fi

# --- latency_target: on a simulated drive the depth found grows with the target ---
lat() {
	$RAIDLAB run --target='ssd(x25v)' --name=l --rw=randread --bs=4k --iodepth=64 \
		--size=64m --runtime=3 --time_based --latency_target="$1" --latency_window=100ms \
		--latency_percentile=99 --output-format=json >"lat-$1.json"
	jqv "lat-$1.json" '.jobs[0].latency_depth'
}
d1=$(lat 200) d2=$(lat 1000)
[ "$d1" -gt 1 ] && [ "$d1" -lt "$d2" ] && [ "$d2" -lt 64 ] ||
	fail "latency_target depths: $d1 at 200us, $d2 at 1000us (iodepth 64)"
for t in 200 1000; do
	jq -e --argjson t "$t" '.jobs[0] | .read.clat_ns.percentile["99.000000"] <= $t * 1000 * 1.05
		and .latency_target == $t * 1000 and .job_runtime < 3000' "lat-$t.json" >/dev/null ||
		fail "latency_target=$t: $(jq -c '.jobs[0] | [.latency_depth, .job_runtime,
			.read.clat_ns.percentile["99.000000"]]' "lat-$t.json")"
done

# --- numa_cpu_nodes: the worker thread runs on node 0's CPUs, wherever it started ---
node0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null || true)
if [ -z "$node0" ] || [ "$node0" = 0 ]; then
	defer_skip_env "node 0 has ${node0:-no} CPUs listed: numa_cpu_nodes cannot widen a set pinned to CPU 0"
elif have taskset; then
	# started on CPU 0 only; node 0 has more, so binding to it widens the worker's set
	taskset -c 0 $RAIDLAB run --name=n --ioengine=null --size=1g --rw=read --time_based \
		--runtime=1500ms --numa_cpu_nodes=0 --quiet &
	pid=$!
	seen=
	for _ in $(seq 1 20); do
		sleep 0.05
		for st in /proc/$pid/task/*/status; do
			grep -q "^Cpus_allowed_list:[[:space:]]*$node0\$" "$st" 2>/dev/null && seen=1
		done
		[ -n "$seen" ] && break
	done
	wait $pid || fail "numa_cpu_nodes run failed"
	[ -n "$seen" ] || fail "no thread ran on node 0's CPUs ($node0)"
fi
expect_fail 1 "option 'numa_cpu_nodes'" $RAIDLAB run --name=n --ioengine=null --size=1m \
	--numa_cpu_nodes=0-x
expect_fail 1 "numa_cpu_nodes: none of the nodes" $RAIDLAB run --name=n --ioengine=null \
	--size=1m --numa_cpu_nodes=63

# --- dedupe_percentage: half of the written blocks repeat ---
unique_blocks() {
	mkdir -p blk && (cd blk && split -b 4096 "../$1" b. && md5sum b.* | cut -d' ' -f1 |
		sort -u | wc -l) && rm -rf blk
}
dd_opts=(--name=d --filename=dd.img --size=4m --bs=4k --rw=write --dedupe_percentage=50)
$RAIDLAB run "${dd_opts[@]}" --keep --quiet
u=$(unique_blocks dd.img)
[ "$u" -gt 430 ] && [ "$u" -lt 600 ] || fail "dedupe_percentage=50: $u of 1024 blocks unique"
$RAIDLAB run "${dd_opts[@]}" --dedupe_mode=working_set --dedupe_working_set_percentage=10 \
	--keep --quiet
u=$(unique_blocks dd.img)
[ "$u" -gt 430 ] && [ "$u" -lt 600 ] || fail "working_set: $u of 1024 blocks unique"
if have fio; then
	rm -f dd.img
	fio "${dd_opts[@]}" >/dev/null
	uf=$(unique_blocks dd.img)
	[ "$uf" -gt 430 ] && [ "$uf" -lt 600 ] || fail "fio's dedupe_percentage=50: $uf unique"
fi

# --- verify=meta: a reading job checks the headers and pattern another job wrote ---
meta=(--bs=64k --verify=meta --verify_pattern=0xaa555aa5 --verify_interval=512)
$RAIDLAB run --name=w --filename=m.img --size=1m --rw=write "${meta[@]}" --do_verify=0 \
	--keep --quiet
$RAIDLAB run --name=r --filename=m.img --size=1m --rw=randread "${meta[@]}" --json r.json \
	--quiet
[ "$(jqv r.json '.jobs[0].verify.blocks')" -eq 16 ] || fail "verify=meta read checked $(jqv r.json .jobs[0].verify)"
printf '\000' | dd of=m.img bs=1 seek=300000 conv=notrunc 2>/dev/null
expect_fail 1 "pattern mismatch at offset 300000" $RAIDLAB run --name=r --filename=m.img \
	--size=1m --rw=read "${meta[@]}"
printf 'XXXX' | dd of=m.img bs=1 seek=3584 conv=notrunc 2>/dev/null
expect_fail 1 "no verify header at offset 3584" $RAIDLAB run --name=r --filename=m.img \
	--size=1m --rw=read --bs=64k --verify=meta --verify_interval=512
# a writing job reads its blocks back
rm -f m.img
$RAIDLAB run --name=w --filename=m.img --size=1m --rw=randwrite --bs=16k --verify=meta \
	--json w.json --quiet
[ "$(jqv w.json '.jobs[0].verify.blocks')" -eq 64 ] || fail "verify=meta write pass: $(jqv w.json .jobs[0].verify)"

# --- fill_device: ENOSPC ends the job as done (a 1 MiB tmpfs under a 4 MiB file) ---
mkdir -p small
if mount -t tmpfs -o size=1m tmpfs small 2>/dev/null; then
	cleanup_hooks+=("umount '$T/small'")
	fill=(--name=f --filename=small/f --size=4m --bs=64k --rw=write --direct=0)
	truncate -s 4m small/f
	$RAIDLAB run "${fill[@]}" --fill_device=1 --output-format=json >fill.json
	[ "$(jqv fill.json '.jobs[0].write.io_bytes')" -eq 1048576 ] || fail "fill_device wrote $(jqv fill.json .jobs[0].write.io_bytes) bytes"
	rm -f small/f && truncate -s 4m small/f
	expect_fail 1 "No space left on device" $RAIDLAB run "${fill[@]}"
else
	defer_skip_env "cannot mount a tmpfs (not root, or no CAP_SYS_ADMIN): fill_device"
fi

# --- cmdprio_percentage, prioclass, log_prio: priorities reach the kernel and the logs ---
prio=(--name=p --ioengine=io_uring --filename=p.img --size=2m --bs=4k --rw=randread --direct=1
	--iodepth=4 --prioclass=3 --cmdprio_percentage=30 --cmdprio_class=1 --write_lat_log=pl)
if have strace; then
	# (LeakSanitizer cannot run under ptrace: leaks are checked by the other runs)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=io_submit -o st.txt $RAIDLAB run "${prio[@]}" --ioengine=libaio --quiet
	rt=$(grep -o 'aio_reqprio=IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT' st.txt | wc -l)
	idle=$(grep -o 'aio_reqprio=IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE' st.txt | wc -l)
	[ "$rt" -gt 0 ] && [ "$idle" -gt 0 ] &&
		awk -v a="$rt" -v b="$idle" 'BEGIN { s = a / (a + b); exit !(s > 0.2 && s < 0.4) }' ||
		fail "cmdprio_percentage=30: $rt real time and $idle idle requests reached io_submit"
fi
prio_logs() { # TOOL OUT: the log's distinct last column and column count, the JSON's classes
	cut -d, -f5 pl_clat.1.log | tr -d ' ' | sort -u | tr '\n' ' ' >"$2"
	awk -F, '{ print NF }' pl_clat.1.log | sort -u >>"$2"
	jq -c '[.jobs[0].read.prios[].prioclass] | sort' "$1.json" >>"$2"
}
rm -f p.img
$RAIDLAB run "${prio[@]}" --log_prio=1 --keep --output-format=json >raidlab.json
prio_logs raidlab raidlab.prio
grep -q '^0x2000 0x6000 5$' raidlab.prio || { cat raidlab.prio; fail "log_prio: priority column"; }
$RAIDLAB run "${prio[@]}" --log_prio=0 --output-format=json >raidlab.json
cut -d, -f5 pl_clat.1.log | tr -d ' ' | sort -u | tr '\n' ' ' | grep -q '^0 1 $' ||
	fail "without log_prio the column is 1 for the real time class, 0 for others"
if have fio; then
	fio "${prio[@]}" --log_prio=1 --output-format=json >fio.json
	prio_logs fio fio.prio
	diff raidlab.prio fio.prio || fail "log_prio logs or prios differ from fio's"
fi

# --- per-direction bssplit and cmdprio_bssplit: sizes and priorities per direction ---
split=(--name=s --ioengine=libaio --filename=s.img --size=4m --rw=rw --direct=1 --iodepth=4
	--time_based --runtime=300ms
	--bssplit=4k/100,64k/100 --prioclass=3 --cmdprio_bssplit=4k/100,64k/0 --cmdprio_class=1)
split_sizes() { # JSON: the size of every read and of every write
	jq -r '.jobs[0] | "\(.read.io_bytes / .read.total_ios) \(.write.io_bytes / .write.total_ios)"' "$1"
}
rm -f s.img
$RAIDLAB run "${split[@]}" --output-format=json >split.json
[ "$(split_sizes split.json)" = "4096 65536" ] ||
	fail "bssplit=4k/100,64k/100: reads and writes were $(split_sizes split.json) bytes each"
jq -e '.jobs[0].read.prios | length == 1 and .[0].prioclass == 1' split.json >/dev/null ||
	fail "cmdprio_bssplit=4k/100: not every read carried cmdprio_class=1"
if have fio; then
	fio "${split[@]}" --output-format=json >split-fio.json
	[ "$(split_sizes split-fio.json)" = "4096 65536" ] || fail "fio's own sizes differ"
fi
if have strace; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=io_submit -o st2.txt $RAIDLAB run "${split[@]}" --quiet
	# each iocb's priority class and size, in that order: 4 KiB ones (reads) real
	# time, the others (writes) the job's idle class
	grep -o 'IOPRIO_CLASS_[A-Z]*\|aio_nbytes=[0-9]*' st2.txt | paste - - | sort -u >st2.sum
	grep -q 'RT.*=4096$' st2.sum && ! grep -v '=4096$' st2.sum | grep -q RT &&
		! grep -q 'IDLE.*=4096$' st2.sum ||
		fail "cmdprio_bssplit: the priorities that reached io_submit by size differ"
fi

# --- continue_on_error: a job goes past injected read errors and counts them ---
coe=(--target='faulty(null(size=64m), rate=5, ops=read)' --name=c --rw=randread --size=4m
	--bs=4k --output-format=json)
$RAIDLAB run "${coe[@]}" --continue_on_error=read --error_dump=0 >coe.json 2>coe.err ||
	{ cat coe.err; fail "continue_on_error=read failed the run"; }
jq -e '.jobs[0] | .error == 0 and .first_error == 5 and .total_err > 20 and .total_err < 90
	and .read.total_ios + .total_err == 1024' coe.json >/dev/null ||
	fail "continue_on_error=read: $(jq -c '.jobs[0] | [.total_err, .read.total_ios]' coe.json)"
grep -q "continue_on_error went past" coe.err || fail "no note of the continued errors"
# the wrong kind, or an errno not listed, stops the job at the first error
for o in --continue_on_error=write "--continue_on_error=read --ignore_error=ENOSPC"; do
	rc=0
	$RAIDLAB run "${coe[@]}" $o >coe.json 2>/dev/null || rc=$?
	[ "$rc" -eq 1 ] && jq -e '.jobs[0] | .error == 5 and .read.total_ios < 200' coe.json \
		>/dev/null || fail "$o: the job went on past an error it should stop at"
done

# --- verify_backlog: corruption is found while the job writes ---
# job b zeroes the file 100 ms into a's paced write: with verify_backlog=64 and
# verify_fatal, a finds it at its next backlog check and stops half way; without,
# a writes everything and finds it only in the pass at the end
cat >bl.fio <<'EOF'
[global]
filename=bl.img
size=1m
bs=4k
rw=write
[a]
verify=crc32c
verify_backlog=64
verify_fatal=1
rate_iops=1000
[b]
zero_buffers=1
startdelay=100ms
EOF
rm -f bl.img
expect_fail 1 "verify failed" $RAIDLAB run bl.fio --json bl.json
a=$(jqv bl.json '.jobs[0].write.bytes')
[ "$a" -lt 1048576 ] && [ "$(jqv bl.json '.jobs[0].verify.blocks')" -ge 64 ] ||
	fail "verify_backlog: a wrote $a bytes, checked $(jqv bl.json .jobs[0].verify)"
sed -i '/verify_backlog/d' bl.fio
rm -f bl.img
expect_fail 1 "verify failed" $RAIDLAB run bl.fio --json bl.json
[ "$(jqv bl.json '.jobs[0].write.bytes')" -eq 1048576 ] || fail "without verify_backlog a stopped early"
# a write error stops the job; what the backlog already checked is counted
$RAIDLAB run --target='faulty(mem(size=8m), fail-after=20, ops=write)' --name=b --rw=write \
	--size=1m --bs=4k --verify=crc32c --verify_backlog=8 --json fb.json --quiet 2>/dev/null && fail "no write error"
[ "$(jqv fb.json '.jobs[0].verify.blocks')" -eq 8 ] || fail "verify_backlog=8 before the error: $(jqv fb.json .jobs[0].verify)"

# --- io_size: more I/O than the region goes round it again, as in fio ---
io=(--name=i --ioengine=null --size=1m --io_size=3m --rw=randread --output-format=json)
[ "$($RAIDLAB run "${io[@]}" | jq '.jobs[0].read.io_bytes')" -eq 3145728 ] || fail "io_size=3m"
if have fio; then
	[ "$(fio "${io[@]}" | jq '.jobs[0].read.io_bytes')" -eq 3145728 ] || fail "fio's io_size=3m"
fi

# --- bad values name the option and the job file line ---
# job file body (printf format) | the message raidlab must give
bad=(
	"[global]\nioengine=null\nsize=1m\n[a]\nss=iops\n|bad.fio:5: option 'ss'"
	"[a]\nioengine=null\nsize=1m\nflow=-1\n|bad.fio:4: option 'flow'"
	"[a]\nioengine=null\nsize=1m\nlatency_percentile=0\n|bad.fio:4: option 'latency_percentile'"
	"[a]\nioengine=psync\nsize=1m\ncmdprio_percentage=10\n|cmdprio_percentage needs ioengine=io_uring or libaio"
	"[a]\nioengine=null\nsize=1m\ncontinue_on_error=maybe\n|bad.fio:4: option 'continue_on_error'"
	"[a]\nioengine=null\nsize=1m\nignore_error=,ENOTANERRNO\n|bad.fio:4: option 'ignore_error': 'ENOTANERRNO' is not an errno"
	"[a]\nioengine=null\nsize=1m\ncmdprio_class=4\n|bad.fio:4: option 'cmdprio_class'"
	"[a]\nioengine=null\nsize=1m\nverify=meta\nverify_pattern=0xzz\n|bad.fio:5: option 'verify_pattern'"
	"[a]\nioengine=null\nsize=1m\nrw=read\nverify_interval=4k\n|bad.fio:1: job 'a': verify_interval applies to verify=meta"
)
for case in "${bad[@]}"; do
	# shellcheck disable=SC2059
	printf "${case%%|*}" >bad.fio
	expect_fail 1 "${case#*|}" $RAIDLAB run bad.fio
done
finish
