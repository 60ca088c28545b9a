#!/usr/bin/env bash
# ioengine=nbd beside fio's nbd engine, against nbdkit: each job runs once
# through fio and once through raidlab on a fresh export with nbdkit's log
# filter on, and the requests the server saw are counted per command
# (Read, Write, Trim, Flush): raidlab's must be fio's (for a random mix,
# reads and writes together), and match the job's own totals in its JSON.  Data: a sequential write with a fixed
# buffer_pattern through each tool leaves byte-identical backing files, and
# a raidlab job with verify reads back what it wrote.  A bad or missing uri
# is an error naming it, exit 1.  --enghelp=nbd lists uri, as fio's.
# ioengine=sg is refused naming the option and why.
# Depth: with nbdkit's delay filter holding each read, the requests the
# server has at once (the log's request lines less its return lines, per
# connection) reach the job's iodepth, as fio's do, on each of numjobs=2's
# two connections; writes and reads at depth keep the data (verify), and a
# server that dies under a job fails its requests in flight and ends it.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need nbdkit
fio --enghelp 2>/dev/null | grep -qw nbd || skip "fio was built without its nbd engine"
! $RAIDLAB run --name=b --ioengine=nbd --uri=nbd://localhost:1 --size=1m 2>&1 |
	grep -q 'not built in' || skip "raidlab was built without libnbd"

