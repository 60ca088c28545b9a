#!/usr/bin/env bash
# fio's JSON beside raidlab's: fio and raidlab run the same small job;
# `raidlab compare` reads fio's json and json+ documents (and raidlab's own
# --output-format=json, which is fio's shape) as job results labelled with
# fio's version, next to raidlab's result; the figures shown are fio's own
# (bw_bytes, iops, lat_ns, clat_ns percentiles), and a broken fio document
# is refused naming the field.
. "$(dirname "$0")/lib.sh"
need fio
need jq

job=(--name=mixed --filename="$T/f.img" --size=4m --rw=randrw --bs=4k --direct=0)
fio "${job[@]}" --output-format=json --output=fio.json >/dev/null || fail "fio json"
fio "${job[@]}" --output-format=json+ --output=fioplus.json >/dev/null || fail "fio json+"
rm -f f.img
$RAIDLAB run "${job[@]}" --json raidlab.json --quiet || fail "raidlab run"
$RAIDLAB run "${job[@]}" --output-format=json >raidlab-fio.json || fail "raidlab run, fio's json"
fio_version=$(jq -r '."fio version"' fio.json)

$RAIDLAB compare fio.json raidlab.json >table.txt || { cat table.txt; fail "compare fio.json raidlab.json"; }
grep -q "#1  $fio_version  ($T/f.img, fio.json)" table.txt || { cat table.txt; fail "fio's column"; }
grep -q '#2 .*(raidlab.json)' table.txt || { cat table.txt; fail "raidlab's column"; }
for d in read write; do
	grep -Eq "^mixed $d +[0-9.]+ +[0-9.]+ +[-+][0-9.]+%" table.txt ||
		{ cat table.txt; fail "no '$d' row with both figures"; }
done

# the figures are fio's: MB/s = bw_bytes / 1e6, mean latency = lat_ns.mean / 1000, p99 = clat_ns's
$RAIDLAB compare fioplus.json raidlab-fio.json --csv fig.csv >/dev/null || fail "compare json+"
for d in read write; do
	row=$(grep "^1,$fio_version,fioplus.json,,mixed,$d," fig.csv) || { cat fig.csv; fail "no fio $d row"; }
	want=$(jq -r --arg d $d '.jobs[0][$d] | "\(.bw_bytes / 1e6) \(.lat_ns.mean / 1e3) \(.clat_ns.percentile["99.000000"] / 1e3)"' fioplus.json)
	got=$(awk -F, '{ print $11, $13, $16 }' <<<"$row")
	awk -v w="$want" -v g="$got" 'BEGIN { split(w, a, " "); split(g, b, " ");
		for (i = 1; i <= 3; i++) if ((a[i] - b[i]) ^ 2 > (0.001 * a[i] + 0.001) ^ 2) exit 1 }' ||
		fail "$d: fio's figures $want, compare shows $got"
	grep -q "^2,raidlab-[^,]*,raidlab-fio.json,,mixed,$d,randrw,4096,1,1," fig.csv ||
		{ cat fig.csv; fail "raidlab's fio-shaped $d row"; }
done
grep -q "^1,$fio_version,fioplus.json,,mixed,read,randrw,4096,1,1," fig.csv ||
	fail "fio's job options (rw, bs) are not the row's pattern and size"

# a job that did not write has no write row
fio --name=r --filename="$T/f.img" --size=1m --rw=read --output-format=json --output=ronly.json >/dev/null
$RAIDLAB compare ronly.json --csv ronly.csv >/dev/null || fail "compare a read-only fio job"
grep -q ',r,read,' ronly.csv || fail "the read row is missing"
grep -q ',r,write,' ronly.csv && fail "a direction that moved no bytes has a row"

# a broken fio document: the field named
jq 'del(.jobs[0].read.bw_bytes)' fio.json >nobw.json
expect_fail 1 "nobw.json: field 'jobs\[0\].read.bw_bytes' is missing" $RAIDLAB compare nobw.json
jq '.jobs[0].write.clat_ns.percentile["99.000000"] = "x"' fio.json >pct.json
expect_fail 1 "pct.json: field 'jobs\[0\].write.clat_ns.percentile.99.000000' must be a number" \
	$RAIDLAB compare pct.json
jq '.jobs = []' fio.json >nojobs.json
expect_fail 1 "nojobs.json: field 'jobs' is empty" $RAIDLAB compare nojobs.json
echo "compare_fio: ok"
