#!/usr/bin/env bash
# Every suite end to end on a small RAM disk with scaled-down sizes and
# durations: the JSON names the tests in the tool's order, carries every
# measured pass (warm-up excluded) and aggregates them by the suite's rule;
# several targets give one file each and a side-by-side table; usage errors
# and the safety rule.  Then the same on a simulated drive, if the ssd
# target exists.  (Each job costs the engine ~50 ms of polling, so the runs
# are chosen to keep the job count low.)
. "$(dirname "$0")/lib.sh"
need jq

# check FILE SUITE NAMES NPASSES: a suite document of SUITE (core fields
# intact, jobs empty), tests named NAMES ('|'-joined, in order), and every
# read/write/mix object holding NPASSES passes.
check() {
	local got
	got=$(jq -r --arg s "$2" --argjson n "$4" '
		if (.schema_version == 1 and .jobs == [] and .suite.name == $s
		    and (.suite.title | length) > 0 and (.label | length) > 0
		    and .target.size_bytes > 0 and (.host | type) == "object"
		    and all(.tests[]; (.pattern | IN("seq", "rand", "mixed"))
		                      and .iodepth >= 1 and .threads >= 1)) | not
		then "not a \($s) suite document"
		elif ([.tests[] | (.read, .write, .mix) | select(. != null) | .passes | length]
		      | length > 0 and all(. == $n)) | not
		then "not \($n) passes in every direction"
		else [.tests[].name] | join("|") end' "$1")
	[ "$got" = "$3" ] || fail "$1: $got (expected tests '$3')"
}
# expect FILE DESCRIPTION JQ-EXPR: the expression holds
expect() { jq -e "$3" "$1" >/dev/null || fail "$1: $2"; }

CDM8="SEQ1M Q8T1|SEQ1M Q1T1|RND4K Q32T1|RND4K Q1T1"
CDM7="SEQ1M Q8T1|SEQ1M Q1T1|RND4K Q32T16|RND4K Q1T1"
mem='mem(size=32m)'

# --- cdm: a warm-up and 2 measured passes; best MB/s, lowest latency, CDM's IOPS ---
$RAIDLAB run cdm --target "$mem" --size=16m --passes=2 --duration=0.03 --quiet --json cdm.json
check cdm.json cdm "$CDM8" 2
expect cdm.json "best of the passes" '.suite.aggregate == "best"
	and .suite.params == {size_bytes: 16777216, passes: 2, warmup_passes: 1, duration_s: 0.03,
	                      interval_s: 0, mix: false, mix_read_pct: 70, small_pages: false}
	and all(.tests[]; .read.mb_s == ([.read.passes[].mb_s] | max)
		and .write.mb_s == ([.write.passes[].mb_s] | max)
		and .read.lat_us.mean == ([.read.passes[].lat_us.mean] | min)
		and ((.read.iops - .read.mb_s * 1e6 / .bs) | fabs) < 1e-6 * .read.iops)
	and (.tests[0].read.passes[0] | .ios > 0 and (.histogram.buckets | length) > 0
		and (.series.mb_s | length) > 0 and .runtime_s > 0.025)'

# --- cdm6 with the mix; one pass, no warm-up ---
$RAIDLAB run cdm6 --target "$mem" --size=8m --passes=1 --warmup=0 --duration=0.01 --mix --quiet \
	--json cdm6.json
check cdm6.json cdm6 "Seq Q32T1|4KiB Q8T8|4KiB Q32T1|4KiB Q1T1" 1
expect cdm6.json "sizes and the mix" '.tests[0].bs == 131072 and .tests[1].threads == 8
	and .suite.params.size_bytes == 8388608
	and all(.tests[]; .mix.rwmixread == 70
		and ((.mix.passes[0].bytes - .mix.passes[0].ios * .bs) | fabs) < 1)'

# --- cdm-nvme: the table as the tool shows it ---
$RAIDLAB run cdm-nvme --target "$mem" --size=8m --passes=1 --warmup=0 --duration=0.01 \
	--json nvme.json >table.txt
check nvme.json cdm-nvme "SEQ1M Q8T1|SEQ128K Q32T1|RND4K Q32T16|RND4K Q1T1" 1
expect nvme.json "RND4K Q32T16" '.tests[2] | .threads == 16 and .iodepth == 32 and .bs == 4096'
grep -q '^RND4K Q32T16 ' table.txt && grep -q 'Read' table.txt && grep -q 'Write' table.txt &&
	grep -q 'MB/s' table.txt || { cat table.txt; fail "cdm-nvme table"; }

# --- several targets (cdm7): one file per configuration, side-by-side table ---
$RAIDLAB run cdm7 --target "$mem" --target 'mem(size=16m)' --label one --label 'two / b' \
	--out-dir cmp --size=4m --passes=1 --warmup=0 --duration=0.01 >side.txt 2>side.err
[ -f cmp/cdm7-one.json ] && [ -f cmp/cdm7-two_b.json ] || { ls cmp; fail "one JSON per configuration"; }
check cmp/cdm7-one.json cdm7 "$CDM7" 1
check cmp/cdm7-two_b.json cdm7 "$CDM7" 1
[ "$(jqv cmp/cdm7-two_b.json .label)" = "two / b" ] || fail "label recorded"
grep -q 'one' side.txt && grep -q 'two / b' side.txt && grep -q 'SEQ1M Q8T1' side.txt ||
	{ cat side.txt side.err; fail "side-by-side table"; }

# --- atto: the sweep up to the test area, write and read each at QD4 ---
$RAIDLAB run atto --target "$mem" --size=1m --quiet --json atto.json
check atto.json atto "512B|1K|2K|4K|8K|16K|32K|64K|128K|256K|512K|1M" 1
expect atto.json "each size covers the area once" 'all(.tests[]; .pattern == "seq" and .iodepth == 4
	and .read.passes[0].bytes == 1048576 and .write.passes[0].bytes == 1048576
	and .read.mb_s == .read.passes[0].mb_s)'
