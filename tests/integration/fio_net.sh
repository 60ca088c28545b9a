#!/usr/bin/env bash
# ioengine=net against fio's own net engine: a raidlab sender with a fio
# receiver and the other way round, over TCP and UDP on localhost, with the
# byte counts checked on both sides (the same job file for both programs);
# a unix socket stream within one raidlab run; fio's netio_multicast.fio
# example (UDP multicast with pingpong) running to completion; and bad net
# options refused with the option and the place named.  Ports are picked
# free for each case, never fixed.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need python3


# wait_bound PROTO PORT PID: until the receiver PID is ready (or gone)
wait_bound() {
	local i
	for ((i = 0; i < 2000; i++)); do
		bound "$1" "$2" && return 0
		kill -0 "$3" 2>/dev/null || fail "the receiver exited before binding port $2"
		sleep 0.01
	done
	fail "nothing bound $1 port $2 in 20 s"
}

# jobs PROTO PORT SIZE PINGPONG: the receiver's and the sender's job files
jobs() {
	local listen=""
	[ "$1" = tcp ] && listen="listen"
	printf '[global]\nioengine=net\nprotocol=%s\nport=%s\nbs=4k\nsize=%s\npingpong=%s\n' \
		"$1" "$2" "$3" "$4" | tee "$T/send.fio" >"$T/recv.fio"
	printf '\n[receiver]\nrw=read\n%s\n' "$listen" >>"$T/recv.fio"
	printf '\n[sender]\nrw=write\nhostname=127.0.0.1\n' >>"$T/send.fio"
}

# pair PROTO RECEIVER SENDER SIZE [PINGPONG]: RECEIVER and SENDER (fio or
# raidlab) stream SIZE bytes; both must count all of them in their direction
pair() {
	local proto=$1 rtool=$2 stool=$3 size=$4 pp=${5:-0} port rpid rc=0
	port=$(free_port)
	jobs "$proto" "$port" "$size" "$pp"
	local -A cmd=([fio]="fio" [raidlab]="$RAIDLAB run")
	timeout -k 5 60 ${cmd[$rtool]} "$T/recv.fio" --output-format=json --output="$T/r.json" \
		>"$T/r.out" 2>&1 &
	rpid=$!
	wait_bound "$proto" "$port" "$rpid"
	timeout -k 5 60 ${cmd[$stool]} "$T/send.fio" --output-format=json --output="$T/s.json" \
		>"$T/s.out" 2>&1 || { cat "$T/s.out"; fail "$proto: $stool's sender failed"; }
	wait "$rpid" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/r.out"; fail "$proto: $rtool's receiver exited $rc"; }
	local want got_r got_s
	want=$(numfmt --from=iec "${size^^}")
	got_r=$(jqv "$T/r.json" '.jobs[0].read.io_bytes')
	got_s=$(jqv "$T/s.json" '.jobs[0].write.io_bytes')
	[ "$got_r" = "$want" ] || fail "$proto: $rtool received $got_r bytes from $stool, expected $want"
	[ "$got_s" = "$want" ] || fail "$proto: $stool sent $got_s bytes to $rtool, expected $want"
	[ "$(jqv "$T/r.json" '.jobs[0].write.io_bytes')" = 0 ] || fail "$proto: $rtool's receiver wrote"
	[ "$(jqv "$T/s.json" '.jobs[0].read.io_bytes')" = 0 ] || fail "$proto: $stool's sender read"
	echo "$proto: $stool -> $rtool (pingpong=$pp): $got_s bytes sent, $got_r received"
}

# fio's TCP receiver counts a short receive as a whole block's request, and
# ends after size bytes of requests, so it may leave bytes unread: with
# pingpong one block is in flight at a time and each receive is whole.
# UDP sizes stay within one socket buffer (16 datagrams), so no datagram is
# lost however slow the receiver.
pair tcp fio raidlab 2m 1
pair tcp raidlab fio 8m
pair tcp raidlab fio 2m 1
pair udp fio raidlab 64k
pair udp raidlab fio 64k
# fio's receiver counts the sequence numbers it missed: none from raidlab's trailers
pair udp fio raidlab 64k
[ "$(jqv "$T/r.json" '.jobs[0].read.drop_ios')" = 0 ] ||
	fail "fio's UDP receiver missed datagrams of raidlab's: $(jqv "$T/r.json" '.jobs[0].read')"

