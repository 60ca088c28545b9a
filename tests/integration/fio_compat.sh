#!/usr/bin/env bash
# fio users at home: fio's command lines and job files run under raidlab, and
# what reads fio's output reads raidlab's.  Checked against fio itself: the
# JSON keys of a job, the sync count of fsync=N, and fio's own
# fio_jsonplus_clat2csv reading --output-format=json+.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need python3
need strace
cd "$T"

# The plain fio command line runs unchanged, and its JSON has fio's shape.
$RAIDLAB run --name=t --filename="$T/x" --size=16m --rw=randread --bs=4k --runtime=1 \
	--time_based --output-format=json --json own.json >rl.json || fail "the plain fio command line"
fio --name=t --filename="$T/fx" --size=16m --rw=randread --bs=4k --runtime=1 --time_based \
	--output-format=json >fio.json 2>/dev/null || fail "fio itself"
for path in '' '.jobs[0]' '.jobs[0].read' '.jobs[0].read.clat_ns' '.jobs[0].sync'; do
	missing=$(jq -n --slurpfile f fio.json --slurpfile r rl.json \
		"(\$f[0]$path | keys) - (\$r[0]$path | keys)")
	[ "$missing" = "[]" ] || fail "raidlab's fio JSON lacks fio's keys at '$path': $missing"
done
jq -e '.jobs | length == 1' rl.json >/dev/null || fail "one job"
jq -e '.jobs[0].jobname == "t" and .jobs[0].read.io_bytes > 0 and .jobs[0].write.io_bytes == 0' \
	rl.json >/dev/null || fail "job name and directions"
# (ms, not s or us; an I/O stalled by a busy shared disk may end the run late)
jq -e '.jobs[0].read.runtime >= 950 and .jobs[0].read.runtime <= 2000' rl.json >/dev/null ||
	fail "runtime is in ms: $(jq .jobs[0].read.runtime rl.json)"
jq -e '(.jobs[0].read.bw_bytes / 1024 | floor) == .jobs[0].read.bw' rl.json >/dev/null ||
	fail "bw is KiB/s, bw_bytes bytes/s"
[ -e "$T/x" ] && [ -e "$T/fx" ] || fail "the test file is not kept after the run, as fio keeps it"
# fio's default direct=0: that command line goes through the page cache in both
# (raidlab's own result holds every option; fio's "job options" only those given)
jq -e '.jobs[0].options.direct == "0"' own.json >/dev/null ||
	fail "the plain fio command line ran with direct=$(jq -r '.jobs[0].options.direct' own.json), fio's default is 0"

# Jobs sharing a file share one opened target: a job that only has fio's
# default (buffered) goes along with one that says direct=1; when two say
# different things each still does what it says, as in fio (which opens the
# file per job): the direct=0 job's reads go through a descriptor without
# O_DIRECT, the direct=1 job's writes through one with it.
printf '[global]\nfilename=%s\nsize=1m\n[a]\nrw=write\ndirect=1\n[b]\nrw=read\n' "$T/sh" >share.fio
$RAIDLAB run share.fio --quiet || fail "a defaulted job beside a direct=1 one"
printf '[global]\nfilename=%s\nsize=1m\nioengine=psync\n[a]\nrw=write\ndirect=1\n[b]\nstonewall\nrw=read\ndirect=0\n' \
	"$T/sh" >share2.fio
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -e trace=openat,pread64,pwrite64 -o share2.st $RAIDLAB run share2.fio --quiet ||
	fail "jobs with direct=1 and direct=0 on one file"
