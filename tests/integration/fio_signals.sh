#!/usr/bin/env bash
# SIGTERM, SIGINT and SIGHUP stop a run in any state at once, as fio does:
# fio's own 1mbs_clients.fio (32 rate-limited jobs, most still in their
# startdelay), a rate-limited job between two of its paced requests, a job
# in its startdelay, a net receiver waiting for its peer, and a suite in the pause between two of its tests.  A job run exits with fio's status
# (128 after SIGINT or SIGTERM, fio's exit_value; 129 after SIGHUP, what a
# shell sees of fio killed by it), a suite with 1, each within a bound far above
# the code's aim (it stops within the 50 ms a worker sleeps at most), so a
# busy machine does not fail it, while the old behaviour (waiting out the
# delay or the pace: 2 minutes for 1mbs_clients.fio) does; the partial
# result is written and marked "interrupted", the test files removed.
. "$(dirname "$0")/lib.sh"
need jq
need fio
need python3
BOUND_MS=20000 # 4.9 s seen under ASan at load 25; the old behaviour took 120 s

# stop_after_start SIGNAL FILE CMD...: start CMD, wait until FILE exists (the
# run is under way), give it a moment in its waits, send SIGNAL; prints the
# milliseconds from the signal to the exit; the exit status is in $T/rc
stop_after_start() {
	local file=$2
	stop_when "$1" "test -e $file" "${@:3}"
}
# stop_when SIGNAL CHECK CMD...: the same, CHECK (a command) saying the run is under way
stop_when() {
	local sig=$1 check=$2 pid t0 t1 rc=0
	shift 2
	"$@" >"$T/run.out" 2>"$T/run.err" &
	pid=$!
	for _ in $(seq 600); do $check && break; sleep 0.05; done
	$check || { kill -KILL $pid; fail "$* never got to: $check"; }
	sleep 0.5
	t0=$(date +%s%N)
	kill -"$sig" $pid
	wait $pid || rc=$?
	t1=$(date +%s%N)
	echo $rc >"$T/rc"
	echo $(((t1 - t0) / 1000000))
}

# fio's example, edited as for fio: a scratch folder, files shrunk (32m -> 4m)
# (Debian's fio-examples package: the file as fio ships it, runtime and delays unchanged)
ex=/usr/share/doc/fio/examples/1mbs_clients.fio
[ -r "$ex" ] || skip "fio-examples is not installed"
mkdir -p ex/tmp
sed 's/^size=32m$/size=4m/' "$ex" >ex/1mbs.fio
grep -q '^size=4m$' ex/1mbs.fio && grep -q '^directory=tmp$' ex/1mbs.fio &&
	grep -q '^startdelay=20$' ex/1mbs.fio || fail "1mbs_clients.fio changed"
