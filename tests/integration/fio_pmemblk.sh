#!/usr/bin/env bash
# fio's pmemblk engine: filename=PATH,BSIZE,POOLMIB makes a libpmemblk block
# pool in a plain file.  What raidlab writes into a pool, fio's own pmemblk
# engine reads back and verifies, and the other way round; an existing pool
# holds data, so raidlab writes to it only with --force-destroy.
. "$(dirname "$0")/lib.sh"
need fio
need jq
$RAIDLAB help targets | grep -q '^ *pmemblk' || fail "raidlab has no pmemblk target"
if ! $RAIDLAB run --name=p --ioengine=pmemblk --filename="$T/probe,4096,32" --rw=read \
	--size=64k --quiet 2>err; then
	grep -q "not built in" err || fail "pmemblk probe: $(cat err)"
	skip "raidlab was built without libpmemblk (libpmemblk-dev)"
fi
fio --enghelp | grep -qw pmemblk || skip "this fio has no pmemblk engine"

pat=0x5a6b7c8d
# raidlab writes the pattern into a new pool of 4 KiB blocks and keeps it
$RAIDLAB run --name=w --ioengine=pmemblk --filename="$T/pool,4096,32" --rw=write --bs=64k \
	--size=1m --verify=pattern --verify_pattern=$pat --do_verify=0 --keep \
	--output-format=json >w.json || fail "raidlab pmemblk write"
[ "$(jqv w.json '.jobs[0].write.io_bytes')" = $((1 << 20)) ] || fail "raidlab wrote $(jqv w.json '.jobs[0].write.io_bytes') bytes"
[ -f pool ] || fail "no pool file"
head -c 4096 pool | grep -qa PMEMBLK || fail "the pool has no libpmemblk signature"
# fio's pmemblk engine reads every block back and checks the pattern
fio --name=r --ioengine=pmemblk --thread --filename="$T/pool" --rw=read --bs=64k --size=1m \
	--verify=pattern --verify_pattern=$pat --output-format=json >r.json 2>r.err ||
	fail "fio could not read raidlab's pool back: $(cat r.err)"
[ "$(sed -n '/^{/,$p' r.json | jq '.jobs[0].read.io_bytes')" = $((1 << 20)) ] ||
	fail "fio read $(sed -n '/^{/,$p' r.json | jq '.jobs[0].read.io_bytes') bytes"
# (the check can fail: another pattern does)
! fio --name=r --ioengine=pmemblk --thread --filename="$T/pool" --rw=read --bs=64k --size=1m \
	--verify=pattern --verify_pattern=0x01020304 >/dev/null 2>&1 ||
	fail "fio's verify passed a pattern that was not written"

# the pool exists now: writing needs --force-destroy
expect_fail 1 "force-destroy" $RAIDLAB run --name=w2 --ioengine=pmemblk \
	--filename="$T/pool,4096,32" --rw=write --bs=64k --size=1m
# fio writes another pattern; raidlab reads it back and checks it
fio --name=fw --ioengine=pmemblk --thread --filename="$T/pool" --rw=write --bs=64k --size=1m \
	--verify=pattern --verify_pattern=0x11223344 --do_verify=0 >/dev/null 2>&1 || fail "fio write"
$RAIDLAB run --name=rr --ioengine=pmemblk --filename="$T/pool" --rw=read --bs=64k --size=1m \
	--verify=pattern --verify_pattern=0x11223344 --keep --quiet ||
	fail "raidlab could not read fio's pool back"
expect_fail 1 "verif" $RAIDLAB run --name=rr --ioengine=pmemblk --filename="$T/pool" --rw=read \
	--bs=64k --size=1m --verify=pattern --verify_pattern=$pat --keep
# unlink=1 removes the pool at the end, as fio's unlink
$RAIDLAB run --name=u --ioengine=pmemblk --filename="$T/pool" --rw=read --bs=64k --size=64k \
	--unlink=1 --quiet || fail "pmemblk unlink"
[ ! -e pool ] || fail "unlink=1 left the pool"

# no pool and no sizes to make one: a clear error
expect_fail 1 "no PATH,BSIZE,POOLMIB" $RAIDLAB run --name=n --ioengine=pmemblk \
	--filename="$T/none" --rw=read --size=64k
exit 0
