#!/usr/bin/env bash
# Bytes moved equal what was asked, for every rw mode, on a real file with
# both engines; the JSON carries the contract's fields.
. "$(dirname "$0")/lib.sh"
need jq

$RAIDLAB run --target "file($T/t.img, size=16m)" --rw=write --bs=1m --size=16m --keep --quiet
for engine in io_uring psync; do
	for rw in read write randread randwrite rw randrw trim randtrim; do
		$RAIDLAB run --target "$T/t.img" --rw=$rw --bs=64k --size=4m --offset=1m --loops=2 \
			--iodepth=4 --ioengine=$engine --quiet --json r.json
		total=$(jqv r.json '[.jobs[0].read.bytes, .jobs[0].write.bytes, .jobs[0].trim.bytes] | map(. // 0) | add')
		[ "$total" = $((2 * 4 * 1024 * 1024)) ] || fail "$engine $rw moved $total bytes"
		[ "$(jqv r.json '.jobs[0].errors')" = 0 ] || fail "$engine $rw errors"
	done
done
# the schema's contract fields
jq -e '.schema_version == 1 and .tool.name == "raidlab" and (.tool.version | length > 0)
	and (.host.kernel | length > 0) and .host.cores >= 1 and .host.memory_bytes > 0
	and .target.spec != null and .target.size_bytes == 16777216 and .target.tree.type == "file"
	and (.jobs[0] | .name and .options.rw == "randtrim")
	and (.jobs[0].trim | .ios > 0 and .bytes > 0 and .runtime_s > 0 and .mb_s > 0 and .iops > 0
	     and (.lat_us | .min > 0 and .mean >= .min and .max >= .mean and .stddev >= 0
	          and .p50 > 0 and .p90 >= .p50 and .p99 >= .p90 and .p99_9 >= .p99 and .p99_99 >= .p99_9)
	     and (.histogram.buckets | length > 0) and (.series.mb_s | type == "array"))' r.json >/dev/null ||
	fail "result JSON lacks contract fields"
# histogram counts add up to ios
jq -e '.jobs[0].trim as $t | ([$t.histogram.buckets[][2]] | add) == $t.ios' r.json >/dev/null ||
	fail "histogram counts"
echo ok