cd ex
ms=$(stop_after_start TERM tmp/file2.0.0 fio 1mbs.fio --output=/dev/null)
fio_rc=$(cat "$T/rc")
echo "fio stopped in $ms ms, exit status $fio_rc"
[ "$fio_rc" = 128 ] || fail "fio exited $fio_rc after SIGTERM; the checks below expect its 128"
[ -n "$(ls tmp)" ] || fail "fio removed its files after SIGTERM; the checks below assume it keeps them"
rm -rf tmp/*
ms=$(stop_after_start TERM tmp/file2.0.0 $RAIDLAB run 1mbs.fio --json "$T/clients.json" --output=/dev/null)
echo "raidlab stopped in $ms ms"
[ "$(cat "$T/rc")" = "$fio_rc" ] ||
	{ cat "$T/run.err"; fail "1mbs_clients: exit status $(cat "$T/rc"), fio's $fio_rc"; }
[ "$ms" -lt $BOUND_MS ] || fail "1mbs_clients.fio: SIGTERM took $ms ms"
grep -q 'interrupted' "$T/run.err" || fail "1mbs_clients: no interrupted note"
jq -e '.interrupted == true and (.jobs | length) == 32' "$T/clients.json" >/dev/null ||
	fail "1mbs_clients: the partial result is not written and marked"
# the files stay, as fio's do (unlink=0), and are the job's own: nothing else
[ -e tmp/file2.0.0 ] || fail "1mbs_clients: the job's files are not kept, as fio keeps them"
[ -z "$(ls tmp | grep -v '^file[0-9]*\.0\.0$')" ] || fail "1mbs_clients: stray files: $(ls tmp)"
cd "$T"

# a rate-limited job waiting for its next request (4 KiB at 1250 B/s: one every 3.3 s)
ms=$(stop_after_start INT "$T/rate.img" $RAIDLAB run --name=r --filename="$T/rate.img" --size=4m \
	--rw=read --rate=1250 --numjobs=2 --json r.json --quiet)
echo "rate: $ms ms"
[ "$(cat rc)" = 128 ] && [ "$ms" -lt $BOUND_MS ] || fail "rate: exit $(cat rc) after $ms ms"
jq -e '.interrupted == true and .jobs[0].read.ios >= 1' r.json >/dev/null || fail "rate: the result"

# a job in its startdelay; and thinktime between requests
ms=$(stop_after_start HUP "$T/delay.img" $RAIDLAB run --name=d --filename="$T/delay.img" --size=4m \
	--rw=read --startdelay=60 --json d.json --quiet)
echo "startdelay: $ms ms"
[ "$(cat rc)" = 129 ] && [ "$ms" -lt $BOUND_MS ] || fail "startdelay: exit $(cat rc) after $ms ms"
jq -e '.interrupted == true' d.json >/dev/null || fail "startdelay: the result is not marked"
ms=$(stop_after_start TERM "$T/think.img" $RAIDLAB run --name=t --filename="$T/think.img" --size=4m \
	--rw=read --thinktime=20s --json t.json --quiet)
echo "thinktime: $ms ms"
[ "$(cat rc)" = 128 ] && [ "$ms" -lt $BOUND_MS ] || fail "thinktime: exit $(cat rc) after $ms ms"
# the job's files stay, as fio's do; nothing else is left beside them
[ -e think.img ] && [ -e delay.img ] && [ -e rate.img ] || fail "a job's file was not kept, as fio keeps it"

# a net receiver waiting for its peer (TCP: in accept; UDP: for fio's open
# message), as fio's own TCP receiver, which a signal stops at once too
for proto in tcp udp; do
	net=(--name=rx --ioengine=net --protocol=$proto --rw=read --bs=4k --size=1m)
	[ $proto = tcp ] && net+=(--listen=1) # a UDP reader receives (fio: listen is for TCP)
	# fio's own UDP receiver sits in recvfrom until its 300 s stuck-job limit
	if [ $proto = tcp ]; then
		port=$(free_port)
		ms=$(stop_when TERM "bound $proto $port" fio "${net[@]}" --port=$port --output=/dev/null)
		echo "fio's net receiver ($proto): $ms ms, exit status $(cat rc)"
		[ "$(cat rc)" = 128 ] || fail "fio's net receiver exited $(cat rc) after SIGTERM"
	fi
	port=$(free_port)
	ms=$(stop_when TERM "bound $proto $port" $RAIDLAB run "${net[@]}" --port=$port --json n.json --quiet)
	echo "net receiver ($proto): $ms ms"
	[ "$(cat rc)" = 128 ] && [ "$ms" -lt $BOUND_MS ] ||
		{ cat run.err; fail "net receiver ($proto): exit $(cat rc) after $ms ms"; }
	jq -e '.interrupted == true and .jobs[0].name == "rx" and (.jobs[0].read.ios // 0) == 0' n.json >/dev/null ||
		fail "net receiver ($proto): the partial result is not written and marked"
done

# a suite in the pause between two tests (--interval): it ends at once and
# writes the tests it finished, marked "interrupted".  The pause is the time
# raidlab runs on its main thread alone, asleep in clock_nanosleep (x86-64's
# syscall 230; the syscall's number is all /proc shows of it)
[ "$(uname -m)" = x86_64 ] || skip_env "the pause is recognised by x86-64's syscall number"
$RAIDLAB run cdm --target "file(\"$T/suite.img\", size=64m)" --size=16m --passes=1 --warmup=0 \
	--duration=200ms --interval=60s --json s.json >s.out 2>s.err &
pid=$!
stable=0 # the state must hold for a second: a test's own short waits do not
for _ in $(seq 1200); do
	if [ "$(awk '/^Threads:/ { print $2 }' /proc/$pid/status 2>/dev/null)" = 1 ] &&
		[ -e "$T/suite.img" ] && [ "$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null)" = 230 ]; then
		stable=$((stable + 1))
		[ $stable -ge 20 ] && break
	else
		stable=0
	fi
	sleep 0.05
done
t0=$(date +%s%N)
kill -TERM $pid
rc=0
wait $pid || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "suite in its interval: $ms ms"
[ $rc = 1 ] && [ "$ms" -lt $BOUND_MS ] || { cat s.err; fail "suite: exit $rc after $ms ms"; }
grep -q "interrupted before test" s.err || { cat s.err; fail "suite: not stopped in its pause"; }
jq -e '.interrupted == true and (.tests[0].read.mb_s > 0) and .tests[1].read == null' s.json \
	>/dev/null || fail "suite: the finished test is not written, or not marked"
[ ! -e suite.img ] || fail "suite: test file left behind"
echo "fio_signals: ok"
