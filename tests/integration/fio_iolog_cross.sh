#!/usr/bin/env bash
# fio's iologs both ways, with fio 3.33: raidlab's write_iolog is fio's
# format (version 3 line, add/open/close lines, one line per request on
# its own file) and fio replays it issuing exactly the requests it holds;
# raidlab replays fio's write_iolog of a two-file job without --filename,
# each request on the file the log names (a replay that writes its own
# iolog gives back the same file/action/offset/length sequence), creating
# missing files at the size the trace needs; replay_redirect sends every
# file's requests to one file, as fio; numjobs copies append their logs to
# one file, which both programs replay whole; a log that cannot be written
# fails the run naming it; merge_blktrace_file and
# --merge-blktrace-only are refused, naming the option.
. "$(dirname "$0")/lib.sh"
need fio
need jq
cd "$T"

# counts NAME.json DIR: "ios bytes" of direction DIR (read/write) in a JSON report
counts() { jq -r --arg d "$2" '[.jobs[0][$d].total_ios, .jobs[0][$d].io_bytes] | @tsv' "$1"; }
# logged LOG ACTION: "ios bytes" of ACTION lines in an iolog v3
logged() { awk -v a="$2" 'NF == 5 && $3 == a {n++; b += $5} END {printf "%d\t%d\n", n, b}' "$1"; }
# reqs LOG: each request line as "FILE ACTION OFFSET LENGTH"
reqs() { awk 'NF == 5 && $3 != "sync" {print $2, $3, $4, $5}' "$1"; }

# --- 1. raidlab writes, fio replays ---
mkdir a && cd a
$RAIDLAB run --name=w --filename=one.dat:two.dat --size=256k --bs=4k --rw=randrw \
	--ioengine=psync --write_iolog=r.log --output-format=json >w.json ||
	fail "raidlab run with write_iolog"
[ "$(head -1 r.log)" = "fio version 3 iolog" ] || fail "r.log: version line is '$(head -1 r.log)'"
for f in one.dat two.dat; do
	for a in add open close; do
		[ "$(awk -v f=$f -v a=$a '$2 == f && $3 == a' r.log | wc -l)" -eq 1 ] ||
			fail "r.log: no single '$f $a' line"
	done
done
for d in read write; do
	[ "$(counts w.json $d)" = "$(logged r.log $d)" ] ||
		fail "r.log holds $(logged r.log $d) $d requests/bytes, the run issued $(counts w.json $d)"
done
[ "$(logged r.log read | cut -f1)" -gt 0 ] && [ "$(logged r.log write | cut -f1)" -gt 0 ] ||
	fail "randrw logged no reads or no writes"
fio --name=rep --read_iolog=r.log --ioengine=psync --output-format=json >f.json 2>f.err ||
	{ cat f.err; fail "fio cannot replay raidlab's write_iolog"; }
for d in read write; do
	[ "$(counts f.json $d)" = "$(logged r.log $d)" ] ||
		fail "fio replayed $(counts f.json $d) $d requests/bytes of raidlab's log, which holds $(logged r.log $d)"
done
cd ..

# --- 2. fio writes, raidlab replays without --filename ---
mkdir b && cd b
fio --name=w --filename=c.dat:d.dat --size=256k --bs=4k --rw=randrw --ioengine=psync \
	--write_iolog=f.log --output-format=json >fw.json || fail "fio write_iolog"
$RAIDLAB run --name=rep --read_iolog=f.log --write_iolog=back.log --output-format=json \
	>r.json 2>r.err || { cat r.err; fail "raidlab cannot replay fio's write_iolog without --filename"; }
for d in read write; do
	[ "$(counts r.json $d)" = "$(counts fw.json $d)" ] ||
		fail "raidlab replayed $(counts r.json $d) $d requests/bytes, fio issued $(counts fw.json $d)"
