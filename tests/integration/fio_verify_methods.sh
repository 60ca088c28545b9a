#!/usr/bin/env bash
# verify='s checksum methods beside fio itself (test_vcsum checks that
# raidlab's digests cover every byte of an interval).  For each method fio 3.33
# and raidlab both offer: a file written with it reads back clean; after one
# byte of a written block is changed (by this script, not by either tool),
# a reading job fails with EILSEQ (84) in the JSON and a non-zero exit, for
# both; and a job that fails does not stop the stonewalled jobs after it
# (fio's six-phase check in t/verify.py).  The header can move inside each
# interval (verify_offset), and verify_backlog_batch still reads every
# written block back once.
. "$(dirname "$0")/lib.sh"
need fio
need jq
need python3

run() {
	local tool=$1
	shift
	if [ "$tool" = fio ]; then fio "$@"; else $RAIDLAB run "$@"; fi
}
# flip FILE OFFSET: change one byte
flip() {
	python3 -c "import sys
f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2])); b = f.read(1)
f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 0x20]))" "$1" "$2"
}

base=(--bs=4k --filesize=1m --ioengine=psync --output-format=json)
for m in md5 crc64 crc32 crc16 crc7 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 xxhash; do
	for tool in fio rl; do
		rm -f v.$tool
		run $tool --name=w --filename=v.$tool --rw=write --verify=$m "${base[@]}" --output=w.json ||
			fail "$tool verify=$m: the write with verify failed"
		run $tool --name=r --filename=v.$tool --rw=read --verify=$m "${base[@]}" --output=r.json ||
			fail "$tool verify=$m: reading the clean file failed: $(jq -c '.jobs[0].error' r.json)"
		# near the block's start: fio 3.33's sha512 checks only the first
		# bytes after its header (a byte 2000 into the block goes unnoticed)
		flip v.$tool $((37 * 4096 + 100))
		if run $tool --name=r --filename=v.$tool --rw=read --verify=$m "${base[@]}" --output=r.json 2>r.err; then
			fail "$tool verify=$m: a changed byte went unnoticed"
		fi
		[ "$(jq '.jobs[0].error' r.json)" = 84 ] ||
			fail "$tool verify=$m: error $(jq '.jobs[0].error' r.json), expected 84 (EILSEQ)"
	done
done

# A failed job does not stop the stonewalled jobs after it.
for tool in fio rl; do
	rm -f s.$tool
	run $tool --filename=s.$tool "${base[@]}" --name=write --rw=write --verify=md5 \
		--name=bad --stonewall --rw=read --verify=sha256 \
		--name=after --stonewall --rw=read --verify=md5 --output=s.json >/dev/null 2>&1 || true
	[ "$(jq -c '[.jobs[] | [.jobname, .error]]' s.json)" = '[["write",0],["bad",84],["after",0]]' ] ||
		fail "$tool: the jobs after a failed one: $(jq -c '[.jobs[] | [.jobname, .error]]' s.json)"
done

# verify_offset moves the header: read without it, the blocks do not check.
for tool in fio rl; do
	rm -f o.$tool
	run $tool --name=w --filename=o.$tool --rw=write --verify=sha256 --verify_interval=2k \
		--verify_offset=1k "${base[@]}" --output=o.json || fail "$tool: verify_offset write"
	run $tool --name=r --filename=o.$tool --rw=read --verify=sha256 --verify_interval=2k \
		--verify_offset=1k "${base[@]}" --output=o.json || fail "$tool: verify_offset read"
	if run $tool --name=r --filename=o.$tool --rw=read --verify=sha256 --verify_interval=2k \
		"${base[@]}" --output=o.json 2>/dev/null; then
		fail "$tool: verify_offset=1k blocks checked clean without verify_offset"
	fi
done

# verify_backlog with a batch below it and above it: every written block is
# read back once (the ones a batch leaves wait for the next check), as fio.
for tool in fio rl; do
	for batch in 4 32; do
		rm -f b.$tool
		run $tool --name=w --filename=b.$tool --rw=randwrite --verify=md5 --verify_backlog=16 \
			--verify_backlog_batch=$batch "${base[@]}" --output=b.json ||
			fail "$tool: verify_backlog_batch=$batch"
		[ "$(jq -c '.jobs[0] | [.write.total_ios, .read.total_ios, .error]' b.json)" = '[256,256,0]' ] ||
			fail "$tool: verify_backlog_batch=$batch of 16: $(jq -c '.jobs[0] | [.write.total_ios, .read.total_ios, .error]' b.json) (writes, reads, error)"
	done
done
echo ok
