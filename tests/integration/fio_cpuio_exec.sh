#!/usr/bin/env bash
# fio's engines that do no I/O: cpuio burns cpuload percent of a CPU and
# exec runs a program for the job's runtime.  Their requests are counted and
# timed as fio counts them (total_ios, clat) but move no bytes (io_bytes,
# bw and iops 0, as fio reports them); a cpuio job idles so that it is busy
# cpuload percent of the time and reports its own CPU; exec's program gets
# %r and %n replaced, writes to JOB.stdout, and is gone, stopped by SIGTERM
# (or SIGKILL after grace_time), when the job ends.  Bounds below only ever
# limit what a request may do at most or least, never how fast the machine is.
. "$(dirname "$0")/lib.sh"
need fio
need jq

# --- cpuio: chunks of cpuchunks, idling (100 - cpuload) / cpuload of each ---
$RAIDLAB run --name=c --ioengine=cpuio --cpuload=25 --cpuchunks=20000 --time_based \
	--runtime=1s --output-format=json >c.json || fail "cpuio job"
ios=$(jqv c.json '.jobs[0].read.total_ios')
[ "$(jqv c.json '[.jobs[0].read.io_bytes, .jobs[0].write.io_bytes, .jobs[0].read.iops,
	.jobs[0].read.bw, .jobs[0].read.runtime] | add')" = 0 ] || fail "cpuio moved bytes: $(cat c.json)"
# each burn spins 20 ms of wall clock, then the job idles 3 x as long: at most
# 1 s / 80 ms + 1 requests (without the idling, 50 would fit)
[ "$ios" -ge 1 ] && [ "$ios" -le 13 ] || fail "cpuio: $ios burns of 20 ms at 25 % in 1 s"
awk -v m="$(jqv c.json '.jobs[0].read.clat_ns.min')" 'BEGIN { exit !(m >= 20000000) }' ||
	fail "cpuio: a burn shorter than cpuchunks ($(jqv c.json '.jobs[0].read.clat_ns.min') ns)"
# busy at most cpuload percent of the time (and some of it)
cpu=$(jqv c.json '.jobs[0].usr_cpu + .jobs[0].sys_cpu')
awk -v c="$cpu" 'BEGIN { exit !(c > 0 && c <= 35) }' || fail "cpuio at 25 %: cpu $cpu %"
# fio's own figures of the same job obey the same bounds (the model is fio's)
fio --name=c --ioengine=cpuio --cpuload=25 --cpuchunks=20000 --time_based --runtime=1s \
	--output-format=json 2>/dev/null | sed -n '/^{/,$p' >f.json || fail "fio cpuio"
fios=$(jqv f.json '.jobs[0].read.total_ios')
[ "$fios" -ge 1 ] && [ "$fios" -le 13 ] && [ "$(jqv f.json '.jobs[0].read.io_bytes')" = 0 ] ||
	fail "fio's cpuio job: $fios burns (is the bound wrong?)"

# qsort: the burn is the sort, however long it takes; still no bytes
$RAIDLAB run --name=q --ioengine=cpuio --cpuload=50 --cpumode=qsort --time_based \
	--runtime=100ms --output-format=json >q.json || fail "cpuio qsort"
[ "$(jqv q.json '.jobs[0].read.total_ios')" -ge 1 ] &&
	[ "$(jqv q.json '.jobs[0].read.io_bytes')" = 0 ] || fail "cpuio qsort: $(cat q.json)"

# beside a job that does I/O (1000 reads at 1000 a second: at least 1 s) and one
# that burns a whole CPU, a cpuio job reports its own thread's CPU, not the
# process's; with exit_on_io_done it ends with the I/O job, not at its runtime
$RAIDLAB run --output-format=json --name=io --filename='null(size=4000k)' --rw=read --bs=4k \
	--rate_iops=1000 --name=burn --ioengine=cpuio --cpuload=10 --cpuchunks=10000 \
	--exit_on_io_done=1 --time_based --runtime=60s \
	--name=hog --ioengine=cpuio --cpuload=100 --time_based --runtime=1s >x.json ||
	fail "cpuio beside I/O"
[ "$(jqv x.json '.jobs[1].job_runtime')" -lt 60000 ] ||
	fail "exit_on_io_done: the cpuio job ran its whole runtime"
