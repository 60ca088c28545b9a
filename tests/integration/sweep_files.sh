#!/usr/bin/env bash
# Sweep workloads beyond suites: a fio job file and a trace next to a
# suite in one sweep, each job a test of its own, stored by the file's
# contents (a renamed copy is found in the store, an edited file is
# measured again), bad files refused with their message, and advise
# taking a job file as its workload.
. "$(dirname "$0")/lib.sh"
need jq

cat >mix.fio <<'EOF'
[global]
size=16m
iodepth=4
[seqw]
rw=write
bs=64k
[randr]
rw=randread
bs=4k
io_size=2m
EOF
{
	echo 'fio version 3 iolog'
	echo '0 /dev/sdx add'
	for i in $(seq 0 63); do echo "$((i * 100)) /dev/sdx write $((i * 65536)) 65536"; done
	for i in $(seq 0 31); do echo "$((7000 + i * 50)) /dev/sdx read $((i * 131072)) 4096"; done
} >rec.iolog
spec='raid{0,1}(ssd(850evo) x2)'
"$RAIDLAB" sweep cdm5 mix.fio rec.iolog --target "$spec" --size 16m --duration 50ms --passes 1 \
	-j 2 --store st --json sw.json --csv sw.csv --quiet 2>err || { cat err; fail "sweep with a job file and a trace failed"; }
[ "$(jq '.points | length' sw.json)" = 6 ] || fail "expected 2 configurations x 3 workloads = 6 points, got $(jq '.points | length' sw.json)"
for w in cdm5 mix.fio rec.iolog; do
	[ "$(jq --arg w "$w" '[.points[] | select(.workload == $w)] | length' sw.json)" = 2 ] ||
		fail "workload $w does not have a point per configuration"
done
# each job of the file is a test with its own direction; the trace is one replay of both
grep -q '^raid0,.*,mix.fio,.*,seqw,write,' sw.csv || { cat sw.csv; fail "no seqw write row for the job file"; }
grep -q '^raid0,.*,mix.fio,.*,randr,read,' sw.csv || fail "no randr read row for the job file"
grep -q '^raid1,.*,rec.iolog,.*,replay,write,' sw.csv || fail "no write row for the trace's replay"
grep -q '^raid1,.*,rec.iolog,.*,replay,read,' sw.csv || fail "no read row for the trace's replay"
[ "$(grep -c ',mix.fio,.*,seqw,read,' sw.csv)" = 0 ] || fail "a write-only job has a read row"
# the trace replays on the swept configuration: raid1 writes both members, so it writes less fast
r0=$(jq '[.points[] | select(.workload == "mix.fio" and .axes.level == "raid0")][0].result.tests[0].write.mb_s' sw.json)
r1=$(jq '[.points[] | select(.workload == "mix.fio" and .axes.level == "raid1")][0].result.tests[0].write.mb_s' sw.json)
awk -v a="$r0" -v b="$r1" 'BEGIN { exit !(a > b) }' || fail "raid0 sequential writes ($r0) not above raid1's ($r1)"

# the store is keyed by contents: a renamed copy runs nothing, an edited file runs again
cp mix.fio renamed.fio
"$RAIDLAB" sweep renamed.fio --target "$spec" -j 2 --store st >out2 2>err2
grep -q "2 in the store, 0 to run" err2 || { cat err2; fail "a renamed job file was measured again"; }
echo 'rwmixread=70' >>renamed.fio
"$RAIDLAB" sweep renamed.fio --target "$spec" -j 2 --store st >out3 2>err3
grep -q "0 in the store, 2 to run" err3 || { cat err3; fail "an edited job file was taken from the store"; }

# bad files: named, exit 2
printf '[x]\nfilename=/dev/sda\nrw=read\n' >own.fio
expect_fail 2 "own.fio: job 'x' names its own filename=" "$RAIDLAB" sweep own.fio --target 'ssd(850evo)'
printf 'fio version 3 iolog\n0 f add\n10 f write 4096 x\n' >bad.iolog
expect_fail 2 "bad.iolog:3: field 5 (length)" "$RAIDLAB" sweep bad.iolog --target 'ssd(850evo)'
expect_fail 2 "not a suite" "$RAIDLAB" sweep no-such-workload --target 'ssd(850evo)'

# advise with a job file: ranked, and it says the file runs as written
"$RAIDLAB" advise --drives 2x850evo --workload mix.fio --store ast -j 2 >adv.out 2>adv.err ||
	{ cat adv.err; fail "advise with a job file failed"; }
grep -q "workload mix.fio (as the file is written)" adv.out || { cat adv.out; fail "advise did not take the job file"; }
grep -qE "^ *1  raid0 x2" adv.out || { cat adv.out; fail "advise did not rank raid0 x2 first for throughput"; }
echo "sweep_files: ok"
