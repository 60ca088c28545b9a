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
expect_fail 1 "ioengine=falloc makes system calls on one file or device" \
	$RAIDLAB run --name=t --target='mem(size=1m)' --ioengine=falloc --rw=write --quiet

# --- filecreate ... dirdelete: one operation per file (or folder), counted as an I/O ---
# run TOOL DIR ENGINE ARGS...: the job in folder DIR; prints read.total_ios
ops() {
	local tool=$1 dir=$2 eng=$3
	shift 3
	mkdir -p "$dir"
	if [ "$tool" = fio ]; then
		fio --name=t --directory="$dir" --ioengine="$eng" --filesize=4k "$@" \
			--output-format=json >ops.json 2>/dev/null || fail "fio $eng $*"
	else
		$RAIDLAB run --name=t --directory="$dir" --ioengine="$eng" --filesize=4k "$@" \
			--output-format=json >ops.json || fail "raidlab $eng $*"
	fi
	jq '.jobs[0].read.total_ios' ops.json
}
rm -rf r f d
[ "$(ops raidlab r filecreate --nrfiles=50 --keep)" = 50 ] || fail "filecreate: 50 files expected"
[ "$(ops fio f filecreate --nrfiles=50)" = 50 ] || fail "fio's filecreate: 50 files expected"
[ "$(cd r && ls | sort)" = "$(cd f && ls | sort)" ] || fail "filecreate: other names than fio's"
[ "$(find r -type f | wc -l)" = 50 ] || fail "filecreate: 50 files expected"
# (fio 3.33 has no dircreate, dirstat, dirdelete: they are checked on their own)
[ "$(ops raidlab d dircreate --nrfiles=50 --keep)" = 50 ] || fail "dircreate: 50 folders expected"
[ "$(cd d && ls | sort)" = "$(cd f && ls | sort)" ] && [ "$(find d -mindepth 1 -type d | wc -l)" = 50 ] ||
	fail "dircreate: 50 folders named as filecreate's files expected"
rm -rf d
for eng in dirstat dirdelete; do
	[ "$(ops raidlab d $eng --nrfiles=7)" = 7 ] && [ -z "$(ls d)" ] || fail "$eng: 7 operations expected"
done
rm -rf r
ops raidlab r filecreate --nrfiles=20 >/dev/null
[ -z "$(ls r)" ] || fail "filecreate without --keep left the files it made"
for eng in filestat filedelete; do
	rm -rf r
	[ "$(ops raidlab r $eng --nrfiles=20)" = 20 ] || fail "$eng: 20 operations expected"
	[ -z "$(ls r)" ] || fail "$eng: the files it laid out were left"
done
rm -rf r
mkdir r
touch r/t.0.3
expect_fail 1 "refusing to delete r/t.0.3, which raidlab did not make" $RAIDLAB run --name=t \
	--directory=r --ioengine=filedelete --nrfiles=5 --quiet
[ -e r/t.0.3 ] || fail "filedelete removed a file it did not make"
[ "$(ops raidlab r filedelete --nrfiles=5 --force-destroy)" = 5 ] && [ -z "$(ls r)" ] ||
	fail "filedelete --force-destroy"
exit 0
