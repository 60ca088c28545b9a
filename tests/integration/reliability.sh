#!/usr/bin/env bash
# Nothing acknowledged is lost silently, nothing that holds data is
# overwritten, reports do not mislead: the cases of a reliability and
# bad-input probe, each checked through the real binary.
#   1  a failed destage under write-back fails the run and names the data
#   6  output paths (results, fio logs, --out-dir, serve's and validate's
#      files) are checked before any work; a late failure falls back
#   7  contradictions and nonsense values in specs and options are errors
#   8  NUL bytes and non-regular job files are refused, with the position
#   9  block sizes and iodepths the target or engine cannot take fail early
#  10  data-loss warnings survive --quiet, JSON agrees with stderr, an
#      interrupted run is marked, SIGHUP cleans up like SIGINT
. "$(dirname "$0")/lib.sh"
need jq

# --- 1: write-back over a member whose writes fail in one region ---
spec="cache(faulty(file($T/wb.img, size=32m, keep=on), at=1m:64k, ops=write), size=8m, write=back)"
rc=0
$RAIDLAB run --quiet --target "$spec" --rw=write --bs=64k --verify=crc32c \
    --json "$T/wb.json" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/err"; fail "lost write-back data: exit $rc, expected 1"; }
grep -q "65536 bytes of acknowledged data were never written" "$T/err" ||
	{ cat "$T/err"; fail "no data-loss line on stderr under --quiet"; }
[ "$(jqv "$T/wb.json" '.lost_acknowledged_bytes')" = 65536 ] || fail "JSON: lost bytes"
[ "$(jqv "$T/wb.json" '.target_final_counters.state')" = failed ] || fail "JSON: cache state"
[ "$(jqv "$T/wb.json" '.target_final_counters.lost_acknowledged_ranges[0].offset')" = 1048576 ] ||
	fail "JSON: lost range"
# what was reported lost is exactly what the member lacks: the rest verifies
$RAIDLAB run --quiet --target "file($T/wb.img)" --rw=write --bs=64k --size=1m \
    --verify=crc32c --verify_only=1 || fail "data before the lost range is missing"
rc=0
$RAIDLAB run --quiet --target "file($T/wb.img)" --rw=write --bs=64k --offset=1m --size=64k \
    --verify=crc32c --verify_only=1 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "the range reported lost verifies on the member"

# --- 10: a battery-backed power cut: stderr's replayed bytes are in the JSON ---
cat >"$T/pl.fio" <<EOT
[global]
bs=4k
iodepth=4
size=4m
[w]
rw=randwrite
EOT
rc=0
$RAIDLAB run "$T/pl.fio" --json "$T/bat.json" --target \
    "cache(mem(size=16m), size=8m, line=8k, idle-flush=0, dirty-high=100%, powerloss-after=500, write=back, battery=ok)" \
    >/dev/null 2>"$T/bat.err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/bat.err"; fail "power cut: exit $rc"; }
said=$(sed -n 's/.*; \([0-9]*\) dirty bytes preserved and replayed.*/\1/p' "$T/bat.err")
[ -n "$said" ] && [ "$said" -gt 0 ] || { cat "$T/bat.err"; fail "no replay line on stderr"; }
[ "$(jqv "$T/bat.json" '.target_final_counters.power.replayed_bytes')" = "$said" ] ||
	fail "JSON replayed_bytes $(jqv "$T/bat.json" '.target_final_counters.power.replayed_bytes') != stderr $said"
# a volatile cut under --quiet still says what was lost
rc=0
$RAIDLAB run "$T/pl.fio" --quiet --target \
    "cache(mem(size=16m), size=8m, line=8k, idle-flush=0, dirty-high=100%, powerloss-after=500, write=force-back, battery=none)" \
    >/dev/null 2>"$T/vol.err" || rc=$?
grep -q "bytes of acknowledged data lost" "$T/vol.err" ||
	{ cat "$T/vol.err"; fail "--quiet hid acknowledged data lost"; }

