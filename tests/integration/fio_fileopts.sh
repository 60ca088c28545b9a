#!/usr/bin/env bash
# fio's options for files, buffers and logs, run side by side with fio 3.33:
# nrfiles and filename_format make the same files, unlink removes them,
# allow_file_create=0 refuses a missing file, buffer_pattern and
# verify=pattern write the same bytes (and each program verifies the
# other's), verify_pattern alone checks reads, log_offset and per_job_logs
# shape the logs as fio's, unified_rw_reporting gives fio's "mixed" JSON, and
# the options accepted for job files are accepted by both; a file shorter
# than the job asks for is laid out again as fio does, unless the safety
# checks, allow_file_create=0 or create_on_open=1 say no; scramble_buffers
# stamps each write's sectors as fio's does.
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
# without --keep they stay too, as fio's do (unlink=0); unlink=1 removes them
rm -rf r/*
(cd r && $RAIDLAB run --name=j --rw=write --size=96k --nrfiles=3 --quiet) || fail "nrfiles"
[ "$(ls r | wc -l)" -eq 3 ] || fail "nrfiles: fio keeps its 3 files, raidlab left: $(ls r)"
rm -rf r/*
(cd r && $RAIDLAB run --name=j --rw=write --size=96k --nrfiles=3 --unlink=1 --quiet) ||
	fail "nrfiles unlink=1"
[ -z "$(ls r)" ] || fail "nrfiles unlink=1: left $(ls r)"

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
expect_fail 1 "r/nope does not exist.*allow_file_create=0" \
	$RAIDLAB run --name=j --rw=read --size=64k --filename=r/nope --allow_file_create=0 --quiet
[ ! -e r/nope ] || fail "allow_file_create=0 created the file"
fio --name=j --rw=read --size=64k --filename=f/nope --allow_file_create=0 >fio.out 2>&1 &&
	fail "fio ran with allow_file_create=0 (the test's premise)"
grep -q 'allow_file_create' fio.out || fail "fio's message changed"

# --- an existing file shorter than the job's region: laid out again, as fio ---
# (1 MiB of 'A's; the job asks for 4 MiB, or 3 with offset_increment)
short() { head -c 1048576 /dev/zero | tr '\0' A >"$1"; }
for args in "--rw=read" "--rw=write" "--rw=randread --offset=1m --size=3m" \
	"--rw=read --size=1m --offset_increment=1m --numjobs=3"; do
	for d in f r; do
		short $d/s
		tool="fio"
		[ $d = r ] && tool="$RAIDLAB run"
		$tool --name=j --filename=$d/s --size=4m --bs=4k $args >$d.out 2>&1 ||
			{ cat $d.out; fail "$d: short file, $args"; }
		grep 'Laying out' $d.out >$d.lay || true
		grep -c 'err= 0' $d.out >$d.ok || true
		stat -c %s $d/s >$d.size
	done
	[ -s f.lay ] || fail "fio printed no 'Laying out' line for $args (the test's premise)"
	cmp f.lay r.lay || fail "short file, $args: raidlab printed '$(cat r.lay)', fio '$(cat f.lay)'"
	cmp f.size r.size || fail "short file, $args: fio made it $(cat f.size) bytes, raidlab $(cat r.size)"
	cmp f.ok r.ok || fail "short file, $args: $(cat f.ok) jobs ran clean in fio, $(cat r.ok) in raidlab"
	[ "$(cat r.ok)" -ge 1 ] || fail "short file, $args: no job ran clean"
done
# a reading job: the old content is replaced by data (both), not kept
for d in f r; do [ "$(head -c 4 $d/s)" != AAAA ] || fail "$d: a laid out file kept its old start"; done
# JSON and terse output print no line, as fio's
short r/s
$RAIDLAB run --name=j --filename=r/s --size=4m --rw=read --output-format=json >r.json ||
	fail "short file, json"
jq -e '.jobs[0].error == 0' r.json >/dev/null || fail "short file, json: not a JSON report"
[ "$(stat -c %s r/s)" -eq 4194304 ] || fail "short file, json: not laid out"
# refused, the file left as it was: in use (open for writing elsewhere), a
# signature (also for a job that only reads), allow_file_create=0, create_on_open=1
short r/s
exec 3<>r/s
expect_fail 1 "open for writing by PID $$" $RAIDLAB run --name=j --filename=r/s --size=4m \
	--rw=read --quiet
exec 3>&-
truncate -s 1m r/w
mkswap r/w >/dev/null 2>&1 || fail "mkswap"
expect_fail 1 "swap signature.*--force-destroy" $RAIDLAB run --name=j --filename=r/w --size=4m \
	--rw=read --quiet
[ "$(stat -c %s r/w)" -eq 1048576 ] || fail "a refused short file was changed"
expect_fail 1 "allow_file_create=0" $RAIDLAB run --name=j --filename=r/s --size=4m --rw=read \
	--allow_file_create=0 --quiet
expect_fail 1 "create_on_open=1" $RAIDLAB run --name=j --filename=r/s --size=4m --rw=read \
	--create_on_open=1 --quiet
[ "$(head -c 1048576 r/s | tr -d A | wc -c)" -eq 0 ] && [ "$(stat -c %s r/s)" -eq 1048576 ] ||
	fail "a refused short file was changed"
# ... where fio removes it and fails, and leaves it short and fails
short f/s
fio --name=j --filename=f/s --size=4m --rw=read --allow_file_create=0 >/dev/null 2>&1 &&
	fail "fio ran allow_file_create=0 on a short file (the test's premise)"
short f/s
fio --name=j --filename=f/s --size=4m --rw=read --create_on_open=1 >/dev/null 2>&1 &&
	fail "fio ran create_on_open=1 on a short file (the test's premise)"
[ "$(stat -c %s f/s)" -eq 1048576 ] || fail "fio laid out with create_on_open=1 (premise)"
# --force-destroy lets it write over the signature, so it is laid out
$RAIDLAB run --name=j --filename=r/w --size=4m --rw=read --force-destroy --quiet ||
	fail "short file with a signature, --force-destroy"
[ "$(stat -c %s r/w)" -eq 4194304 ] || fail "--force-destroy: the short file was not laid out"

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
# (raidlab's own result holds every option; fio's "job options" only those given)
$RAIDLAB run --name=j --rw=write --size=64k --filename=r/m --verify_pattern=0xdeadbeef --keep \
	--quiet --json rl.json || fail "verify_pattern alone"
jq -e '.jobs[0].options.verify == "meta"' rl.json >/dev/null ||
	fail "verify_pattern alone: verify is $(jq '.jobs[0].options.verify' rl.json)"
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

# --- numjobs: each copy writes its own logs, numbered through the file as fio's jobs ---
cat >nj.fio <<EOF
[global]
rw=write
size=64m
rate=4m
runtime=600ms
time_based
log_avg_msec=100
[a]
filename=na
numjobs=2
write_bw_log=A
[b]
filename=nb
write_bw_log=B
EOF
for d in f r; do
	tool="fio"
	[ $d = r ] && tool="$RAIDLAB run --quiet"
	(cd $d && rm -f A_* B_* && $tool ../nj.fio >/dev/null) || fail "$d: numjobs logs"
	(cd $d && ls A_* B_* | tr '\n' ' ') >$d.names
done
[ "$(cat f.names)" = "$(cat r.names)" ] ||
	fail "numjobs logs: fio wrote $(cat f.names), raidlab $(cat r.names)"
# each copy's log is its own: about its 4 MiB/s, not the two copies' 8
for n in 1 2; do
	awk -F', ' '{ s += $2; k++ } END { exit !(k > 0 && s / k > 2048 && s / k < 6144) }' \
		r/A_bw.$n.log || fail "A_bw.$n.log is not one copy's: $(head -3 r/A_bw.$n.log | tr '\n' ' ')"
done
echo "numjobs logs: $(cat r.names)"

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

# --- scramble_buffers: each write's sectors carry their offset, as fio's do ---
# fio's default stamps every 512-byte sector of a write with its offset (at
# one of the first eight cache lines) and the issue time, so no two writes
# are alike; zero_buffers (unless scramble_buffers is given), buffer_pattern
# and scramble_buffers=0 leave the contents alone.
# stamped FILE: how many 512-byte sectors hold their own offset in a line
# (the first is left out: zeros would match its offset, 0)
stamped() {
	python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
n = 0
for at in range(512, len(data) - 511, 512):
    if any(struct.unpack_from('<Q', data, at + line * 64)[0] == at for line in range(8)):
        n += 1
print(n)
PY
}
sectors=$((256 * 1024 / 512 - 1))
for opts in '' '--zero_buffers=1' '--scramble_buffers=0' '--zero_buffers=1 --scramble_buffers=1' \
	'--buffer_pattern=0xdeadbeef' '--rw=randwrite --bs=4k' '--buffered=1'; do
	rm -f f/s r/s
	fio --name=j --rw=write --bs=64k --size=256k --filename=f/s $opts >/dev/null ||
		fail "fio scramble $opts"
	$RAIDLAB run --name=j --rw=write --bs=64k --size=256k --filename=r/s $opts --keep --quiet ||
		fail "raidlab scramble $opts"
	fs=$(stamped f/s)
	rs=$(stamped r/s)
	case "$opts" in
	'' | '--zero_buffers=1 --scramble_buffers=1' | '--rw=randwrite --bs=4k' | '--buffered=1')
		want=$sectors ;;
	*) want=0 ;;
	esac
	[ "$fs" -eq "$want" ] || fail "scramble '$opts': fio stamped $fs of $sectors sectors, expected $want"
	[ "$rs" -eq "$fs" ] || fail "scramble '$opts': raidlab stamped $rs sectors, fio $fs"
done
# two runs over the same file write different data (the issue times differ)
$RAIDLAB run --name=j --rw=write --bs=64k --size=256k --filename=r/s --quiet || fail "rerun"
a=$(md5sum <r/s)
$RAIDLAB run --name=j --rw=write --bs=64k --size=256k --filename=r/s --quiet || fail "rerun"
[ "$a" != "$(md5sum <r/s)" ] || fail "scramble: two runs wrote the same bytes"

# --- accepted for job files by both (checked values; a wrong one is refused) ---
for o in openfiles=4 file_service_type=random:4 file_service_type=sequential overwrite=1 \
	pre_read=1 fsync_on_close=1 scramble_buffers=0 significant_figures=6 \
	unlink_each_loop=1 create_on_open=1; do
	fio --parse-only --name=j --"$o" >/dev/null 2>&1 || fail "fio refuses $o (premise)"
	$RAIDLAB run --name=j --rw=write --size=64k --filename=r/a --"$o" --quiet ||
		fail "raidlab refuses $o"
done
expect_fail 1 "file_service_type" $RAIDLAB run --name=j --filename=r/a --size=64k \
	--file_service_type=rand --quiet
expect_fail 1 "significant_figures" $RAIDLAB run --name=j --filename=r/a --size=64k \
	--significant_figures=11 --quiet
# fsync_on_close=1 flushes at the end as end_fsync=1 does
$RAIDLAB run --name=j --rw=write --size=64k --filename=r/a --fsync_on_close=1 \
	--quiet --json rl.json || fail "fsync_on_close"
jq -e '.jobs[0].options.end_fsync == "1"' rl.json >/dev/null ||
	fail "fsync_on_close=1 did not ask for the end flush"
exit 0
