#!/usr/bin/env bash
# The controller cache through the real binary: data written through
# cache(...) under the write and read policies, with several threads, reads
# back right (verify); an orderly end of the run leaves every acknowledged
# write on real file members (checked by verifying the member files without
# the cache); a power cut names its losses in the JSON result and on stderr,
# a battery-backed cache loses nothing (replayed at the end), a volatile one
# loses exactly data the member files then lack; the JSON records the
# configuration and the counters; simulated members run through the cache.
. "$(dirname "$0")/lib.sh"
need jq

# 1. verify through raid1 of mem under the policies, 2 threads on io_uring
#    (every combination is in tests/unit/test_cache.c; here: real threads)
for p in "back none on" "through ahead off" "force-back adaptive on" "back ahead off"; do
	# shellcheck disable=SC2086 # three words on purpose
	set -- $p
	$RAIDLAB run --quiet \
	    --target "cache(raid1(mem(size=8m) x2), size=1m, line=16k, write=$1, read=$2, disk-cache=$3)" \
	    --rw=randrw --bssplit=4k/60:16k/30:64k/10 --iodepth=8 --numjobs=2 \
	    --size=8m --verify=crc32c || fail "verify through cache write=$1 read=$2 disk-cache=$3"
done

# 2. file members: after the run (finish = orderly shutdown) the files hold the data
spec="cache(raid1(file($T/a.img, size=16m, keep=on), file($T/b.img, size=16m, keep=on)), size=8m, line=16k, write=back, idle-flush=0, dirty-high=100%)"
$RAIDLAB run --quiet --target "$spec" --rw=randwrite --bs=4k --iodepth=8 --size=8m \
    --verify=crc32c --json "$T/wb.json" || fail "write-back run on files"
[ "$(jqv "$T/wb.json" '.jobs[0].target_counters.dirty_bytes')" -gt 0 ] ||
	fail "nothing was left dirty in the cache at the end of the job"
for m in a b; do
	$RAIDLAB run --quiet --target "file($T/$m.img)" --rw=randwrite --bs=4k --iodepth=8 \
	    --size=8m --verify=crc32c --verify_only=1 || fail "member $m.img lacks data after the run"
done
[ "$(jqv "$T/wb.json" '.target.tree.write_effective')" = back ] || fail "describe: write_effective"
[ "$(jqv "$T/wb.json" '.target.tree.line_bytes')" = 16384 ] || fail "describe: line_bytes"

# 3. power cut during a second job: job 1's data is dirty in the cache when it fails
cat >"$T/pl.fio" <<EOF
[global]
bs=4k
iodepth=4
size=4m
[first]
rw=randwrite
verify=crc32c
[second]
stonewall
rw=randwrite
offset=8m
EOF
plspec() { # $1: policy, $2: file prefix
	echo "cache(file($T/$2.img, size=16m, keep=on), size=8m, line=8k, idle-flush=0, dirty-high=100%, disk-cache=off, powerloss-after=1500, $1)"
}
# battery-backed: nothing lost, the dirty cache is replayed
rc=0
$RAIDLAB run "$T/pl.fio" --target "$(plspec "write=back, battery=ok" bat)" \
    --json "$T/bat.json" >/dev/null 2>"$T/bat.err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/bat.err"; fail "power cut: expected exit 1 (I/O errors), got $rc"; }
[ "$(jqv "$T/bat.json" '.jobs[1].target_counters.power.state')" = off ] || fail "power state"
[ "$(jqv "$T/bat.json" '.jobs[1].target_counters.power.acknowledged_writes')" = 1500 ] ||
	fail "acknowledged writes at the cut"
[ "$(jqv "$T/bat.json" '.jobs[1].target_counters.power.lost_bytes')" = 0 ] ||
	fail "a battery-backed cache lost data"
[ "$(jqv "$T/bat.json" '.jobs[1].target_counters.power.preserved_bytes')" -gt 0 ] ||
	fail "nothing preserved"
