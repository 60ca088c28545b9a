#!/usr/bin/env bash
# Parity arrays over NBD, unchanged: raid5 and raid6 of file members served
# by raidlab serve take a copy in and give it back bit for bit (nbdcopy),
# with fio's nbd engine verifying random writes; afterwards `raidlab check`
# finds every stripe's parity consistent on the members.
. "$(dirname "$0")/lib.sh"
need nbdcopy
need fio
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"

head -c $((32 << 20)) /dev/urandom >in.img  # the whole array (2 data members x 16 MiB)
for level in raid5 raid6; do
	n=$([ $level = raid5 ] && echo 3 || echo 4)
	spec="$level("
	for i in $(seq $n); do spec="${spec}file($level-$i.img, size=16m),"; done
	spec="${spec}chunk=64k)"
	rm -f ready
	"$RAIDLAB" serve --no-status --ready-file ready --socket s.sock "$spec" >serve.out 2>serve.err &
	SPID=$!
	cleanup_hooks+=("kill $SPID 2>/dev/null")
	for _ in $(seq 100); do [ -s ready ] && break; kill -0 $SPID 2>/dev/null || break; sleep 0.05; done
	[ -s ready ] || { cat serve.err; fail "$level: server did not start"; }

	nbdcopy in.img 'nbd+unix:///?socket=s.sock' || fail "$level: nbdcopy in"
	nbdcopy 'nbd+unix:///?socket=s.sock' out.img || fail "$level: nbdcopy out"
	cmp out.img in.img || fail "$level: the copy came back different"
	timeout -s KILL 60 fio --name=v --ioengine=nbd --uri='nbd+unix:///?socket=s.sock' \
		--rw=randwrite --bs=4k --iodepth=8 --size=8m --verify=crc32c --do_verify=1 \
		--output-format=json --output=fio.json >fio.err 2>&1 || { cat fio.err; fail "$level: fio"; }
	[ "$(jq '.jobs[0].error' fio.json)" = 0 ] || fail "$level: fio saw an error"

	kill -TERM $SPID
	rc=0; wait $SPID || rc=$?
	[ $rc -eq 0 ] || { cat serve.err; fail "$level: server exited $rc after SIGTERM"; }
	"$RAIDLAB" check "$spec" >check.out 2>&1 || { cat check.out; fail "$level: check after serving"; }
	echo "$level x$n: nbdcopy round trip and fio verify over NBD, parity consistent"
	rm -f out.img
done
echo "serve_parity: ok"