# --- 10: SIGHUP and SIGINT end the run, remove the test file, mark the JSON ---
for sig in HUP INT; do
	$RAIDLAB run --quiet --target "file($T/sig.img, size=8m)" --rw=randwrite --bs=4k \
	    --time_based --runtime=30 --json "$T/sig.json" >/dev/null 2>"$T/sig.err" &
	pid=$!
	for _ in $(seq 50); do [ -e "$T/sig.img" ] && break; sleep 0.1; done
	sleep 0.5
	kill -s "$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	# fio's status: 128 after SIGINT, 129 (a shell's for a process SIGHUP killed) after SIGHUP
	want=128
	[ "$sig" = HUP ] && want=129
	[ "$rc" -eq $want ] || { cat "$T/sig.err"; fail "SIG$sig: exit $rc, expected $want"; }
	[ ! -e "$T/sig.img" ] || fail "SIG$sig left the test file behind"
	[ "$(jqv "$T/sig.json" '.interrupted')" = true ] || fail "SIG$sig: JSON not marked interrupted"
	rm -f "$T/sig.json"
done

# --- 6: outputs are checked before the run; a late failure falls back ---
expect_fail 1 "directory /nonexistent/dir does not exist" $RAIDLAB run --target 'mem(size=1m)' \
    --rw=read --json /nonexistent/dir/out.json
expect_fail 2 "html /nonexistent/r.html" $RAIDLAB run cdm --target 'mem(size=64m)' \
    --html /nonexistent/r.html
# every output path, before any work (each run below would take seconds to minutes first)
for log in bw lat iops; do
	expect_fail 1 "write_${log}_log /nonexistent/l_${log}.1.log: directory /nonexistent" \
	    $RAIDLAB run --target 'mem(size=1m)' --rw=read --quiet --write_${log}_log=/nonexistent/l
done
expect_fail 2 "out-dir /dev/null: it is not a directory" timeout 60 $RAIDLAB run cdm \
    --target 'mem(size=64m)' --size=16m --passes=1 --warmup=0 --duration=1s --quiet --out-dir /dev/null
expect_fail 2 "serve: --json /nonexistent/s.json: directory" timeout 60 $RAIDLAB serve \
    'mem(size=1m)' --socket "$T/s.sock" --no-status --json /nonexistent/s.json
# a script waits for the ready file: one that cannot be written fails the server at once
expect_fail 2 "ready-file /nonexistent/r: directory" timeout 60 $RAIDLAB serve 'mem(size=1m)' \
    --socket "$T/s.sock" --no-status --ready-file /nonexistent/r
expect_fail 2 "validate: --json /nonexistent/v.json: directory" timeout 60 $RAIDLAB validate \
    --json /nonexistent/v.json
mkdir "$T/gone"
# the folder goes once the job runs (its first status report is out), after
# the output paths were checked
TMPDIR="$T" $RAIDLAB run --target 'mem(size=1m)' --rw=read --time_based --runtime=2 \
    --status-interval=100ms --output-format=json --json "$T/gone/out.json" >"$T/fb.out" \
    2>"$T/fb.err" &
pid=$!
for _ in $(seq 600); do [ -s "$T/fb.out" ] && break; sleep 0.05; done
[ -s "$T/fb.out" ] || fail "no status report from the run in 30 s"
rm -rf "$T/gone"
rc=0
wait $pid || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/fb.err"; fail "a result that could not be written: exit $rc"; }
fb=$(sed -n 's/.*the result was saved to \(.*\) instead.*/\1/p' "$T/fb.err")
[ -n "$fb" ] && [ "$(jqv "$fb" '.jobs[0].read.ios')" -gt 0 ] ||
	{ cat "$T/fb.err"; fail "no fallback result"; }

# --- 7: contradictions and nonsense values are errors naming them ---
expect_fail 2 "capacity= and op= both given" $RAIDLAB info 'ssd(sx8200pro, capacity=4g, op=28%)'
expect_fail 2 "size=1000 is not a multiple of bs=512" $RAIDLAB info 'mem(size=1000)'
expect_fail 2 "failed: member 0 is listed twice" $RAIDLAB info 'raid1(mem(size=1m) x2, failed=0+0)'
expect_fail 2 "powerloss-after" $RAIDLAB info 'cache(mem(size=8m), powerloss-after=0)'
expect_fail 2 "bw=0 is not a limit" $RAIDLAB info 'link(mem(size=1m), bw=0)'
expect_fail 2 "iops=0 is not a limit" $RAIDLAB info 'link(mem(size=1m), iops=0)'
expect_fail 2 "max-read-errors" $RAIDLAB info 'raid1(mem(size=1m) x2, max-read-errors=-1)'
expect_fail 1 "rwmixread=70 and rwmixwrite=70 contradict each other" $RAIDLAB run \
    --target 'null()' --rw=randrw --size=1m --rwmixread=70 --rwmixwrite=70