fd_of() { grep "\"$T/sh\", $1) = " share2.st | sed 's/.* = //'; }
dfd=$(fd_of 'O_RDWR|O_DIRECT|O_CLOEXEC') bfd=$(fd_of 'O_RDWR|O_CLOEXEC')
[ -n "$dfd" ] && [ -n "$bfd" ] || fail "share2: the file was not opened both ways"
[ "$(grep -c "pwrite64($dfd," share2.st)" -ge 256 ] && [ "$(grep -c "pread64($bfd," share2.st)" -eq 256 ] ||
	fail "share2: 256 writes through O_DIRECT and 256 reads through the page cache expected"

# fsync=N and end_fsync count syncs as fio does (end_fsync's is not counted).
fio --name=t --filename="$T/fs" --size=1m --rw=write --bs=4k --fsync=4 --end_fsync=1 \
	--output-format=json 2>/dev/null >fio_s.json || fail "fio fsync"
$RAIDLAB run --name=t --filename="$T/rs" --size=1m --rw=write --bs=4k --fsync=4 --end_fsync=1 \
	--output-format=json >rl_s.json || fail "raidlab fsync"
[ "$(jq .jobs[0].sync.total_ios fio_s.json)" = "$(jq .jobs[0].sync.total_ios rl_s.json)" ] ||
	fail "fsync=4: fio synced $(jq .jobs[0].sync.total_ios fio_s.json) times, raidlab $(jq .jobs[0].sync.total_ios rl_s.json)"

# fio's own reader of json+ latency bins.
$RAIDLAB run --name=p --filename="$T/p" --size=4m --rw=randrw --bs=4k --iodepth=4 \
	--ioengine=libaio --output-format=json+ --output=plus.json || fail "json+"
fio_jsonplus_clat2csv plus.json csv >/dev/null || fail "fio_jsonplus_clat2csv cannot read json+"
total=$(jq '.jobs[0].read.total_ios + .jobs[0].write.total_ios' plus.json)
counted=$(python3 -c '
import csv, sys
n = 0
for row in csv.reader(open(sys.argv[1]), skipinitialspace=True):
    if row and row[0].isdigit():
        for col in (4, 13):
            if row[col].strip():
                n += int(row[col])
print(n)' csv_job0)
[ "$total" = "$counted" ] || fail "clat2csv counted $counted I/Os of $total"
jq -e '.jobs[0]."job options".ioengine == "libaio"' plus.json >/dev/null || fail "libaio engine"

# libaio under an array: more children than the executor's iocb table holds
# (1 MiB requests in 4 KiB chunks at depth 64) still all complete
$RAIDLAB run --name=ra --target "raid0(file($T/r1, size=8m), file($T/r2, size=8m), chunk=4k)" \
	--ioengine=libaio --iodepth=64 --bs=1m --rw=write --size=16m --verify=crc32c --quiet ||
	fail "libaio under raid0"

# Jobs of a file run at the same time; stonewall makes the next wait.
cat >two.fio <<JOB
[global]
filename=$T/two
size=8m
runtime=1
time_based
thread
group_reporting
description=two readers
[a]
rw=randread
[b]
rw=read
JOB
$RAIDLAB run two.fio --output-format=json >two.json || fail "two jobs"
# Run one after the other, two jobs would take at least the sum of their
# runtimes, whatever the machine's load; together, one runtime and the
# start-up, which a busy machine stretches (hence 3 s jobs here).
sed -e 's/^runtime=1$/runtime=3/' -e '/group_reporting/d' two.fio >conc.fio
t0=$(date +%s%N)
$RAIDLAB run conc.fio --output-format=json >conc.json || fail "two concurrent jobs"
t1=$(date +%s%N)
sum=$(jq '[.jobs[].job_runtime] | add' conc.json)
[ "$(jq '.jobs | length' conc.json)" = 2 ] && [ $(((t1 - t0) / 1000000)) -lt "$sum" ] ||
	fail "two 3 s jobs took $(((t1 - t0) / 1000000)) ms, their runtimes add up to $sum ms: not concurrent"
# group_reporting: the group's two jobs are reported as one, named after the first
jq -e '[.jobs[] | {jobname, groupid}] == [{"jobname": "a", "groupid": 0}]' two.json >/dev/null ||
	fail "group_reporting: $(jq -c '[.jobs[] | {jobname, groupid}]' two.json)"
jq -e '.jobs[0].read.runtime >= 950 and .jobs[0].read.runtime <= 1200' two.json >/dev/null ||
	fail "group_reporting: runtime $(jq .jobs[0].read.runtime two.json) ms"
grep -v group_reporting two.fio >one.fio
$RAIDLAB run one.fio --output-format=json >one.json || fail "two jobs without group_reporting"
jq -e '[.jobs[] | {jobname, groupid}] == [{"jobname": "a", "groupid": 0}, {"jobname": "b", "groupid": 0}]' \
	one.json >/dev/null || fail "two jobs, one group: $(jq -c '[.jobs[] | {jobname, groupid}]' one.json)"
# the group's figures are the sum of its jobs': two size-bound jobs of 8 MiB in 4 KiB reads
grep -v -e '^runtime' -e '^time_based' two.fio >sized.fio
$RAIDLAB run sized.fio --output-format=json >sized.json || fail "two size-bound jobs"
[ "$(jq '.jobs[0].read.total_ios' sized.json)" -eq 4096 ] ||
	fail "group_reporting did not add the jobs up: $(jq '.jobs[0].read.total_ios' sized.json) I/Os, not 2 x 2048"
sed -i 's/^\[b\]$/[b]\nstonewall/' two.fio
t0=$(date +%s%N)
$RAIDLAB run two.fio --output-format=json >two.json || fail "stonewall"
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -ge 2000 ] || fail "stonewall: both jobs ran in $(((t1 - t0) / 1000000)) ms"
jq -e '[.jobs[].groupid] == [0, 1]' two.json >/dev/null || fail "stonewall starts a group"

# directory= gives every clone its own file JOBNAME.CLONE.0 (as fio).
mkdir d
$RAIDLAB run --name=c --directory="$T/d" --size=1m --numjobs=2 --rw=write --keep --quiet ||
	fail "directory="
[ -s d/c.0.0 ] && [ -s d/c.1.0 ] || fail "directory=: files $(ls d)"

# --parse-only, --section, --showcmd.  A job with no filename= or directory=
# does its I/O, as fio's, on the file NAME.CLONE.0 in the current folder.
printf '[global]\nsize=1m\nnumjobs=2\n[x]\nrw=write\n' >nt.fio
mkdir -p nt-fio nt-raidlab
(cd nt-fio && fio ../nt.fio --output=/dev/null) || fail "fio: a job without a file"
(cd nt-raidlab && $RAIDLAB run ../nt.fio --keep --quiet) || fail "a job without a file"
[ "$(ls nt-fio)" = "$(ls nt-raidlab)" ] && [ "$(ls nt-raidlab | tr '\n' ' ')" = "x.0.0 x.1.0 " ] ||
	fail "default files: fio made $(ls nt-fio), raidlab $(ls nt-raidlab)"
[ "$(stat -c %s nt-raidlab/x.0.0)" = "$(stat -c %s nt-fio/x.0.0)" ] || fail "default file sizes differ"
(cd nt-raidlab && rm -f ./* && $RAIDLAB run ../nt.fio --quiet) || fail "without --keep"
[ "$(ls nt-raidlab | tr '\n' ' ')" = "x.0.0 x.1.0 " ] || fail "the default files are not kept, as fio keeps them"
(cd nt-raidlab && rm -f ./* && $RAIDLAB run ../nt.fio --unlink=1 --quiet) || fail "unlink=1"
[ -z "$(ls nt-raidlab)" ] || fail "unlink=1: the default files were not removed"
$RAIDLAB run nt.fio --parse-only || fail "--parse-only needs no target"
printf '[j]\nfilename=%s/pp\nzonemode=zbd\n' "$T" >bad.fio
expect_fail 1 "bad.fio:3: option 'zonemode': zonemode=zbd needs a zoned block device" $RAIDLAB run bad.fio --parse-only
$RAIDLAB run two.fio --section=b --output-format=json >sec.json || fail "--section"
jq -e '[.jobs[].jobname] == ["b"]' sec.json >/dev/null || fail "--section ran $(jq -c '[.jobs[].jobname]' sec.json)"
$RAIDLAB run two.fio --section=a --showcmd | grep -q -- "--name=a .*--rw=randread" || fail "--showcmd"
expect_fail 1 "--section: no job section named 'zz'" $RAIDLAB run two.fio --section=zz
expect_fail 1 "ioengine 'splice' is not supported by raidlab (supported: io_uring, libaio" \
	$RAIDLAB run --name=t --filename="$T/q" --size=1m --ioengine=splice

# fio's logs, read by fio's own plotting scripts (both ship with fio).
mkdir logs
(cd logs && $RAIDLAB run --name=lg --filename="$T/lg" --size=8m --rw=randrw --runtime=1 \
	--time_based --write_bw_log=lg --write_lat_log=lg --write_iops_log=lg --log_avg_msec=100 \
	--quiet) || fail "write_*_log"
for k in bw iops lat clat slat; do
	[ -s "logs/lg_$k.1.log" ] || fail "no lg_$k.1.log"
	# one line per 100 ms and direction: fio's five columns
	lines=$(wc -l <"logs/lg_$k.1.log")
	[ "$lines" -ge 18 ] && [ "$lines" -le 22 ] || fail "lg_$k.1.log has $lines lines for 1 s of randrw"
	awk -F', ' 'NF != 5 || $3 > 1 { bad = 1 } END { exit bad }' "logs/lg_$k.1.log" ||
		fail "lg_$k.1.log is not in fio's format"
done
if have gnuplot; then
	(cd logs && fio2gnuplot -b -g >f2g.out 2>&1) || { cat logs/f2g.out; fail "fio2gnuplot"; }
	[ -s logs/lg_bw.1-2Draw.png ] || fail "fio2gnuplot drew nothing: $(ls logs)"
	(cd logs && fio_generate_plots raidlab >fgp.out 2>&1) || { cat logs/fgp.out; fail "fio_generate_plots"; }
	for k in bw iops lat clat; do
		grep -q "lg" "logs/raidlab-$k.svg" || fail "fio_generate_plots: no lg in raidlab-$k.svg"
	done
fi

# --status-interval prints fio's report of the figures so far, also when the
# output is a file (tests/integration/fio_outputs.sh compares its shape with
# fio's); with raidlab's own table (--target) a line of the current rates
$RAIDLAB run --name=s --filename="$T/s" --size=4m --rw=randread --runtime=1 --time_based \
	--status-interval=200ms --eta=never --output=status.txt || fail "--status-interval"
n=$(grep -c '^s: (groupid=0, jobs=1): err= 0' status.txt || true)
[ "$n" -ge 4 ] || { cat status.txt; fail "--status-interval=200ms printed $n reports in 1 s"; }
$RAIDLAB run --target "$T/s" --name=s --size=4m --rw=randread --runtime=1 --time_based \
	--status-interval=200ms --eta=never --output=status.txt || fail "--status-interval, --target"
n=$(grep -c '^status: .* read=[0-9.]*MB/s write=0.0MB/s' status.txt || true)
[ "$n" -ge 3 ] || { cat status.txt; fail "--status-interval=200ms printed $n status lines in 1 s"; }

# --minimal prints fio's terse line (version 3, the job name third).
$RAIDLAB run --name=m --filename="$T/m" --size=1m --minimal >terse.txt || fail "--minimal"
IFS=';' read -r ver _ name _ <terse.txt
[ "$ver" = 3 ] && [ "$name" = m ] || fail "terse: $(head -c 80 terse.txt)"
# invalidate=1 (fio's default): a buffered file's page cache is dropped when
# each pass starts, as fio does when it reopens its file for each loop, and
# not after the last (its pages stay cached, as fio leaves them); both tools
# also drop it once after laying a new file out, whatever invalidate says.
# A direct job drops it when it opens the file and at no later pass: pages
# left cached would make each direct write wait for them (with io_uring, go
# to a kernel worker instead of being done in the submit call).  Their
# calls are counted with strace.
if have strace; then
	# LeakSanitizer cannot run under ptrace: the ASan build runs with it off here
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	drops() { # DIRECT TOOL-ARGS...: number of POSIX_FADV_DONTNEED calls
		local direct=$1
		shift
		rm -f "$T/inv"
		strace -f -e trace=fadvise64 -o "$T/inv.st" "$@" --name=i --filename="$T/inv" --size=1m \
			--bs=64k --rw=write --loops=3 --direct=$direct >/dev/null 2>&1 || fail "$*: failed"
		grep -c DONTNEED "$T/inv.st" || true
	}
	for d in 0 1; do
		r1=$(drops $d $RAIDLAB run --invalidate=1)
		r0=$(drops $d $RAIDLAB run --invalidate=0)
		f1=$(drops $d fio --invalidate=1)
		f0=$(drops $d fio --invalidate=0)
		echo "page-cache drops, loops=3, direct=$d: raidlab $r1 (invalidate=0: $r0), fio $f1 ($f0)"
		[ "$r1" = "$f1" ] || fail "direct=$d invalidate=1: raidlab dropped the cache $r1 times, fio $f1"
		[ "$r0" = "$f0" ] || fail "direct=$d invalidate=0: raidlab dropped the cache $r0 times, fio $f0"
	done
	# a time-based direct job wraps around inside one opening (its loops= aside):
	# no drop after its start
	r1=$(drops 1 $RAIDLAB run --runtime=300ms --time_based)
	f1=$(drops 1 fio --runtime=300ms --time_based)
	echo "page-cache drops, time-based, direct=1: raidlab $r1, fio $f1"
	[ "$r1" = "$f1" ] || fail "time_based direct=1: raidlab dropped the cache $r1 times, fio $f1"

	# iodepth_batch (fio's iodepth_batch_submit, default 1): each request goes
	# to the kernel as soon as it is ready, as fio does; 0 batches a whole
	# iodepth.  The largest io_submit() of each run, counted with strace.
	batch() { # TOOL-ARGS...: most iocbs handed over in one io_submit
		strace -f -e trace=io_submit -o "$T/b.st" "$@" --name=b --filename="$T/b" --size=4m \
			--bs=4k --rw=randread --ioengine=libaio --direct=1 --iodepth=8 --number_ios=400 \
			>/dev/null 2>&1 || fail "$*: failed"
		sed -n 's/.*io_submit([^,]*, \([0-9]*\),.*/\1/p' "$T/b.st" | sort -n | tail -1
	}
	b1=$(batch $RAIDLAB run)
	b0=$(batch $RAIDLAB run --iodepth_batch=0)
	fb=$(batch fio)
	echo "largest io_submit, iodepth=8: raidlab $b1 (iodepth_batch=0: $b0), fio $fb"
	[ "$b1" = 1 ] && [ "$fb" = 1 ] || fail "default batch: raidlab $b1, fio $fb iocbs at once"
	[ "$b0" = 8 ] || fail "iodepth_batch=0: at most $b0 iocbs at once, expected 8"

	# iodepth_batch_complete_max (default: _min, 1): fio takes one completion
	# per io_getevents() call, so a buffered job, whose requests are done
	# inside io_submit, makes one such call per request; raidlab took every
	# finished one in a call and so spent a third less CPU per request than
	# fio on the same job.  Calls counted with strace, per 100 requests.
	reaps() { # TOOL-ARGS...: io_getevents() calls per 100 requests
		rm -f "$T/g"
		strace -f -e trace=io_getevents -o "$T/g.st" "$@" --name=g --filename="$T/g" --size=4m \
			--bs=4k --rw=randwrite --ioengine=libaio --direct=0 --iodepth=8 --number_ios=400 \
			>/dev/null 2>&1 || fail "$*: failed"
		echo $(($(grep -c 'io_getevents(' "$T/g.st") * 100 / 400))
	}
	g1=$(reaps $RAIDLAB run)
	g8=$(reaps $RAIDLAB run --iodepth_batch_complete_max=8)
	gf=$(reaps fio)
	echo "io_getevents per 100 buffered requests, iodepth=8: raidlab $g1" \
		"(iodepth_batch_complete_max=8: $g8), fio $gf"
	[ "$gf" -ge 90 ] || fail "fio made $gf io_getevents calls per 100 requests, expected about 100"
	[ "$g1" -ge $((gf - 5)) ] && [ "$g1" -le $((gf + 5)) ] ||
		fail "default: raidlab made $g1 io_getevents calls per 100 requests, fio $gf"
	[ "$g8" -le 25 ] || fail "iodepth_batch_complete_max=8: $g8 calls per 100 requests"

	# A new file is allocated first (fio's fallocate=native) in both
	# programs; a write-only job's is not filled, one a job reads is laid
	# out with data (tests/integration/fio_file_service.sh compares every
	# fallocate= mode).
	falloc() { # RW TOOL-ARGS...: fallocate() calls while the file is made
		local rw=$1; shift
		rm -f "$T/fa"
		strace -f -e trace=fallocate -o "$T/fa.st" "$@" --name=f --filename="$T/fa" --size=2m \
			--bs=64k --rw="$rw" >/dev/null 2>&1 || fail "$*: failed"
		grep -c "fallocate(.*, 0, 0, 2097152)" "$T/fa.st" || true
	}
	w_rl=$(falloc write $RAIDLAB run)
	w_fio=$(falloc write fio)
	r_fio=$(falloc read fio)
	r_rl=$(falloc read $RAIDLAB run --keep)
	echo "fallocate on a new file: write-only raidlab $w_rl, fio $w_fio; read job raidlab $r_rl, fio $r_fio"
	[ "$w_rl" = 1 ] && [ "$w_fio" = 1 ] || fail "write-only: raidlab $w_rl, fio $w_fio fallocate calls"
	[ "$r_rl" = "$r_fio" ] || fail "read job: raidlab $r_rl, fio $r_fio fallocate calls"
	[ "$(tr -d '\0' <"$T/fa" | head -c 4096 | wc -c)" -eq 4096 ] ||
		fail "a read job's file was allocated but not laid out with data"

	# Where the I/O buffers start: a buffered job's sit where malloc put
	# them, as fio's do (the page cache copies slower from there, so this
	# shows in buffered throughput); O_DIRECT or mem_align page-align them.
	# pwrite's buffer address, read with strace, modulo a page.
	bufoff() { # TOOL-ARGS...: distinct buffer offsets within a page
		rm -f "$T/al"
		strace -f -e trace=pwrite64 -e raw=pwrite64 -o "$T/al.st" "$@" --name=a \
			--filename="$T/al" --size=4m --bs=1m --rw=write --ioengine=psync \
			>/dev/null 2>&1 || fail "$*: failed"
		sed -n 's/.*pwrite64(0x[0-9a-f]*, \(0x[0-9a-f]*\),.*/\1/p' "$T/al.st" |
			while read -r a; do echo $((a % 4096)); done | sort -un | tr '\n' ' '
	}
	for args in "--direct=0" "--direct=1" "--direct=0 --mem_align=4096" "--direct=1 --mem_align=512"; do
		# shellcheck disable=SC2086
		o_rl=$(bufoff $RAIDLAB run $args)
		# shellcheck disable=SC2086
		o_fio=$(bufoff fio $args)
		echo "buffer offsets in a page, $args: raidlab '$o_rl', fio '$o_fio'"
		if [ "$args" = --direct=0 ]; then
			# malloc's address: off a page boundary in both (the exact
			# offset is the allocator's, and ASan builds have their own)
			case " $o_rl $o_fio " in
			*" 0 "*) fail "$args: buffers at '$o_rl', fio's at '$o_fio': one is page aligned" ;;
			esac
			[ -n "$o_rl" ] && [ -n "$o_fio" ] || fail "$args: no pwrite seen"
		else
			[ -n "$o_rl" ] && [ "$o_rl" = "$o_fio" ] || fail "$args: buffers at '$o_rl', fio's at '$o_fio'"
		fi
	done
fi
expect_fail 1 "mem_align=100 is not a multiple of" $RAIDLAB run --name=a --filename="$T/al" \
	--size=1m --direct=1 --mem_align=100
# buffered I/O takes any placement: odd offsets write and verify
$RAIDLAB run --name=v --filename="$T/v" --size=1m --bs=8k --rw=randwrite --direct=0 \
	--mem_align=3 --verify=crc32c --quiet >/dev/null || fail "mem_align=3, buffered: write and verify"
finish
