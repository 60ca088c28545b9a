#!/usr/bin/env bash
# The same fio-style job file on a RAM disk and on simulated SSDs: both run,
# the simulated ones in virtual time, with sane figures and the model's
# counters in the JSON; `raidlab profiles` lists the drives.
. "$(dirname "$0")/lib.sh"
need jq
export RAIDLAB_PROFILES=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}/profiles

cat >jobs.fio <<'JOB'
; a small desktop-like mix: sequential write, random read, random write,
; one after another (stonewall), each measured alone
[global]
size=256m
iodepth=32
runtime=1
time_based=1

[seq-write]
rw=write
bs=1m

[rand-read]
stonewall
rw=randread
bs=4k

[rand-write]
stonewall
rw=randwrite
bs=4k
JOB

run() { # name spec
	$RAIDLAB run jobs.fio --target "$2" --quiet --json "$1.json" >"$1.out" 2>&1 ||
		{ cat "$1.out"; fail "$2: run failed"; }
	[ "$(jqv "$1.json" '[.jobs[].errors] | add')" = 0 ] || fail "$2: I/O errors"
	[ "$(jqv "$1.json" '.jobs | length')" = 3 ] || fail "$2: not 3 jobs"
}

run mem 'mem(size=512m)'
run ssd 'ssd(sx8200pro, pages=144, blocks=128)'
run sata 'link(ssd(samsung-850evo-500, pages=32, blocks=256, slc_size=256m), bw=400MB/s)'

# the simulated drive ran in virtual time and reports the model's counters
[ "$(jqv ssd.json '.jobs[0].clock')" = virtual ] || fail "ssd run not on the virtual clock"
[ "$(jqv mem.json '.jobs[0].clock')" != virtual ] || fail "mem run on the virtual clock"
c='.jobs[2].target_counters'
jq -e "$c.type == \"ssd\" and $c.profile == \"sx8200pro-256\" and
	$c.write_amplification >= 1 and $c.nand.bytes_written > 0" ssd.json >/dev/null ||
	fail "ssd counters missing: $(jq -c "$c" ssd.json)"

# sane figures: the NVMe model stays under its link and its dies (random reads of data
# still in the SLC cache: 8 dies / 40 us), the SATA one under its link and
# the 400 MB/s uplink.  The RAM disk runs in wall-clock time, so its rate is
# this machine's (busy or not) and is only required to be there.
sw=$(jqv ssd.json '.jobs[0].write.mb_s')
rr=$(jqv ssd.json '.jobs[1].read.iops')
awk -v x="$rr" 'BEGIN { exit !(x < 8 / 40e-6) }' || fail "ssd 4K QD32 read $rr IOPS over the dies"
# the model is deterministic (virtual time): the figures are pinned (0.1%), so a
# change to the model shows here and the expected values are updated knowingly
rw=$(jqv ssd.json '.jobs[2].write.mb_s')
pin() { awk -v x="$2" -v e="$3" 'BEGIN { exit !(x > e * 0.999 && x < e * 1.001) }' ||
	fail "$1: $2, expected $3 (deterministic)"; }
pin "ssd seq write MB/s" "$sw" 810.237
pin "ssd 4K QD32 random read IOPS" "$rr" 174835.0
pin "ssd 4K QD32 random write MB/s" "$rw" 700.832
for j in 0 1 2; do
	for d in read write; do
		v=$(jqv sata.json ".jobs[$j].$d.mb_s // 0")
		awk -v x="$v" 'BEGIN { exit !(x <= 400.5) }' || fail "sata job $j $d: $v MB/s over the link"
	done
done
mr=$(jqv mem.json '.jobs[1].read.iops')
awk -v m="$mr" 'BEGIN { exit !(m > 0) }' || fail "mem run did no 4K random reads"

# a family's larger models: capacity= above the profile's grows the dies
# (scale=dies) and TurboWrite with them up to slc_size_max; a profile
# without scale= still refuses a capacity its flash cannot hold
geo() { $RAIDLAB info "$1" | tr ',' '\n' | sed -n "s/^ *$2=//p"; }
[ "$(geo 'ssd(850evo, capacity=1TB)' dies_per_channel)" = 8 ] || fail "1 TB 850 EVO is not 64 dies"
[ "$(geo 'ssd(850evo, capacity=4TB)' dies_per_channel)" = 32 ] || fail "4 TB 850 EVO is not 256 dies"
[ "$(geo 'ssd(850evo, capacity=250GB)' dies_per_channel)" = 4 ] || fail "a smaller capacity changed the dies"
s1=$(geo 'ssd(850evo, capacity=1TB)' slc_cache_bytes)
s4=$(geo 'ssd(850evo, capacity=4TB)' slc_cache_bytes)
awk -v a="$s1" -v b="$s4" 'BEGIN { exit !(a > 11.9e9 && a < 12.5e9 && b == a) }' ||
	fail "TurboWrite at 1 TB / 4 TB: $s1 / $s4 bytes, expected 12 GB both"
[ "$(geo 'ssd(850evo, capacity=1TB, slc_size=3GB)' dies_per_channel)" = 8 ] || fail "slc_size= with capacity="
expect_fail 2 "not enough spare area" $RAIDLAB info 'ssd(sx8200pro, capacity=1TB)'

# the drive list
out=$($RAIDLAB profiles)
for p in adata-su900-256 samsung-850evo-500 sx8200pro-256 samsung-sm951-512 intel-x25v-40 \
	ocz-vertex-120; do
	grep -q "^  $p " <<<"$out" || fail "profiles does not list $p"
done
out=$($RAIDLAB profiles sx8200pro)
grep -q '^source: ' <<<"$out" || fail "profiles NAME shows no sources"
expect_fail 2 "no drive profile 'nosuch'" $RAIDLAB info 'ssd(nosuch)'
echo "ok: mem $mr IOPS, ssd $rr IOPS / $sw MB/s"
