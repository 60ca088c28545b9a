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
	# nbdkit's parent returns once it has forked; the server writes its
	# pid file when it is ready, which on a busy machine is later
	local i
	for ((i = 0; i < 200; i++)); do
		[ -s "$T/$1.pid" ] && break
		sleep 0.05
	done
	[ -s "$T/$1.pid" ] || fail "nbdkit wrote no pid file in 10 s"
	cleanup_hooks+=("kill $(cat "$T/$1.pid") 2>/dev/null")
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