grep -q "power cut after 1500 acknowledged writes: 0 bytes" "$T/bat.err" ||
	{ cat "$T/bat.err"; fail "no power-cut line on stderr"; }
$RAIDLAB run --quiet --target "file($T/bat.img)" --rw=randwrite --bs=4k --iodepth=4 \
    --size=4m --verify=crc32c --verify_only=1 || fail "replayed data missing on the member"
# volatile (force-back, no battery): the dirty data is lost, and listed
rc=0
$RAIDLAB run "$T/pl.fio" --target "$(plspec "write=force-back, battery=none" vol)" \
    --json "$T/vol.json" >/dev/null 2>"$T/vol.err" || rc=$?
[ "$rc" -eq 1 ] || fail "volatile power cut: exit $rc"
lost=$(jqv "$T/vol.json" '.jobs[1].target_counters.power.lost_controller_cache_bytes')
[ "$lost" -gt 0 ] || fail "a volatile cache lost nothing"
[ "$(jqv "$T/vol.json" '[.jobs[1].target_counters.power.lost_ranges[].length] | add')" = "$lost" ] ||
	fail "lost ranges do not add up"
[ "$(jqv "$T/vol.json" '.jobs[1].target_counters.power.lost_ranges[0].cause')" = controller-cache ] ||
	fail "lost range cause"
grep -q "lost offset" "$T/vol.err" || fail "lost ranges not printed"
rc=0
$RAIDLAB run --target "file($T/vol.img)" --rw=randwrite --bs=4k --iodepth=4 --size=4m \
    --verify=crc32c --verify_only=1 --json "$T/volv.json" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "the lost data is on the member after all"
# every block verify finds bad lies in a lost range (4k blocks, lost ranges block-aligned)
bad=$(jqv "$T/volv.json" '.jobs[0].verify.bad_blocks')
if [ "$bad" -eq 0 ] || [ $((bad * 4096)) -gt "$lost" ]; then
	fail "$bad bad blocks on the member, $lost bytes reported lost"
fi

# 4. simulated members: write-back absorbs 4k writes
$RAIDLAB run --quiet --target "cache(raid0(ssd(samsung-850evo-500) x2, chunk=64k), size=64m)" \
    --rw=randwrite --bs=4k --iodepth=1 --size=32m --runtime=50ms --time_based=1 \
    --json "$T/sim.json" || fail "simulated run through the cache"
[ "$(jqv "$T/sim.json" '.jobs[0].target_counters.writes_back')" -gt 0 ] || fail "sim: no write-back"
[ "$(jqv "$T/sim.json" '.target.tree.holds_data')" = false ] || fail "sim: timing-only cache holds data"

# a cache larger than its target keeps a line per line of the target (256 of 64k for 16m), not
# tables for 1 TiB (16 Mi lines, 1.97 GB); the data still verifies
$RAIDLAB run --quiet --target 'cache(mem(size=16m), size=1t, write=back)' --rw=randwrite \
    --size=1m --verify=crc32c --json "$T/big.json" || fail "cache size=1t over 16m"
[ "$(jqv "$T/big.json" '.target.tree.lines')" = 256 ] ||
	fail "cache size=1t over 16m: $(jqv "$T/big.json" '.target.tree.lines') lines"

# destaging into raid6 still in flight when a job ends is left on that job's
# executor; its stripe locks are taken over by the next job (the run used to
# retry them forever at the final flush, deaf to SIGTERM)
timeout -k 5 300 $RAIDLAB run cdm5 --quiet --size 16m --passes 1 --duration 100ms --out-dir "$T/o6" \
    --target 'controller(perc-h730p, raid6(ssd(850evo) x4, chunk=64k), write=back)' ||
	fail "cdm5 on raid6 behind a write-back controller did not finish"
jq -e '[.. | objects | select(has("orphaned_stripe_locks")) | .orphaned_stripe_locks] | add > 0' \
    "$T"/o6/*.json >/dev/null || fail "raid6: no stripe lock taken over from a gone executor"
echo ok
