#!/usr/bin/env bash
# PassMark's disk tests and workers (simulated drive, short passes) and AS
# SSD's compression benchmark (a real file, kept, whose regions must
# compress as the points say: gzip is the independent judge).
. "$(dirname "$0")/lib.sh"
need jq
need gzip

"$RAIDLAB" run passmark --target 'ssd(sm951)' --size 32m --duration 0.3s --quiet --json pm.json ||
	fail "passmark failed"
[ "$(jq '.tests | length' pm.json)" = 6 ] || fail "passmark: not 6 tests"
t() { jq -r ".tests[] | select(.name == \"$1\") | $2" pm.json; }
[ "$(t Database .bs)" = 2048 ] && [ "$(t Database .iodepth)" = 128 ] || fail "Database: bs/qd"
[ "$(t Workstation .iodepth)" = 1 ] || fail "Workstation is not synchronous"
[ "$(t 'Sequential Read' .iodepth)" = 20 ] && [ "$(t 'Sequential Read' .bs)" = 16384 ] ||
	fail "Sequential Read: bs/qd"
for w in "Database 0.90" "File Server 0.80" "Workstation 0.70"; do
	name=${w% *} share=${w##* }
	got=$(t "$name" '.read.iops / (.read.iops + .write.iops)')
	awk -v g="$got" -v s="$share" 'BEGIN { exit !(g > s - 0.03 && g < s + 0.03) }' ||
		fail "$name: read share $got, expected $share"
done
[ "$(t 'Sequential Write' '.read // "none"')" = none ] || fail "Sequential Write has reads"

"$RAIDLAB" run asssd-compr --target "file($T/c.img, size=24m)" --size 22m --keep --quiet \
	--json c.json || fail "asssd-compr failed"
[ "$(jq '.tests | length' c.json)" = 11 ] || fail "asssd-compr: not 11 points"
jq -e 'all(.tests[]; .read.mb_s > 0 and .write.mb_s > 0)' c.json >/dev/null || fail "a point without figures"
# region i = [i * 2 MiB, (i + 1) * 2 MiB)
reg() { dd if=c.img bs=1M skip=$(($1 * 2)) count=2 status=none | gzip -c | wc -c; }
z0=$(reg 0) z5=$(reg 5) z10=$(reg 10)
[ "$z0" -gt 2000000 ] || fail "0 % point compressed to $z0 bytes"
[ "$z5" -lt 1300000 ] && [ "$z5" -gt 700000 ] || fail "50 % point compressed to $z5 bytes"
[ "$z10" -lt 100000 ] || fail "100 % point compressed only to $z10 bytes"
echo "suites_passmark: ok"
