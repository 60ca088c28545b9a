#!/usr/bin/env bash
# fio's io_uring engine options, as the kernel sees them: each job runs
# under fio and under raidlab with the same option while a private tracefs
# instance records only that process's io_uring events; the ring's setup
# flags (IOPOLL, SQPOLL, SQ_AFF) and each submission's opcode (READ,
# READV, READ_FIXED) and flags (IOSQE_FIXED_FILE, IOSQE_ASYNC) must be the
# same for both tools.  Then what the trace cannot show: nowait fails a
# buffered read of uncached pages with EAGAIN in both; uncached leaves the
# pages out of the page cache (fincore; fio 3.33 sets a flag this kernel
# reads otherwise, so raidlab is checked on its own); userspace_reap takes
# libaio's completions without io_getevents (strace), as fio does; and an
# engine option given to another engine is refused, as fio refuses it.
# test-timeout: 300
. "$(dirname "$0")/lib.sh"
need fio
need strace
need fincore
[ "$(id -u)" = 0 ] || skip_env "needs root for tracefs"
tr=/sys/kernel/tracing
[ -d $tr/instances ] || mount -t tracefs nodev $tr 2>/dev/null || true
[ -d $tr/instances ] || skip_env "no tracefs"
inst=$tr/instances/raidlab-uring.$$
mkdir $inst || skip_env "cannot make a tracefs instance"
cleanup_hooks+=("rmdir $inst")
[ -d $inst/events/io_uring ] || skip_env "the kernel has no io_uring trace events"

f=$T/data
head -c $((16 << 20)) /dev/urandom >"$f"
base=(--name=x --filename="$f" --size=16m --rw=randread --bs=4k --ioengine=io_uring --direct=1
	--iodepth=8 --number_ios=64 --output-format=terse)

# traced OUT CMD...: run CMD with its io_uring events recorded into OUT
traced() {
	local out=$1
	shift
	echo >$inst/trace
	echo 1 >$inst/options/event-fork
	local rc=0
	# the filter first (this subshell, which becomes the tool), then the events
	(
		echo $BASHPID >$inst/set_event_pid
		echo 1 >$inst/events/io_uring/io_uring_create/enable
		echo 1 >$inst/events/io_uring/io_uring_submit_req/enable
		exec "$@"
	) >"$out.stdout" 2>&1 || rc=$?
	echo $rc >"$out.rc"
	[ $rc = 0 ] || [ "$out" = fio.hipri ] || [ "$out" = rl.hipri ] || { cat "$out.stdout"; fail "$* failed"; }
	echo 0 >$inst/events/io_uring/enable
	echo >$inst/set_event_pid
	cat $inst/trace >"$out"
}

# summary TRACE: the setup flags we compare, then each opcode/flags pair with its count
summary() {
	python3 - "$1" <<'PY'
import re, sys, collections
n = collections.Counter()
for line in open(sys.argv[1]):
    # only the tool's own tasks (a pid the filter kept may since be another program's)
    if not re.match(r"\s*(fio|raidlab)-\d+ ", line):
        continue
    m = re.search(r"io_uring_create: .*flags (0x[0-9a-f]+)", line)
    if m:
        f = int(m.group(1), 16)
        n["setup iopoll=%d sqpoll=%d sq_aff=%d" % (f & 1 != 0, f & 2 != 0, f & 4 != 0)] += 1
    m = re.search(r"io_uring_submit_req: .*opcode ((?:READ|WRITE)\w*), flags (0x[0-9a-f]+)", line)
    if m:
        f = int(m.group(2), 16)
        n["%s fixed_file=%d async=%d" % (m.group(1), f & 1 != 0, f & 16 != 0)] += 1
for k in sorted(n):
    print(k, n[k])
PY
}