done
diff <(reqs f.log) <(reqs back.log) >d.txt ||
	{ head d.txt; fail "raidlab's replay did not issue fio's requests on their own files"; }
cd ..

# --- 3. the files of the log missing: created at the size the trace needs ---
mkdir c && cd c
cp ../b/f.log .
$RAIDLAB run --name=rep --read_iolog=f.log --output-format=json >r.json 2>r.err ||
	{ cat r.err; fail "replay with the log's files missing"; }
for f in c.dat d.dat; do
	need_sz=$(awk -v f=$f '$2 == f && NF == 5 && $4 + $5 > m {m = $4 + $5} END {print m}' f.log)
	[ -f $f ] && [ "$(stat -c %s $f)" -ge "$need_sz" ] ||
		fail "$f missing or smaller than the $need_sz bytes its requests reach"
done
[ "$(counts r.json read)" = "$(counts ../b/fw.json read)" ] || fail "replay on created files: reads"
cd ..

# --- 4. replay_redirect: every file's requests on one file, as fio ---
mkdir d && cd d
cp ../b/f.log .
$RAIDLAB run --name=rep --read_iolog=f.log --replay_redirect=one.img --write_iolog=o.log \
	--output-format=json >r.json 2>r.err || { cat r.err; fail "replay_redirect"; }
[ "$(reqs o.log | cut -d' ' -f1 | sort -u)" = one.img ] ||
	fail "replay_redirect: requests went to $(reqs o.log | cut -d' ' -f1 | sort -u | tr '\n' ' ')"
[ ! -e c.dat ] && [ ! -e d.dat ] || fail "replay_redirect still made the log's own files"
diff <(reqs f.log | cut -d' ' -f2-) <(reqs o.log | cut -d' ' -f2-) >/dev/null ||
	fail "replay_redirect changed the requests"
fio --name=rep --read_iolog=f.log --replay_redirect=one.img --ioengine=psync \
	--output-format=json >f.json 2>/dev/null || fail "fio replay_redirect"
for d in read write; do
	[ "$(counts r.json $d)" = "$(counts f.json $d)" ] ||
		fail "replay_redirect: raidlab $(counts r.json $d), fio $(counts f.json $d) $d"
done
cd ..

# --- 5. numjobs=2 append two logs to one file (as fio); both programs replay all ---
mkdir e && cd e
$RAIDLAB run --name=j --filename=n.dat --size=64k --bs=4k --rw=randread --numjobs=2 \
	--write_iolog=n.log --output-format=terse >/dev/null || fail "numjobs=2 write_iolog"
[ "$(grep -c '^fio version 3 iolog$' n.log)" -eq 2 ] || fail "numjobs=2: not two logs in n.log"
[ "$(logged n.log read | cut -f1)" -eq 32 ] || fail "numjobs=2: $(logged n.log read) reads logged"
$RAIDLAB run --name=r --read_iolog=n.log --output-format=json >r.json || fail "replay of two logs"
fio --name=r --read_iolog=n.log --output-format=json >f.json 2>/dev/null || fail "fio replay of two logs"
[ "$(counts r.json read)" = "$(logged n.log read)" ] && [ "$(counts f.json read)" = "$(logged n.log read)" ] ||
	fail "two logs: raidlab replayed $(counts r.json read), fio $(counts f.json read), logged $(logged n.log read)"
cd ..
expect_fail 1 "write_iolog: $T/no/such/x.log" $RAIDLAB run --name=j --filename=e/n.dat --size=64k \
	--rw=read --write_iolog="$T/no/such/x.log"

# --- 6. merging blktrace binaries: refused, naming the option ---
expect_fail 1 "merge_blktrace_file" $RAIDLAB run --name=m --read_iolog=b/f.log \
	--merge_blktrace_file=m.bin
expect_fail 1 "merge-blktrace-only" $RAIDLAB run --merge-blktrace-only --name=m \
	--read_iolog=b/f.log
echo ok
