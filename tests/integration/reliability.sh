#!/usr/bin/env bash
# Nothing acknowledged is lost silently, nothing that holds data is
# overwritten, reports do not mislead: the cases of a reliability and
# bad-input probe, each checked through the real binary.
#   1  a failed destage under write-back fails the run and names the data
#   6  output paths are checked before the run; a late failure falls back
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
	[ "$rc" -eq 1 ] || { cat "$T/sig.err"; fail "SIG$sig: exit $rc"; }
	[ ! -e "$T/sig.img" ] || fail "SIG$sig left the test file behind"
	[ "$(jqv "$T/sig.json" '.interrupted')" = true ] || fail "SIG$sig: JSON not marked interrupted"
	rm -f "$T/sig.json"
done

# --- 6: outputs are checked before the run; a late failure falls back ---
expect_fail 2 "directory /nonexistent/dir does not exist" $RAIDLAB run --target 'mem(size=1m)' \
    --rw=read --json /nonexistent/dir/out.json
expect_fail 2 "html /nonexistent/r.html" $RAIDLAB run cdm --target 'mem(size=64m)' \
    --html /nonexistent/r.html
mkdir "$T/gone"
TMPDIR="$T" $RAIDLAB run --quiet --target 'mem(size=1m)' --rw=read --time_based --runtime=1 \
    --json "$T/gone/out.json" 2>"$T/fb.err" &
pid=$!
sleep 0.3
rm -rf "$T/gone"
rc=0
wait $pid || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/fb.err"; fail "a result that could not be written: exit $rc"; }
fb=$(sed -n 's/.*the result was saved to \(.*\) instead.*/\1/p' "$T/fb.err")
[ -n "$fb" ] && [ "$(jqv "$fb" '.jobs[0].read.ios')" -gt 0 ] ||
	{ cat "$T/fb.err"; fail "no fallback result"; }
echo ok
