#!/usr/bin/env bash
# fio's options for files, buffers and logs, run side by side with fio 3.33:
# nrfiles and filename_format make the same files, unlink removes them,
# allow_file_create=0 refuses a missing file, buffer_pattern and
# verify=pattern write the same bytes (and each program verifies the
# other's), verify_pattern alone checks reads, log_offset and per_job_logs
# shape the logs as fio's, unified_rw_reporting gives fio's "mixed" JSON, and
# the options accepted for job files are accepted by both.
. "$(dirname "$0")/lib.sh"
need fio
need jq
cd "$T"
mkdir f r

# --- nrfiles, filename_format: the same names, one set per numjobs copy ---
for fmt in '' '--filename_format=data.$filenum.$jobnum.$jobname'; do
	rm -rf f/* r/*
	(cd f && fio --name=j --rw=write --size=96k --nrfiles=3 --numjobs=2 $fmt >/dev/null) ||
		fail "fio nrfiles $fmt"
	(cd r && $RAIDLAB run --name=j --rw=write --size=96k --nrfiles=3 --numjobs=2 $fmt \
		--keep --quiet) || fail "raidlab nrfiles $fmt"
	[ "$(ls f | tr '\n' ' ')" = "$(ls r | tr '\n' ' ')" ] ||
		fail "nrfiles $fmt: fio made $(ls f | tr '\n' ' '), raidlab $(ls r | tr '\n' ' ')"
	[ "$(ls r | wc -l)" -eq 6 ] || fail "nrfiles=3 numjobs=2: $(ls r | wc -l) files"
	for x in r/*; do
		[ "$(stat -c %s "$x")" -eq 32768 ] || fail "$x: 96k over 3 files is 32k each"
	done
done
# without --keep the files raidlab made go again
rm -rf r/*
(cd r && $RAIDLAB run --name=j --rw=write --size=96k --nrfiles=3 --quiet) || fail "nrfiles"
[ -z "$(ls r)" ] || fail "nrfiles: left $(ls r)"

# --- unlink=1 removes a file that existed before, as fio does ---
for d in f r; do truncate -s 64k $d/u; done
(cd f && fio --name=j --rw=write --size=64k --filename=u --unlink=1 >/dev/null) || fail "fio unlink"
(cd r && $RAIDLAB run --name=j --rw=write --size=64k --filename=u --unlink=1 --quiet) ||
	fail "raidlab unlink"
[ ! -e f/u ] || fail "fio kept u (the test's premise)"
[ ! -e r/u ] || fail "unlink=1 kept a file that existed before"
# ... but never one the run refused to write
truncate -s 64k r/s
mkswap r/s >/dev/null 2>&1 || fail "mkswap"
expect_fail 1 "swap" $RAIDLAB run --name=j --rw=write --size=64k --filename=r/s --unlink=1 --quiet
[ -e r/s ] || fail "unlink=1 removed a file it refused to write"

# --- allow_file_create=0: a missing file is an error, named; nothing made ---
expect_fail 2 "r/nope does not exist.*allow_file_create=0" \
	$RAIDLAB run --name=j --rw=read --size=64k --filename=r/nope --allow_file_create=0 --quiet
[ ! -e r/nope ] || fail "allow_file_create=0 created the file"
fio --name=j --rw=read --size=64k --filename=f/nope --allow_file_create=0 >fio.out 2>&1 &&
	fail "fio ran with allow_file_create=0 (the test's premise)"
grep -q 'allow_file_create' fio.out || fail "fio's message changed"

# --- buffer_pattern and verify=pattern: fio's bytes ---
fio --name=j --rw=write --bs=4k --size=64k --filename=f/b --buffer_pattern=0x0102aa >/dev/null
$RAIDLAB run --name=j --rw=write --bs=4k --size=64k --filename=r/b --buffer_pattern=0x0102aa \
	--keep --quiet || fail "buffer_pattern"
cmp f/b r/b || fail "buffer_pattern: raidlab's file differs from fio's"
fio --name=j --rw=write --size=64k --filename=f/p --verify=pattern --verify_pattern='"abc"' \
	>/dev/null
$RAIDLAB run --name=j --rw=write --size=64k --filename=r/p --verify=pattern \
	--verify_pattern='"abc"' --keep --quiet || fail "verify=pattern"
cmp f/p r/p || fail "verify=pattern: raidlab's file differs from fio's"
# each reads the other's file back with the pattern; a wrong pattern fails in both
fio --name=j --rw=read --size=64k --filename=r/p --verify=pattern --verify_pattern='"abc"' \
	--output-format=json >fio.json || fail "fio verifying raidlab's pattern"
jq -e '.jobs[0].error == 0' fio.json >/dev/null || fail "fio found raidlab's pattern wrong"
$RAIDLAB run --name=j --rw=read --size=64k --filename=f/p --verify=pattern \
	--verify_pattern='"abc"' --quiet || fail "raidlab verifying fio's pattern"
expect_fail 1 "pattern mismatch at offset 2 " $RAIDLAB run --name=j --rw=read --size=64k \
	--filename=f/p --verify=pattern --verify_pattern='"abd"' --quiet
fio --name=j --rw=read --size=64k --filename=f/p --verify=pattern --verify_pattern='"abd"' \
	>/dev/null 2>&1 && fail "fio accepted a wrong pattern (the test's premise)"

# --- verify_pattern without verify: header and pattern (fio's verify type), reads checked ---
$RAIDLAB run --name=j --rw=write --size=64k --filename=r/m --verify_pattern=0xdeadbeef --keep \
	--output-format=json >rl.json || fail "verify_pattern alone"
jq -e '.jobs[0]["job options"].verify == "meta"' rl.json >/dev/null ||
	fail "verify_pattern alone: verify is $(jq '.jobs[0]["job options"].verify' rl.json)"
$RAIDLAB run --name=j --rw=read --size=64k --filename=r/m --verify_pattern=0xdeadbeef --quiet ||
	fail "reading back with verify_pattern"
expect_fail 1 "pattern mismatch" $RAIDLAB run --name=j --rw=read --size=64k --filename=r/m \
	--verify_pattern=0xdeadbeee --quiet

# --- log_offset, per_job_logs: fio's columns and file names ---
for d in f r; do
	tool="fio"
	[ $d = r ] && tool="$RAIDLAB run --quiet"
	echo stale >$d/L_bw.log
	(cd $d && $tool --name=j --rw=write --size=64m --filename=lf --rate=8m --log_avg_msec=50 \
		--runtime=400ms --time_based --numjobs=2 --write_bw_log=L --log_offset=1 \
		--per_job_logs=0 >/dev/null) || fail "$d: logs"
	(cd $d && ls L_* | tr '\n' ' ') >$d.names
	head -1 $d/L_bw.log >$d.first
	awk -F', ' 'NR > 1 { print NF }' $d/L_bw.log | sort -u >$d.cols
done
[ "$(cat f.names)" = "$(cat r.names)" ] || fail "logs: fio wrote $(cat f.names), raidlab $(cat r.names)"
[ "$(cat r.first)" = stale ] || fail "per_job_logs=0: fio adds to the shared log, raidlab truncated it"
[ "$(cat f.cols)" = 6 ] || fail "fio's log_offset lines have $(cat f.cols) columns (premise)"
cmp f.cols r.cols || fail "log_offset: raidlab's lines have $(cat r.cols) columns, fio's 6"
# both jobs' lines are in the one file: two lines per interval
[ "$(grep -c . r/L_bw.log)" -ge 5 ] || fail "per_job_logs=0: $(grep -c . r/L_bw.log) lines"

# --- unified_rw_reporting: fio's "mixed" direction in JSON, alone or beside the others ---
for m in mixed both; do
	fio --name=j --bs=4k --size=1m --rw=randrw --filename=f/u --unified_rw_reporting=$m \
		--output-format=json >f.json || fail "fio unified_rw_reporting=$m"
	$RAIDLAB run --name=j --bs=4k --size=1m --rw=randrw --filename=r/u \
		--unified_rw_reporting=$m --output-format=json >r.json || fail "unified_rw_reporting=$m"
	for path in '.jobs[0]' '.jobs[0].mixed'; do
		d=$(jq -n -c --slurpfile f f.json --slurpfile r r.json \
			"[(\$f[0]$path | keys) - (\$r[0]$path | keys), (\$r[0]$path | keys) - (\$f[0]$path | keys)]")
		[ "$d" = "[[],[]]" ] || fail "unified_rw_reporting=$m: keys at $path differ from fio's: $d"
	done
	jq -e '.jobs[0].mixed.io_bytes == 1048576 and .jobs[0].mixed.total_ios == 256' r.json \
		>/dev/null || fail "unified_rw_reporting=$m: mixed does not sum the directions"
done
jq -e '(.jobs[0].read.io_bytes + .jobs[0].write.io_bytes) == .jobs[0].mixed.io_bytes' r.json \
	>/dev/null || fail "unified_rw_reporting=both: read + write != mixed"

# --- accepted for job files by both (checked values; a wrong one is refused) ---
for o in openfiles=4 file_service_type=random:4 file_service_type=sequential overwrite=1 \
	pre_read=1 fsync_on_close=1 scramble_buffers=0 significant_figures=6 \
	unlink_each_loop=1 create_on_open=1; do
	fio --parse-only --name=j --"$o" >/dev/null 2>&1 || fail "fio refuses $o (premise)"
	$RAIDLAB run --name=j --rw=write --size=64k --filename=r/a --"$o" --quiet ||
		fail "raidlab refuses $o"
done
expect_fail 2 "file_service_type" $RAIDLAB run --name=j --filename=r/a --size=64k \
	--file_service_type=rand --quiet
expect_fail 2 "significant_figures" $RAIDLAB run --name=j --filename=r/a --size=64k \
	--significant_figures=11 --quiet
# fsync_on_close=1 flushes at the end as end_fsync=1 does
$RAIDLAB run --name=j --rw=write --size=64k --filename=r/a --fsync_on_close=1 \
	--output-format=json >rl.json || fail "fsync_on_close"
jq -e '.jobs[0]["job options"].end_fsync == "1"' rl.json >/dev/null ||
	fail "fsync_on_close=1 did not ask for the end flush"
exit 0