# default out dir '.', file names from the specs, made unique; --min-bs/--max-bs/--qd
$RAIDLAB run atto --target 'mem(size=4m)' --target 'mem(size=4m)' --size=2m --min-bs=1m --qd=2 \
	--quiet
[ -f 'atto-mem_size_4m.json' ] && [ -f 'atto-mem_size_4m-2.json' ] || { ls; fail "default names"; }
# --html and --csv write the comparison
$RAIDLAB run atto --target 'mem(size=4m)' --target 'null(size=4m)' --size=2m --min-bs=1m --qd=2 \
	--quiet --out-dir hc --html hc/r.html --csv hc/r.csv
grep -q '<svg' hc/r.html || fail "--html wrote no chart"
grep -q '^' hc/r.csv && [ "$(wc -l <hc/r.csv)" -gt 2 ] || fail "--csv"
check atto-mem_size_4m-2.json atto "1M|2M" 1
expect atto-mem_size_4m.json "--qd" 'all(.tests[]; .iodepth == 2)'

# --- asssd: mean of 2 passes, 64 threads on their own regions, access times, score ---
$RAIDLAB run asssd --target "$mem" --size=16m --passes=2 --duration=0.02 --quiet --json asssd.json
check asssd.json asssd "Seq|4K|4K-64Thrd|Acc.time" 2
expect asssd.json "mean, own regions, access times" '.suite.aggregate == "mean"
	and all(.tests[]; ((.read.mb_s - ([.read.passes[].mb_s] | add / length)) | fabs)
	                  < 1e-6 * .read.mb_s)
	and .tests[0].bs == 16777216 and .tests[2].threads == 64
	and ([.tests[2].read.passes[].bytes] | all(. == 16777216))
	and .tests[3].write_bs == 512 and .tests[3].write.access_time_ms > 0
	and .tests[3].access_time_ms == .tests[3].read.lat_us.mean / 1000'
expect asssd.json "score formula" '(.tests | map({(.name): .}) | add) as $t | .scores as $s
	| ($s.read - (0.1 * $t.Seq.read.mb_s + $t["4K"].read.mb_s + $t["4K-64Thrd"].read.mb_s)
	   | fabs) < 1e-6 * $s.read
	and ($s.write - (0.1 * $t.Seq.write.mb_s + $t["4K"].write.mb_s
	   + $t["4K-64Thrd"].write.mb_s) | fabs) < 1e-6 * $s.write
	and ($s.total - (0.1 * $t.Seq.read.mb_s + 0.15 * $t.Seq.write.mb_s + 2 * $t["4K"].read.mb_s
	   + $t["4K"].write.mb_s + 1.5 * $t["4K-64Thrd"].read.mb_s + $t["4K-64Thrd"].write.mb_s)
	   | fabs) < 1e-6 * $s.total'