# serve NAME: an nbdkit on a 16 MiB file NAME.img at unix socket NAME.sock, logging to NAME.log
serve() {
	rm -f "$1.img" "$1.log"
	truncate -s 16m "$1.img"
	nbdkit -U "$T/$1.sock" -P "$T/$1.pid" --filter=log file "$T/$1.img" \
		logfile="$T/$1.log" || fail "nbdkit would not start"
	served "$1"
}
# served NAME: NAME's nbdkit has written its pid (its child writes it after
# the parent returns); it is killed when the test ends
served() {
	local i
	for i in $(seq 200); do [ -s "$T/$1.pid" ] && break; sleep 0.05; done
	[ -s "$T/$1.pid" ] || fail "nbdkit wrote no pid file in 10 s"
	cleanup_hooks+=("kill $(cat "$T/$1.pid") 2>/dev/null")
}
# serve_mem NAME: a 64 MiB memory export behind the log filter, every read
# held 5 ms by the delay filter (so a job's requests wait there together)
serve_mem() {
	rm -f "$1.log"
	nbdkit -U "$T/$1.sock" -P "$T/$1.pid" --filter=log --filter=delay memory 64M \
		logfile="$T/$1.log" delay-read=5ms || fail "nbdkit would not start"
	served "$1"
}
stop() {
	local pid
	pid=$(cat "$T/$1.pid")
	kill "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}
# count LOG: "Read=N Write=N Trim=N Flush=N", the requests the server was sent
count() {
	local c out=""
	for c in Read Write Trim Flush; do
		out+="$c=$(grep -c "connection=[0-9]* $c id=" "$1" || true) "
	done
	echo "${out% }"
}
rw_total() { local a=${1#Read=}; echo $((${a%% *} + $(sed 's/.*Write=\([0-9]*\).*/\1/' <<<"$1"))); }
# reported JSON: the same four counts from a tool's report, summed over its jobs
reported() {
	jq -r '[.jobs[] | [.read.total_ios, .write.total_ios, .trim.total_ios, .sync.total_ios]] |
		transpose | map(add) | "Read=\(.[0]) Write=\(.[1]) Trim=\(.[2]) Flush=\(.[3])"' "$1"
}
uri() { echo "nbd+unix:///?socket=$T/$1.sock"; }

# --enghelp=nbd: fio's one option
[ "$($RAIDLAB run --enghelp=nbd | cut -d: -f1 | tr -d ' ')" = uri ] ||
	fail "--enghelp=nbd: $($RAIDLAB run --enghelp=nbd)"

jobs=(
	'--name=rw --rw=randrw --bs=4k --size=2m --randrepeat=1'
	'--name=wf --rw=write --bs=8k --size=1m --fsync=8 --end_fsync=1'
	'--name=tr --rw=trim --bs=64k --size=4m'
	'--name=rd --rw=read --bs=128k --size=16m --numjobs=2'
)
for i in "${!jobs[@]}"; do
	read -ra args <<<"${jobs[$i]}"
	for tool in fio raidlab; do
		serve "$tool$i"
		if [ $tool = fio ]; then
			fio --ioengine=nbd --uri="$(uri "$tool$i")" "${args[@]}" \
				--output-format=json --output="$tool$i.json" >/dev/null ||
				fail "fio: ${jobs[$i]}"
		else
			$RAIDLAB run --ioengine=nbd --uri="$(uri "$tool$i")" "${args[@]}" \
				--output-format=json >"$tool$i.json" || fail "raidlab: ${jobs[$i]}"
		fi
		stop "$tool$i"
	done
	f=$(count fio$i.log) r=$(count raidlab$i.log)
	echo "${jobs[$i]}: fio $f, raidlab $r"
	# a random mix draws each request's direction from each tool's own generator:
	# there the reads and writes are compared as one total
	[ "$f" = "$r" ] || { [[ ${jobs[$i]} == *randrw* ]] &&
		[ "$(rw_total "$f")" = "$(rw_total "$r")" ] && [ "${f#* * }" = "${r#* * }" ]; } ||
		fail "the server saw fio's $f but raidlab's $r"
	# each tool's report: fio's and raidlab's totals agree, and the reads
	# and writes are what the server saw (fio counts end_fsync's flush in
	# neither report, so flushes are compared report to report)
	fj=$(reported fio$i.json) rj=$(reported raidlab$i.json)
	[ "$fj" = "$rj" ] || { [[ ${jobs[$i]} == *randrw* ]] &&
		[ "$(rw_total "$fj")" = "$(rw_total "$rj")" ] && [ "${fj#* * }" = "${rj#* * }" ]; } ||
		fail "fio reports $fj, raidlab $rj"
	[ "${rj% Flush=*}" = "${r% Flush=*}" ] || fail "raidlab reports $rj, the server saw $r"
	[ "$(jq '[.jobs[].error] | add' raidlab$i.json)" = 0 ] || fail "raidlab's job failed"
done

# data: the same pattern written through each tool leaves the same bytes
for tool in fio raidlab; do
	serve "d$tool"
	$([ $tool = fio ] && echo fio || echo "$RAIDLAB run") --name=d --ioengine=nbd \
		--uri="$(uri "d$tool")" --rw=write --bs=64k --size=4m --offset=1m \
		--buffer_pattern=0x5aa5f00d --output=/dev/null || fail "$tool: pattern write"
	stop "d$tool"
done
cmp dfio.img draidlab.img || fail "fio and raidlab left different bytes on their exports"
[ "$(od -An -tx1 -j$((1 << 20)) -N4 draidlab.img | tr -d ' ')" = 5aa5f00d ] ||
	fail "the pattern is not at the job's offset"
cmp -n $((1 << 20)) draidlab.img /dev/zero || fail "bytes before the job's offset changed"
# and raidlab reads back what it wrote (verify), with the export's size as the file's
serve v
$RAIDLAB run --name=v --ioengine=nbd --uri="$(uri v)" --rw=randwrite --bs=4k \
	--verify=crc32c --do_verify=1 --output-format=json >v.json || fail "verify through nbd"
jq -e '.jobs[0].read.total_ios == 4096 and .jobs[0].write.total_ios == 4096' v.json \
	>/dev/null || fail "verify: $(jq -c '.jobs[0] | [.read.total_ios, .write.total_ios]' v.json)"

# depth LOG: "connection=N=MAX ...", the most reads each connection had at the server at once
depth() {
	awk '$4 == "Read" { if (++n[$3] > m[$3]) m[$3] = n[$3] }
	     $4 == "...Read" { n[$3]-- }
	     END { for (c in m) print c "=" m[c] }' "$1" | sort | tr '\n' ' ' | sed 's/ $//'
}
qd=(--name=qd --rw=randread --bs=4k --iodepth=8 --size=2m)
serve_mem qfio
fio --ioengine=nbd --uri="$(uri qfio)" "${qd[@]}" --output=/dev/null >/dev/null || fail "fio: ${qd[*]}"
stop qfio
serve_mem qrl
$RAIDLAB run --ioengine=nbd --uri="$(uri qrl)" "${qd[@]}" --output-format=json >qrl.json ||
	fail "raidlab: ${qd[*]}"
stop qrl
serve_mem qrl2
$RAIDLAB run --ioengine=nbd --uri="$(uri qrl2)" "${qd[@]}" --numjobs=2 --output-format=json \
	>qrl2.json || fail "raidlab: ${qd[*]} --numjobs=2"
stop qrl2
echo "reads at the server at once, iodepth=8: fio $(depth qfio.log); raidlab $(depth qrl.log);" \
	"raidlab numjobs=2 $(depth qrl2.log)"
[ "$(depth qfio.log)" = "connection=2=8" ] || fail "fio's own run: $(depth qfio.log)"
# raidlab's first executor takes the connection made when the target was built
[ "$(depth qrl.log)" = "connection=1=8" ] || fail "raidlab keeps $(depth qrl.log) at the server"
[ "$(depth qrl2.log)" = "connection=1=8 connection=2=8" ] ||
	fail "numjobs=2: $(depth qrl2.log), not two connections at depth 8"
[ "$(grep -c ' Connect ' qrl2.log)" = 2 ] || fail "numjobs=2 opened $(grep -c ' Connect ' qrl2.log) connections"
jq -e '[.jobs[] | .read.total_ios == 512 and .error == 0] | all' qrl.json qrl2.json >/dev/null ||
	fail "depth runs: $(jq -c '[.jobs[] | [.read.total_ios, .error]]' qrl.json qrl2.json)"

# data at depth: writes of 1 MiB (more than a socket takes at once, so libnbd
# waits to send) and 4 KiB, eight in flight, read back and checked
serve_mem qv
for bsn in 1m:16 4k:4096; do
	bs=${bsn%:*} n=${bsn#*:}
	$RAIDLAB run --ioengine=nbd --uri="$(uri qv)" --name=qv --rw=randwrite --bs=$bs --size=16m \
		--iodepth=8 --verify=crc32c --do_verify=1 --output-format=json >qv.json ||
		fail "verify at depth, bs=$bs"
	jq -e --argjson n $n '.jobs[0] | .read.total_ios == $n and .write.total_ios == $n' \
		qv.json >/dev/null ||
		fail "verify at depth, bs=$bs: $(jq -c '.jobs[0] | [.read.total_ios, .write.total_ios]' qv.json)"
done
# (each run its own connection, more than one read at the server at once;
# how many depends on how fast the client checks what arrives: a slow
# machine or a sanitizer build checks 1 MiB in about the 5 ms a read waits)
echo "the verify runs, reads at the server at once: $(depth qv.log)"
depth qv.log | awk '{ if (NF != 2) exit 1
	for (i = 1; i <= NF; i++) { split($i, f, "="); if (f[3] < 2) exit 1 } }' ||
	fail "the verify runs: $(depth qv.log) reads at the server"
stop qv

# the server dies under a job: each request in flight fails, and the run ends
serve_mem qk
$RAIDLAB run --ioengine=nbd --uri="$(uri qk)" --name=qk --rw=randread --bs=4k --iodepth=8 \
	--numjobs=2 --runtime=30 --time_based >qk.out 2>qk.err &
rl=$!
for i in $(seq 200); do [ "$(grep -c ' Read ' qk.log)" -ge 64 ] && break; sleep 0.05; done
kill -9 "$(cat qk.pid)"
rc=0
for i in $(seq 200); do kill -0 $rl 2>/dev/null || break; sleep 0.05; done
kill -0 $rl 2>/dev/null && { kill $rl; fail "raidlab still runs 10 s after its server died"; }
wait $rl || rc=$?
[ $rc = 1 ] && grep -q 'Transport endpoint is not connected' qk.err ||
	{ cat qk.err; fail "server killed: exit $rc"; }

# errors: no server, a bad scheme, no uri; sg refused
expect_uri_error() {
	local rc=0
	$RAIDLAB run --name=e --ioengine=nbd --uri="$1" --rw=read --size=1m >e.out 2>e.err || rc=$?
	[ $rc = 1 ] || { cat e.err; fail "uri=$1: exit $rc, not 1"; }
	grep -q "cannot connect to '$1'" e.err || { cat e.err; fail "uri=$1: the error does not name it"; }
}
expect_uri_error "nbd+unix:///?socket=$T/none.sock"
expect_uri_error bogus://x
rc=0
$RAIDLAB run --name=e --ioengine=nbd --rw=read --size=1m 2>e.err || rc=$?
[ $rc = 1 ] && grep -q 'needs uri=' e.err || { cat e.err; fail "no uri: exit $rc"; }
rc=0
$RAIDLAB run --name=e --ioengine=sg --filename=/dev/sg0 --rw=read --size=1m 2>e.err || rc=$?
[ $rc = 1 ] && grep -q "ioengine=sg.*SCSI" e.err || { cat e.err; fail "sg: exit $rc"; }
echo "fio_engine_nbd: ok"
