#!/usr/bin/env bash
# A trace's in-flight depth: counted from a block trace's Q, merge and C
# events, kept in the iolog raidlab writes ("# in-flight depth N"), and the
# iodepth of its replay unless iodepth is given; a trace that does not know
# its depth replays with up to 64 in flight.  A sweep's replay of the trace
# uses it too.
. "$(dirname "$0")/lib.sh"
need jq

# Q Q M Q C Q C C: 1, 2, 1, 2, 1, 2, 1, 0 in flight; most 2
cat >bp.txt <<'EOF2'
  7,0    1        1     5.000000000  2463  Q  WS 0 + 8 [fio]
  7,0    1        2     5.000001000  2463  Q  WS 8 + 8 [fio]
  7,0    1        3     5.000001500  2463  M  WS 8 + 8 [fio]
  7,0    1        4     5.000002000  2463  Q   R 2048 + 16 [fio]
  7,0    0        5     5.000100000     0  C  WS 0 + 16 [0]
  7,0    1        6     5.000200000  2463  Q   R 4096 + 16 [fio]
  7,0    0        7     5.000300000     0  C   R 2048 + 16 [0]
  7,0    0        8     5.000400000     0  C   R 4096 + 16 [0]
EOF2
"$RAIDLAB" trace import bp.txt -o bp.iolog 2>imp.err || { cat imp.err; fail "import failed"; }
sed -n 2p bp.iolog | grep -qx '# in-flight depth 2' || { cat bp.iolog; fail "the iolog does not carry depth 2 on its second line"; }
grep -q 'in flight: at most 2' imp.err || { cat imp.err; fail "the summary does not give the depth"; }
[ "$(grep -c -E ' (read|write) ' bp.iolog)" = 4 ] || { cat bp.iolog; fail "merges or completions were taken for requests"; }

# without completions the depth is not known
grep -v ' C ' bp.txt >q.txt
"$RAIDLAB" trace import q.txt -o q.iolog 2>/dev/null || fail "import of Q events failed"
! grep -q '^#' q.iolog || { cat q.iolog; fail "a depth was made up for a trace without completions"; }

sim='ssd(850evo)'
depth_of() { jqv "$1" '.jobs[0].options.iodepth'; }
"$RAIDLAB" run --trace bp.iolog --target "$sim" --json a.json --quiet
[ "$(depth_of a.json)" = 2 ] || fail "replay ran at iodepth $(depth_of a.json), the trace's depth is 2"
"$RAIDLAB" run --trace bp.iolog --iodepth=7 --target "$sim" --json b.json --quiet
[ "$(depth_of b.json)" = 7 ] || fail "--iodepth=7 gave iodepth $(depth_of b.json)"
printf '[r]\niodepth=5\nread_iolog=bp.iolog\n' >job.fio
"$RAIDLAB" run job.fio --target "$sim" --json c.json --quiet
[ "$(depth_of c.json)" = 5 ] || fail "iodepth=5 in a job file gave iodepth $(depth_of c.json)"
"$RAIDLAB" run --trace q.iolog --target "$sim" --json d.json --quiet
[ "$(depth_of d.json)" = 64 ] || fail "a trace without a depth replayed at iodepth $(depth_of d.json), not 64"

# a comment that is not raidlab's depth line is a comment; a depth out of range is ignored
printf 'fio version 3 iolog\n# made by hand\n# in-flight depth 0\n0 f add\n0 f read 0 4096\n' >h.iolog
"$RAIDLAB" run --trace h.iolog --target "$sim" --json h.json --quiet || fail "comments refused"
[ "$(depth_of h.json)" = 64 ] || fail "depth 0 was taken ($(depth_of h.json))"

# a sweep replays the trace at its depth: 4 KiB reads every 10 us, 8 in flight on the trace
{
	echo 'fio version 3 iolog'
	echo '# in-flight depth 8'
	echo '0 f add'
	for i in $(seq 0 3999); do echo "$((i * 10)) f read $((i * 4096)) 4096"; done
} >burst.iolog
"$RAIDLAB" sweep burst.iolog --target 'raid0(ssd(850evo) x1)' --no-store --json sw.json --quiet 2>sw.err ||
	{ cat sw.err; fail "sweep of the trace failed"; }
"$RAIDLAB" run --trace burst.iolog --iodepth=1 --target 'raid0(ssd(850evo) x1)' --json one.json --quiet
"$RAIDLAB" run --trace burst.iolog --target 'raid0(ssd(850evo) x1)' --json eight.json --quiet
sw=$(jqv sw.json '.points[0].result.tests[0].read.mb_s')
one=$(jqv one.json '.jobs[0].read.mb_s')
eight=$(jqv eight.json '.jobs[0].read.mb_s')
awk -v s="$sw" -v e="$eight" -v o="$one" 'BEGIN { exit !(s > e * 0.98 && s < e * 1.02 && e > o * 1.2) }' ||
	fail "sweep replay gave $sw MB/s; the trace at its depth $eight, at depth 1 $one"
# and its result says so: the test's iodepth is the depth it replayed at
[ "$(jqv sw.json '.points[0].result.tests[0].iodepth')" = 8 ] ||
	fail "the sweep's result records iodepth $(jqv sw.json '.points[0].result.tests[0].iodepth'), not 8"
echo "trace_depth: ok"