# A unix socket: the reading job of one run is the receiver; it accepts the sender
sock=$T/net.sock
cat >"$T/unix.fio" <<EOF
[global]
ioengine=net
protocol=unix
filename=$sock
bs=16k
size=4m

[receiver]
rw=read

[sender]
rw=write
EOF
"$RAIDLAB" run "$T/unix.fio" --output-format=json --output="$T/u.json" >"$T/u.out" 2>&1 ||
	{ cat "$T/u.out"; fail "unix socket stream"; }
[ "$(jqv "$T/u.json" '[.jobs[].read.io_bytes] | add')" = 4194304 ] || fail "unix: received $(jqv "$T/u.json" '[.jobs[].read.io_bytes]')"
[ "$(jqv "$T/u.json" '[.jobs[].write.io_bytes] | add')" = 4194304 ] || fail "unix: sent $(jqv "$T/u.json" '[.jobs[].write.io_bytes]')"
[ ! -e "$sock" ] || fail "the receiver's socket $sock was left behind"

# fio's netio_multicast.fio, edited as tests/fio-examples/derive.py does and
# on a free port: the pingpong writer's blocks all come back from the
# pingpong reader, the plain reader gets them too
src=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
[ -r "$src/netio_multicast.fio" ] || fail "fio's examples are not in $src (fio-examples)"
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir "$T/ex"
cp "$src/netio_multicast.fio" "$T/ex/"
python3 "$top/tests/fio-examples/derive.py" "$T/ex" "$T/ex2" || fail "derive.py"
FIO_PORT=$(free_port) timeout -k 5 60 "$RAIDLAB" run "$T/ex2/netio_multicast.fio" \
	--output-format=json --output="$T/m.json" >"$T/m.out" 2>&1 ||
	{ cat "$T/m.out"; fail "netio_multicast.fio did not complete"; }
w=$(jqv "$T/m.json" '.jobs[] | select(.jobname == "pingpong_writer") | .write.io_bytes')
p=$(jqv "$T/m.json" '.jobs[] | select(.jobname == "pingpong_reader") | .read.io_bytes')
n=$(jqv "$T/m.json" '.jobs[] | select(.jobname == "normal_reader") | .read.io_bytes')
echo "multicast: the writer's $w bytes came back; the pingpong reader got $p, the other $n"
[ "$w" -gt 0 ] || fail "the multicast writer sent nothing"
# a block counts for the writer once it is back: the reader may have one more
[ "$p" -ge "$w" ] && [ "$p" -le $((w + 64)) ] || fail "pingpong reader got $p bytes, writer $w"
[ "$n" -gt 0 ] && [ "$n" -le $((w + 64)) ] || fail "the plain reader got $n bytes, writer $w"

# Bad input: the option and the place are named, the exit status is not 0
printf '[s]\nioengine=net\nfilename=localhost/http\nrw=write\n' >"$T/bad1.fio"
expect_fail 1 "bad1.fio:1: job 's': filename='localhost/http': expected HOST/PORT\[/PROTOCOL\]" \
	"$RAIDLAB" run "$T/bad1.fio"
printf '[s]\nioengine=net\nhostname=localhost\nport=8888\nprotocol=sctp\nrw=write\n' >"$T/bad2.fio"
expect_fail 1 "bad2.fio:5: option 'protocol': expected tcp, tcpv6, udp, udpv6 or unix, got 'sctp'" \
	"$RAIDLAB" run "$T/bad2.fio"
printf '[s]\nioengine=net\nhostname=localhost\nport=70000\nrw=write\n' >"$T/bad3.fio"
expect_fail 1 "bad3.fio:4: option 'port': expected a whole number from 1 to 65535, got '70000'" \
	"$RAIDLAB" run "$T/bad3.fio"
expect_fail 1 "filename='localhost/0': expected HOST/PORT" \
	"$RAIDLAB" run --name=s --ioengine=net --filename=localhost/0 --rw=write
echo "ok"