$RAIDLAB run --target 'null()' --rw=randrw --size=1m --rwmixread=70 --rwmixwrite=30 --quiet ||
	fail "rwmixread and rwmixwrite that agree were refused"
expect_fail 1 "--minimal is --output-format=terse: it contradicts --output-format" $RAIDLAB run \
    --target 'null()' --size=1m --minimal --output-format=json
expect_fail 2 "link: profile=nosuch: no controller profile" $RAIDLAB info \
    'link(mem(size=1m), profile=nosuch)'
expect_fail 2 "cache: profile=nosuch: no controller profile" $RAIDLAB info \
    'cache(mem(size=16m), profile=nosuch)'
expect_fail 2 "link: profile=perc-h730p is a cache controller profile" $RAIDLAB info \
    'link(mem(size=1m), profile=perc-h730p)'
$RAIDLAB info 'controller(perc-h730p, mem(size=64m))' >/dev/null || fail "controller(perc-h730p)"
expect_fail 1 "--target given twice ('mem(size=1m)' and 'null()')" $RAIDLAB run \
    --target 'mem(size=1m)' --target 'null()' --rw=read
printf '[global]\ntarget=mem(size=1m)\ntarget=null()\n[a]\nrw=read\n' >"$T/t2.fio"
expect_fail 1 "t2.fio:3: target= given twice" $RAIDLAB run "$T/t2.fio"

# --- 8: a job file is text, and a file ---
printf '[global]\nbs=4k\n[a]\nrw=read\000\n[b]\nrw=write\n' >"$T/nul.fio"
expect_fail 1 "nul.fio:4: a NUL byte at column 8" $RAIDLAB run "$T/nul.fio" --target 'mem(size=1m)'
expect_fail 1 "not a regular file" $RAIDLAB run "$T" --target 'mem(size=1m)'

# --- 9: sizes the target or the engine cannot take fail before any I/O ---
expect_fail 1 "bs=512 is not a multiple of the target's logical block size (4096" \
    $RAIDLAB run --target 'mem(size=1m, bs=4k)' --rw=read --bs=512
expect_fail 1 "bssplit=512 is not a multiple" \
    $RAIDLAB run --target 'mem(size=1m, bs=4k)' --rw=read --bssplit=4k/50:512/50
expect_fail 1 "offset=512 is not a multiple" \
    $RAIDLAB run --target 'mem(size=1m, bs=4k)' --rw=read --offset=512 --size=64k
expect_fail 1 "iodepth=40000: ioengine=io_uring runs on an io_uring ring" \
    $RAIDLAB run --target 'mem(size=64m)' --rw=read --iodepth=40000
# a later job's bad block size stops the file before the first job runs
printf '[a]\nrw=write\nsize=64k\n[b]\nrw=read\nbs=512\n' >"$T/late.fio"
expect_fail 1 "job 'b': bs=512" $RAIDLAB run "$T/late.fio" --target 'mem(size=1m, bs=4k)' --json "$T/late.json"
[ ! -e "$T/late.json" ] || fail "the first job ran although the second could not"
$RAIDLAB run --quiet --target 'mem(size=64m)' --rw=read --iodepth=40000 --ioengine=psync \
    --size=1m || fail "iodepth 40000 on psync"

# --- 9 on a real 4K-sector device (a loop device with 4096-byte sectors) ---
if [ "$(id -u)" != 0 ]; then
	defer_skip_env "not root: no loop device for the 4K-sector section"
elif have losetup; then
	truncate -s 16m "$T/4k.img"
	if dev=$(losetup -f --show --sector-size 4096 "$T/4k.img" 2>/dev/null); then
		cleanup_hooks+=("losetup -d $dev")
		expect_fail 1 "bs=512 is not a multiple of the target's logical block size (4096" \
		    $RAIDLAB run --target "$dev" --rw=read --bs=512 --size=1m
		$RAIDLAB run --quiet --target "$dev" --rw=read --bs=4k --size=1m ||
			fail "4k reads of a 4K-sector device"
	else
		defer_skip_env "losetup cannot attach a loop device with 4096-byte sectors here"
	fi
fi
finish
