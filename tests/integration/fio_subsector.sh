#!/usr/bin/env bash
# Block sizes that are not whole sectors, beside fio: a buffered job on a
# plain file takes any size from one byte (fio's t/verify.py corrupts a
# written file with a 4-byte write), every other target says which sizes it
# takes before anything runs.
#  - A 4-byte write lands exactly where it is sent and nowhere else, and a
#    job of 100-byte random reads moves what fio's moves.
#  - Written with verify=md5 through O_DIRECT, then changed by a buffered
#    4-byte write from a job of the same run, the file fails the next
#    verifying job with a checksum mismatch, for fio and for raidlab alike.
#  - Refused, naming what and why: bs=4 through O_DIRECT, bs=4 with verify,
#    bs=4 on an array of files.
#  - offset=100 on a buffered file job starts there to the byte and lays out
#    what fio lays out; through O_DIRECT or on a 4k-block target it is refused.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need python3
cd "$T" || exit 1

# a 4-byte write at byte 512 of a file of zeroes: those bytes change, no other
for tool in fio rl; do
	rm -f z
	python3 -c "open('z', 'wb').write(bytes(65536))"
	args=(--name=w --filename=z --size=32k --rw=write --bs=4 --offset=512 --number_ios=1
		--buffer_pattern=0x41424344 --output-format=json)
	if [ $tool = fio ]; then fio "${args[@]}" >w.json; else $RAIDLAB run "${args[@]}" >w.json; fi ||
		fail "$tool: the 4-byte write failed"
	[ "$(jq '.jobs[0].write.io_bytes' w.json)" = 4 ] || fail "$tool: wrote $(jq '.jobs[0].write.io_bytes' w.json) bytes, not 4"
	python3 -c "
d = open('z', 'rb').read()
want = bytes(512) + b'ABCD' + bytes(65536 - 516)
assert len(d) == 65536 and d == want, [i for i in range(len(d)) if d[i] != want[i]][:8]
" || fail "$tool: the file is not the zeroes with ABCD at byte 512"
	cp z "z.$tool"
done

# 100-byte random reads over 64 KiB: as many requests and bytes as fio's
for tool in fio rl; do
	args=(--name=r --filename=z --size=64k --rw=randread --bs=100 --output-format=json)
	if [ $tool = fio ]; then fio "${args[@]}" >r.$tool.json; else $RAIDLAB run "${args[@]}" >r.$tool.json; fi ||
		fail "$tool: 100-byte reads failed"
done
for k in total_ios io_bytes; do
	a=$(jq ".jobs[0].read.$k" r.fio.json) b=$(jq ".jobs[0].read.$k" r.rl.json)
	echo "100-byte random reads: $k fio $a, raidlab $b"
	[ "$a" = "$b" ] && [ "$a" -gt 0 ] || fail "100-byte random reads: $k $b, fio $a"
done

# t/verify.py's mangle, as one run: direct writes with md5, a buffered 4-byte
# write at random, then a direct verifying read fails on a mismatch
mangle() { # TOOL: runs the four jobs, prints the exit status
	local common=(--filename=v --filesize=1m --stonewall --ioengine=libaio --fallocate=truncate)
	local rc=0 jobs=(
		--name=layout --rw=write --verify=md5 --direct=1 --iodepth=16 --bs=4k "${common[@]}"
		--name=check --verify_only --rw=write --verify=md5 --direct=1 --bs=4k "${common[@]}"
		--name=mangle --rw=randwrite --randrepeat=0 --bs=4 --number_ios=1 "${common[@]}"
		--name=recheck --verify_only --rw=write --verify=md5 --direct=1 --bs=4k "${common[@]}"
		--output-format=json --output="m.$1.json")
	rm -f v
	if [ "$1" = fio ]; then fio "${jobs[@]}" >/dev/null 2>"m.$1.err" || rc=$?; else
		$RAIDLAB run "${jobs[@]}" >/dev/null 2>"m.$1.err" || rc=$?; fi
	echo "$rc"
}
for tool in fio rl; do
	rc=$(mangle $tool)
	errs=$(jq -c '[.jobs[] | .error]' "m.$tool.json")
	echo "mangle, $tool: exit $rc, job errors $errs"
	[ "$rc" -ne 0 ] || fail "$tool: the mangled file verified clean"
	[ "$errs" = "[0,0,0,84]" ] || fail "$tool: job errors $errs, expected only the last to fail (EILSEQ)"
	[ "$(jq '.jobs[2].write.io_bytes' "m.$tool.json")" = 4 ] || fail "$tool: the mangle did not write 4 bytes"
