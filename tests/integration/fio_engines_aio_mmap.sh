#!/usr/bin/env bash
# fio's posixaio and mmap engines, beside fio: the same job moves the same
# bytes (terse I/O counts), leaves the same data in the file (a verified
# write then read), and makes the system calls the engine is made of
# (strace): posixaio starts its requests from helper threads (pread64 and
# pwrite64 there, none from the job's thread itself), and mmap maps the
# file and copies, with msync for fsync= and for direct=1 as fio does.
# A write with fsync through posixaio is aio_fsync: fdatasync on a helper.
. "$(dirname "$0")/lib.sh"
need fio
need strace

head -c $((8 << 20)) /dev/urandom >f

# ios TOOL ARGS...: "read_ios write_ios" from the terse report (fields 6 and 47 are KiB)
kib() {
	local tool=$1
	shift
	local out
	if [ "$tool" = fio ]; then
		out=$(fio --name=t --filename=f --size=8m "$@" --output-format=terse) || fail "fio $*"
	else
		out=$($RAIDLAB run --name=t --filename=f --size=8m "$@" --output-format=terse) ||
			fail "raidlab run $*"
	fi
	echo "$out" | tail -n 1 | cut -d';' -f6,47
}

for engine in posixaio mmap; do
	for job in "--rw=randread --bs=4k" "--rw=write --bs=64k" "--rw=randrw --bs=16k --iodepth=8" \
		"--rw=randwrite --bs=4k --direct=1 --iodepth=4" "--rw=write --bs=8k --fsync=4"; do
		r=$(kib raidlab --ioengine=$engine $job)
		f=$(kib fio --ioengine=$engine $job)
		if [[ $job == *randrw* ]]; then
			# the two tools draw the mix from different generators: the total is the job's
			r=$((${r%;*} + ${r#*;})) f=$((${f%;*} + ${f#*;}))
		fi
		[ "$r" = "$f" ] || fail "$engine $job: raidlab moved $r KiB (read;write), fio $f"
	done
	# data written through the engine reads back verified, in raidlab and in fio
	$RAIDLAB run --name=v --filename=f --size=4m --ioengine=$engine --rw=write --bs=16k \
		--verify=crc32c --do_verify=0 --quiet || fail "$engine: the verified write"
	$RAIDLAB run --name=v --filename=f --size=4m --ioengine=$engine --rw=write --bs=16k \
		--verify=crc32c --verify_only=1 --quiet || fail "$engine: raidlab's blocks do not read back"
done

# syscalls TOOL ARGS...: the job's system calls, one "tid name" per line
# (LeakSanitizer cannot run under ptrace: the ASan build runs with it off here)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
syscalls() {
	local tool=$1
	shift
	rm -f st.*
	if [ "$tool" = fio ]; then
		strace -ff -o st -e trace=pread64,pwrite64,mmap,msync,fdatasync,fsync,madvise \
			fio --name=t --filename=f --size=4m "$@" >/dev/null 2>&1 || fail "fio $*"
	else
		strace -ff -o st -e trace=pread64,pwrite64,mmap,msync,fdatasync,fsync,madvise \
			$RAIDLAB run --name=t --filename=f --size=4m "$@" --quiet || fail "raidlab $*"
	fi
	for x in st.*; do sed -n "s/^\([a-z0-9_]*\)(.*/${x#st.} \1/p" "$x"; done
}
count() { grep -c " $1\$" || true; }

# posixaio: every read from a thread other than the one that counts them (glibc's helpers)
for tool in fio raidlab; do
	syscalls $tool --ioengine=posixaio --rw=randread --bs=4k --iodepth=8 --direct=1 >sc
	reads=$(count pread64 <sc)
	threads=$(awk '$2 == "pread64" { print $1 }' sc | sort -u | wc -l)
	echo "$tool posixaio: $reads pread64 calls from $threads threads"
	[ "$reads" -ge 1024 ] || fail "$tool posixaio: $reads pread64 calls for 1024 reads"
	[ "$threads" -ge 2 ] || fail "$tool posixaio: reads from $threads thread(s): not asynchronous"
	syscalls $tool --ioengine=posixaio --rw=write --bs=64k --fsync=4 >sc
	echo $(($(count fdatasync <sc) + $(count fsync <sc))) >syncs.$tool
done
# fsync=4 over 64 writes: a sync after each fourth write (fio leaves out the last)
echo "posixaio fsync=4: raidlab $(cat syncs.raidlab) syncs, fio $(cat syncs.fio)"
[ "$(cat syncs.fio)" -ge 15 ] || fail "fio posixaio fsync=4: $(cat syncs.fio) syncs"
[ "$(cat syncs.raidlab)" -ge "$(cat syncs.fio)" ] && [ "$(cat syncs.raidlab)" -le 16 ] ||
	fail "raidlab posixaio fsync=4: $(cat syncs.raidlab) syncs, fio $(cat syncs.fio)"

# mmap: the file mapped, no pread/pwrite of its data; msync per fsync= batch and per
# direct=1 write
for tool in fio raidlab; do
	syscalls $tool --ioengine=mmap --rw=randread --bs=4k >sc
	echo "$tool mmap randread: $(count pread64 <sc) pread64, $(count mmap <sc) mmap"
	[ "$(count pread64 <sc)" -lt 16 ] || fail "$tool mmap: reads went through pread64"
	syscalls $tool --ioengine=mmap --rw=write --bs=64k --fsync=4 >sc
	m=$(count msync <sc)
	echo "$tool mmap fsync=4: $m msync"
	[ "$m" -ge 15 ] || fail "$tool mmap fsync=4: $m msync calls for 64 writes"
	syscalls $tool --ioengine=mmap --rw=write --bs=64k --direct=1 >sc
	m=$(count msync <sc)
	[ "$m" -ge 64 ] || fail "$tool mmap direct=1: $m msync calls for 64 writes"
done
echo ok