cpu=$(jqv x.json '.jobs[1].usr_cpu + .jobs[1].sys_cpu')
awk -v c="$cpu" 'BEGIN { exit !(c <= 20) }' || fail "cpuio at 10 % beside I/O: cpu $cpu %"

# bad values name the option
expect_fail 1 "option 'cpuload': expected a whole number from 1 to 100" \
	$RAIDLAB run --name=c --ioengine=cpuio --cpuload=150 --runtime=1s
expect_fail 1 "ioengine=cpuio needs cpuload=" $RAIDLAB run --name=c --ioengine=cpuio --runtime=1s
expect_fail 1 "option 'cpumode': expected noop or qsort, got 'sort'" \
	$RAIDLAB run --name=c --ioengine=cpuio --cpuload=5 --cpumode=sort
printf '[c]\nioengine=cpuio\ncpuload=5\ncpuchunks=0\n' >bad.fio
expect_fail 1 "bad.fio:4: option 'cpuchunks'" $RAIDLAB run bad.fio

# --- exec: the program runs for the runtime, then SIGTERM ---
cat >prog.sh <<'EOF'
#!/bin/sh
# ARGS... : echo them, note the start, and on SIGTERM note it and exit
echo "$@"
echo "start $(date +%s%N) $$" >>"$LOG"
trap 'echo "term $(date +%s%N)" >>"$LOG"; exit 0' TERM
while :; do sleep 0.02; done
EOF
chmod +x prog.sh
export LOG=$T/log
# running PID: the process exists and is not a zombie (fio does not reap its
# program; once fio exits, init does, a moment later)
running() {
	local st
	st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
for tool in raidlab fio; do
	rm -rf "$tool" && mkdir "$tool" && : >"$LOG"
	args=(--name=ex --ioengine=exec --program="$T/prog.sh" '--arguments=%n ran %r s'
		--time_based --runtime=1s --grace_time=2 --output-format=json)
	if [ $tool = fio ]; then
		(cd fio && fio "${args[@]}" | sed -n '/^{/,$p' >out.json) || fail "fio exec"
	else
		(cd raidlab && $RAIDLAB run "${args[@]}" >out.json) || fail "raidlab exec"
	fi
	# %n and %r replaced, the output in JOB.stdout of the current folder
	[ "$(cat $tool/ex.stdout)" = "ex ran 1 s" ] || fail "$tool exec: stdout '$(cat $tool/ex.stdout)'"
	read -r _ t0 pid < <(grep '^start' "$LOG")
	! running "$pid" || fail "$tool exec: the program outlived the job"
	# (fio 3.33's job mostly ends before its check of the runtime sends SIGTERM,
	# and its cleanup sends SIGKILL; raidlab sends the SIGTERM its HOWTO describes)
	[ $tool = fio ] && continue
	read -r _ t1 < <(grep '^term' "$LOG") || fail "$tool exec: the program got no SIGTERM"
	[ $(((t1 - t0) / 1000000)) -ge 900 ] ||
		fail "$tool exec: SIGTERM after $(((t1 - t0) / 1000000)) ms, not at the runtime"
done
[ "$(jqv raidlab/out.json '.jobs[0].read.io_bytes')" = 0 ] &&
	[ "$(jqv raidlab/out.json '.jobs[0].read.total_ios')" -ge 2 ] ||
	fail "exec: requests counted without bytes: $(cat raidlab/out.json)"

# a program that ignores SIGTERM is killed grace_time later; std_redirect=0 leaves no files
cat >stubborn.sh <<'EOF'
#!/bin/sh
echo "$$" >"$LOG"
trap '' TERM
while :; do sleep 0.02; done
EOF
chmod +x stubborn.sh
mkdir s && (cd s && $RAIDLAB run --name=st --ioengine=exec --program="$T/stubborn.sh" \
	--time_based --runtime=300ms --grace_time=1 --std_redirect=0 --quiet) >/dev/null ||
	fail "exec of a program ignoring SIGTERM"
! running "$(cat "$LOG")" || fail "exec: a program ignoring SIGTERM outlived the job"
[ -z "$(ls s)" ] || fail "exec std_redirect=0 made files: $(ls s)"

expect_fail 1 "ioengine=exec needs program=" $RAIDLAB run --name=e --ioengine=exec --runtime=1s
expect_fail 1 "option 'grace_time': expected a whole number from 0 to 3600" \
	$RAIDLAB run --name=e --ioengine=exec --program=true --runtime=1s --grace_time=-1
exit 0