# --- anvil: 32K and 128K read only ---
$RAIDLAB run anvil --target "$mem" --size=8m --duration=0.01 --quiet --json anvil.json
check anvil.json anvil "Seq 4MB|4K|4K QD4|4K QD16|32K|128K" 1
expect anvil.json "tests" '.tests[4].write == null and .tests[5].write == null
	and .tests[3].iodepth == 16 and .tests[0].bs == 4194304'

# --- iometer: the four profiles with read, write and total ---
$RAIDLAB run iometer --target "$mem" --size=8m --duration=0.03 --qd=4 --quiet --json iometer.json
check iometer.json iometer "Database|File Server|Web Server|Workstation" 1
expect iometer.json "profiles" '.tests[0].rwmixread == 67 and .tests[0].bs == 8192
	and .tests[1].bssplit != null and .tests[2].write == null and .tests[2].mix == null
	and .tests[3].random_pct == 80 and all(.tests[]; .iodepth == 4)
	and all(.tests[] | select(.mix); ((.mix.mb_s - .read.mb_s - .write.mb_s) | fabs)
	                                 < 1e-6 * .mix.mb_s)
	and .tests[1].read.passes[0].ios > 2 * .tests[1].write.passes[0].ios'

# --- fio-randrw: one randrw job from its options; reads are --mix-read % ---
$RAIDLAB run fio-randrw --target "$mem" --size=8m --duration=0.03 --mix-read=75 --block=16k \
	--qd=4 --threads=2 --quiet --json fiorand.json
check fiorand.json fio-randrw "randrw" 1
expect fiorand.json "the job" '.tests | length == 1 and (.[0] | .bs == 16384 and .iodepth == 4
	and .threads == 2 and .rwmixread == 75 and .random_pct == 100
	and (.read.passes[0].ios / (.read.passes[0].ios + .write.passes[0].ios)) > 0.7
	and (.read.passes[0].ios / (.read.passes[0].ios + .write.passes[0].ios)) < 0.8)'
if $RAIDLAB run cdm --target "$mem" --threads=2 --quiet >/dev/null 2>err.txt; then
	fail "cdm took --threads"
fi
grep -q "threads" err.txt || fail "cdm's refusal of --threads does not name it: $(cat err.txt)"

# --- hdtune: transfer-rate curve, access time, burst; --write adds the writes ---
$RAIDLAB run hdtune --target 'mem(size=16m)' --zones=4 --sample=1m --duration=0.02 --quiet \
	--json hd.json
RA_R="Random Access 512 bytes (read)|Random Access 4 KB (read)|Random Access 64 KB (read)|Random Access 1 MB (read)|Random Access Random (read)|4 KB random read"
RA_W="Random Access 512 bytes (write)|Random Access 4 KB (write)|Random Access 64 KB (write)|Random Access 1 MB (write)|Random Access Random (write)"
check hd.json hdtune "Transfer Rate (read)|Access Time (read)|Burst Rate (read)|$RA_R" 1
expect hd.json "curve, access time, burst" '(.tests[0] | .curve.x_label == "position_gb"
		and (.curve.x | length) == 4 and (.curve.mb_s | length) == 4
		and .min_mb_s <= .read.mb_s and .read.mb_s <= .max_mb_s
		and .read.passes[0].bytes == 4 * 1048576)
	and .tests[1].access_time_ms > 0 and .tests[2].burst_mb_s > 0
	and .suite.params.write == false and .suite.params.size_bytes == 16777216'
expect hd.json "random access: QD1 over the span, access time = mean latency, 4 KB alias" '
	[.tests[3:8][] | .read.passes[0] | (.bytes / .ios)] as $avg
	| $avg[0] == 512 and $avg[1] == 4096 and $avg[2] == 65536 and $avg[3] == 1048576
	and $avg[4] > 512 and $avg[4] < 1048576 and .tests[7].bssplit == "512/25:4k/25:64k/25:1m/25"
	and all(.tests[3:8][]; .iodepth == 1 and .read.iops > 0
		and ((.access_time_ms - .read.lat_us.mean / 1e3) | fabs) < 1e-9)
	and .tests[8].same_as == "Random Access 4 KB (read)" and .tests[8].read == .tests[4].read'
$RAIDLAB run hdtune --target 'mem(size=16m)' --zones=2 --sample=1m --duration=0.01 --write \
	--quiet --json hdw.json
check hdw.json hdtune "Transfer Rate (read)|Access Time (read)|Burst Rate (read)|Transfer Rate (write)|Access Time (write)|Burst Rate (write)|$RA_R|$RA_W" 1

# --- steady: fill, rounds to steady state or the limit, write over LBA ---
$RAIDLAB run steady --target 'mem(size=8m)' --fill=1 --round=0.02 --time-limit=0.1 --zones=4 \
	--quiet --json steady.json