for opt in "" --fixedbufs --registerfiles --nonvectored=0 --nonvectored=1 --force_async=4 \
	--sqthread_poll "--sqthread_poll --sqthread_poll_cpu=1" --hipri; do
	name=${opt:-default}
	name=${name#--}
	name=${name// --/+}
	traced fio.$name fio "${base[@]}" $opt
	traced rl.$name "$RAIDLAB" run "${base[@]}" $opt
	summary fio.$name >fio.$name.sum
	summary rl.$name >rl.$name.sum
	if [ "$name" = hipri ]; then
		# the requests fail here; how often the kernel reissues a failed polled
		# request before it gives up depends on timing: compare kinds, not counts
		sed -i 's/ [0-9]*$//' fio.$name.sum rl.$name.sum
	fi
	[ -s fio.$name.sum ] || fail "$name: no io_uring events from fio"
	diff fio.$name.sum rl.$name.sum >/dev/null ||
		fail "$name: the kernel saw fio and raidlab differently:
$(diff fio.$name.sum rl.$name.sum)"
	echo "$name: $(tr '\n' ';' <rl.$name.sum)"
done
# hipri: where the device has no poll queues (a virtio disk) fio's requests fail
# with EOPNOTSUPP, and so must raidlab's, with the same exit status
if grep -q '^3;[^;]*;x;0;95;' fio.hipri.stdout; then
	grep -q '^3;[^;]*;x;0;95;' rl.hipri.stdout || fail "hipri: no EOPNOTSUPP: $(cat rl.hipri.stdout)"
fi
[ "$(cat fio.hipri.rc)" = "$(cat rl.hipri.rc)" ] ||
	fail "hipri: fio exited $(cat fio.hipri.rc), raidlab $(cat rl.hipri.rc)"

# nowait: a buffered read of pages not in the cache fails with EAGAIN, in both
for engine in io_uring libaio; do
	nw=(--name=x --filename="$f" --size=16m --rw=read --bs=4k --ioengine=$engine --iodepth=8
		--nowait=1 --output-format=terse)
	echo 1 >/proc/sys/vm/drop_caches 2>/dev/null || skip_env "cannot drop the page cache"
	fio "${nw[@]}" >fio.nowait 2>&1 || true
	echo 1 >/proc/sys/vm/drop_caches
	"$RAIDLAB" run "${nw[@]}" >rl.nowait 2>&1 || true
	grep -q '^3;[^;]*;x;0;11;' fio.nowait || fail "fio with $engine nowait: $(cat fio.nowait)"
	grep -q '^3;[^;]*;x;0;11;' rl.nowait ||
		fail "raidlab with $engine nowait: not EAGAIN: $(cat rl.nowait)"
done

# uncached: buffered reads leave nothing in the page cache; without it they do
resident() { fincore --bytes --noheadings --output RES "$f" | tr -d ' '; }
un=(--name=x --filename="$f" --size=16m --rw=read --bs=64k --ioengine=io_uring --iodepth=4
	--output-format=terse)
echo 1 >/proc/sys/vm/drop_caches
"$RAIDLAB" run "${un[@]}" >/dev/null
with=$(resident)
echo 1 >/proc/sys/vm/drop_caches
"$RAIDLAB" run "${un[@]}" --uncached=1 >rl.uncached 2>&1 || fail "uncached: $(cat rl.uncached)"
without=$(resident)
echo "page cache after 16 MiB of buffered reads: $with bytes, with uncached=1 $without"
[ "$with" -ge $((8 << 20)) ] || fail "plain buffered reads left only $with bytes cached"
[ "$without" -lt $((1 << 20)) ] || fail "uncached=1 left $without bytes in the page cache"

# userspace_reap (libaio): polls that do not wait read the ring, not io_getevents
# (LeakSanitizer cannot run under ptrace: the ASan build runs with it off here)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ur=(--name=x --filename="$f" --size=16m --rw=randread --bs=4k --ioengine=libaio --direct=1
	--iodepth=8 --number_ios=2000 --iodepth_batch_complete_min=0 --output-format=terse)
calls() { strace -f -c -e trace=io_getevents "$@" 2>&1 >/dev/null | awk '$NF == "io_getevents" { print $4 }'; }
for tool in fio "$RAIDLAB run"; do
	plain=$(calls $tool "${ur[@]}")
	user=$(calls $tool "${ur[@]}" --userspace_reap)
	echo "$tool: io_getevents calls $plain, with userspace_reap ${user:-0}"
	[ "${plain:-0}" -gt 100 ] || fail "$tool without userspace_reap: ${plain:-0} io_getevents calls"
	[ "${user:-0}" -lt $((plain / 10)) ] || fail "$tool with userspace_reap: $user io_getevents calls"
done

# an engine's option belongs to that engine
expect_fail 1 "fixedbufs is an option of the io_uring engine" \
	"$RAIDLAB" run --name=x --filename="$f" --size=1m --ioengine=psync --fixedbufs
expect_fail 1 "userspace_reap is an option of the libaio engine" \
	"$RAIDLAB" run --name=x --filename="$f" --size=1m --ioengine=io_uring --userspace_reap
echo ok
