#!/usr/bin/env bash
# fio's engines whose I/O is a system call on a file rather than a transfer
# (falloc, ftruncate) and those that operate on the job's files themselves
# (filecreate, filestat, filedelete, dircreate, dirstat, dirdelete) do what
# fio's do: the same file sizes and allocations after the same job, the same
# files made or removed, and one counted I/O per operation.
. "$(dirname "$0")/lib.sh"
need fio
need jq

# run TOOL ARGS...: the job on a fresh 1 MiB sparse file f; prints its size and blocks
space() {
	local tool=$1
	shift
	rm -f f
	truncate -s 1m f
	if [ "$tool" = fio ]; then
		fio --name=t --filename=f "$@" >/dev/null || fail "fio $*"
	else
		$RAIDLAB run --name=t --filename=f "$@" --quiet || fail "raidlab run $*"
	fi
	stat -c '%s %b' f
}

# --- falloc: writes allocate (no data), trims punch holes, reads allocate keeping the size ---
for job in "--rw=write --bs=64k --size=1m" "--rw=write --bs=64k --size=512k" \
	"--rw=read --bs=4k --size=256k"; do
	read -r rs rb < <(space raidlab --ioengine=falloc $job)
	read -r fs fb < <(space fio --ioengine=falloc $job)
	[ "$rs" = "$fs" ] || fail "falloc $job: size $rs, fio's $fs"
	# fio's own file may carry a few blocks more (its layout); the allocation is the job's
	awk -v r="$rb" -v f="$fb" 'BEGIN { exit !(r > 0 && r <= f && f - r <= 16) }' ||
		fail "falloc $job: $rb blocks allocated, fio's $fb"
done
# a punched range is gone again
rm -f f
truncate -s 1m f
$RAIDLAB run --name=a --filename=f --ioengine=falloc --rw=write --bs=64k --size=1m --quiet
$RAIDLAB run --name=p --filename=f --ioengine=falloc --rw=trim --bs=64k --size=512k --quiet
[ "$(stat -c %b f)" -le 1032 ] || fail "falloc trim: $(stat -c %b f) blocks left, 1024 expected"
# the writes are counted as writes of their size, as in fio
$RAIDLAB run --name=t --filename=f --ioengine=falloc --rw=write --bs=64k --size=1m \
	--output-format=json >fa.json
jq -e '.jobs[0].write.total_ios == 16 and .jobs[0].write.io_bytes == 1048576' fa.json >/dev/null ||
	fail "falloc: 16 writes of 64 KiB expected, got $(jq -c '.jobs[0].write | [.total_ios, .io_bytes]' fa.json)"

# --- ftruncate: each write sets the size to its offset; reads are refused ---
for job in "--rw=write --bs=4k --size=1m" "--rw=write --bs=64k --size=512k --offset=128k"; do
	r=$(space raidlab --ioengine=ftruncate $job)
	f=$(space fio --ioengine=ftruncate $job)
	[ "$r" = "$f" ] || fail "ftruncate $job: size and blocks $r, fio's $f"
done
truncate -s 1m f
expect_fail 1 "Invalid argument" $RAIDLAB run --name=t --filename=f --ioengine=ftruncate \
	--rw=read --size=1m --quiet
expect_fail 2 "ioengine=falloc makes system calls on one file or device" \
	$RAIDLAB run --name=t --target='mem(size=1m)' --ioengine=falloc --rw=write --quiet
exit 0