expect steady.json "names" '[.tests[].name] == ["Fill", "RND4K Q32T1", "Write over LBA"]'
expect steady.json "rounds and curves" '.tests[1] as $r
	| ($r.write.passes | length) == $r.steady_state.rounds
	and ($r.curve.x | length) == $r.steady_state.rounds and $r.curve.x_label == "time_s"
	and $r.steady_state.rounds >= 1 and $r.steady_state.window_rounds <= 5
	and (.tests[2].curve.x | length) == 4 and .tests[0].write.passes[0].bytes == 8388608'

# --- usage and refusals ---
expect_fail 1 "give --size=SIZE to use less" $RAIDLAB run cdm --target 'mem(size=8m)' --quiet
$RAIDLAB run atto --target 'mem(size=4m)' --force --min-bs=4m --quiet --json forced.json 2>/dev/null
expect forced.json "--force uses the whole target" '.suite.params.size_bytes == 4194304'
expect_fail 2 "does not take --passes" $RAIDLAB run atto --target "$mem" --passes=3
expect_fail 2 "unknown option '--iodepth'" $RAIDLAB run cdm --target "$mem" --iodepth=3
expect_fail 2 "no target" $RAIDLAB run cdm --size=1m
expect_fail 2 "--passes" $RAIDLAB run cdm --target "$mem" --passes=0
expect_fail 2 "use --out-dir" $RAIDLAB run cdm --target "$mem" --target "$mem" --json x.json
out=$($RAIDLAB run cdm --help); grep -q -- '--mix' <<<"$out" || fail "run cdm --help"
out=$($RAIDLAB help suites)
for s in anvil asssd atto cdm cdm-nvme cdm6 cdm7 fio-randrw hdtune iometer steady; do
	grep -q "^$s - " <<<"$out" || fail "help suites lacks $s"
done
out=$($RAIDLAB help run); grep -q 'SUITE' <<<"$out" || fail "help run mentions suites"
# safety: a plain existing file is written (as fio writes it), one with a signature only with
# --force-destroy; reading is fine
head -c 2097152 /dev/urandom >mine.img
$RAIDLAB run atto --target "$T/mine.img" --size=1m --min-bs=1m --quiet || fail "atto on a plain file"
mkswap mine.img >/dev/null 2>&1 || fail "mkswap"
expect_fail 1 "swap signature" $RAIDLAB run atto --target "$T/mine.img" --size=1m --quiet
$RAIDLAB run hdtune --target "$T/mine.img" --zones=2 --sample=64k --duration=0.01 --quiet ||
	fail "hdtune reads without write intent"
expect_fail 1 "swap signature" $RAIDLAB run hdtune --target "$T/mine.img" --write --quiet
$RAIDLAB run atto --target "$T/mine.img" --size=1m --min-bs=1m --quiet --force-destroy ||
	fail "atto with --force-destroy"

# --- a simulated drive ---
if ! $RAIDLAB help targets | grep -q '^  ssd '; then
	skip "the simulated part needs the ssd target, which this build lacks (the rest passed)"
fi
ssd='ssd(sx8200pro)'
$RAIDLAB run cdm --target "$ssd" --size=16m --passes=2 --warmup=0 --duration=0.05 --quiet \
	--json sim.json
check sim.json cdm "$CDM8" 2
expect sim.json "simulated time" '.target.simulated == true
	and all(.tests[]; .read.mb_s > 0 and .write.mb_s > 0)
	and ((.tests[0].read.passes[0].runtime_s - 0.05) | fabs) < 0.01'
$RAIDLAB run asssd --target "$ssd" --size=16m --passes=1 --duration=0.02 --quiet --json sim-as.json
check sim-as.json asssd "Seq|4K|4K-64Thrd|Acc.time" 1
expect sim-as.json "score" '.scores.total > 0'
$RAIDLAB run hdtune --target "$ssd" --zones=4 --sample=1m --duration=0.02 --quiet --json sim-hd.json
expect sim-hd.json "the whole simulated drive" '.tests[0].curve.x[3] > 150
	and .suite.params.size_bytes == .target.size_bytes'
$RAIDLAB run steady --target "$ssd" --size=16m --fill=1 --round=0.02 --time-limit=0.1 --zones=2 \
	--quiet --json sim-st.json
expect sim-st.json "names" '[.tests[].name] == ["Fill", "RND4K Q32T1", "Write over LBA"]'
echo ok