done
# the 4 bytes land at random (randrepeat=0): in a block's data the md5 no
# longer matches; in its header (about 1 in 50) the header is named instead
# (corrupt, or gone when the bytes hit its magic)
grep -Eq 'md5 checksum mismatch|verify header at offset [0-9]+ (is corrupt|\(never written)' m.rl.err ||
	{ cat m.rl.err; fail "neither an md5 mismatch nor a corrupt header named"; }

# the targets that take only sectors say so before anything runs
expect_fail 1 "bs=4 is not a multiple of the target's logical block size" \
	$RAIDLAB run --name=d --filename=v --size=64k --rw=write --bs=4 --direct=1
expect_fail 1 "verify=md5 checks whole 512-byte sectors" \
	$RAIDLAB run --name=m --filename=v --size=64k --rw=write --bs=4 --verify=md5
expect_fail 1 "bs=4 is not a multiple of the target's logical block size (512 bytes)" \
	$RAIDLAB run --name=a --target "raid0(file(a0, size=1m), file(a1, size=1m))" --direct=0 \
	--rw=write --bs=4 --size=64k
expect_fail 1 "expected a block size from 1 byte to 64m" $RAIDLAB run --name=z --filename=v --bs=0

# an offset that is not a whole sector, beside fio: a buffered job on a file
# starts there to the byte, and lays out offset + size bytes, as fio's
for tool in fio rl; do
	rm -f o
	args=(--name=o --filename=o --size=64k --offset=100 --bs=4k --rw=write --output-format=json)
	if [ $tool = fio ]; then fio "${args[@]}" >o.json; else $RAIDLAB run "${args[@]}" >o.json; fi ||
		fail "$tool: offset=100 failed"
	echo "$(stat -c %s o) $(jq -c '.jobs[0].write | [.total_ios, .io_bytes]' o.json)" >o.$tool
done
cmp -s o.fio o.rl || fail "offset=100: fio $(cat o.fio), raidlab $(cat o.rl) (file bytes, [ios, bytes])"
# the first request starts at byte 100: its pattern is there, the bytes before it zero
rm -f o
python3 -c "open('o', 'wb').write(bytes(65636))"
$RAIDLAB run --name=o --filename=o --size=64k --offset=100 --bs=4k --rw=write --number_ios=1 \
	--buffer_pattern=0x41 --quiet || fail "offset=100, one write"
python3 -c "
d = open('o', 'rb').read()
assert d[:100] == bytes(100), 'bytes before the offset changed'
assert d[100:4196] == b'A' * 4096, 'the write is not at byte 100'
assert d[4196:] == bytes(len(d) - 4196), 'bytes after the write changed'
" || fail "offset=100: the write did not land at byte 100"
echo "offset=100: $(cat o.rl) as fio's"
expect_fail 1 "offset=100 is not a multiple of the target's logical block size" \
	$RAIDLAB run --name=d --filename=v --size=64k --rw=write --offset=100 --direct=1
expect_fail 1 "offset=100 is not a multiple of the target's logical block size (4096 bytes)" \
	$RAIDLAB run --name=m --target 'mem(size=1m, bs=4k)' --rw=read --offset=100 --size=64k
echo ok

