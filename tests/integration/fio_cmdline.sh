#!/usr/bin/env bash
# fio's own command-line flags, each run through fio and raidlab side by
# side: --version, --cmdhelp[=opt], --enghelp[=engine[,opt]], --readonly,
# --warnings-fatal, --max-jobs, --aux-path, --eta-newline, --eta-interval,
# --output-format lists (fio's order: terse, JSON, normal) and
# --status-interval with json (one JSON document per interval, nothing else
# on standard output).
. "$(dirname "$0")/lib.sh"
need fio
need jq

# --version: fio's form; `raidlab version` begins with `raidlab --version`
# (then says where its data comes from and whether MPI is built in)
fio --version | grep -Eq '^fio-[0-9]' || fail "fio --version"
$RAIDLAB run --version | grep -Eq '^raidlab-[0-9]+\.[0-9]+' || fail "run --version: $($RAIDLAB run --version)"
[ "$($RAIDLAB version | head -n1)" = "$($RAIDLAB --version)" ] || fail "raidlab version differs from --version"
expect_fail 2 "takes no arguments" $RAIDLAB version extra

# --cmdhelp: the list, and one option in fio's "field: value" layout
for tool in fio "$RAIDLAB run"; do
	$tool --cmdhelp >list.txt || fail "$tool --cmdhelp"
	for o in rw bs iodepth; do
		grep -Eq "^ *$o +: ." list.txt || fail "$tool --cmdhelp does not list $o"
	done
	$tool --cmdhelp=blocksize >bs.txt || fail "$tool --cmdhelp=blocksize"
	for f in bs alias type default; do
		grep -Eq "^ +$f: ." bs.txt || { cat bs.txt; fail "$tool --cmdhelp=blocksize: no '$f:' line"; }
	done
	grep -Eq '^ +alias: blocksize$' bs.txt || fail "$tool: the alias"
done
[ "$($RAIDLAB run --cmdhelp=all | wc -l)" = "$($RAIDLAB run --cmdhelp | wc -l)" ] || fail "--cmdhelp=all"
expect_fail 1 "no option named 'nosuch'" $RAIDLAB run --cmdhelp=nosuch
# a misspelt option: fio's "No such command" (standard error), then the closest
# option's help under " - showing closest match", exit 0
for tool in fio "$RAIDLAB run"; do
	$tool --cmdhelp=iodepht >near.txt 2>near.err || fail "$tool --cmdhelp=iodepht: exit $?"
	grep -q '^No such command: iodepht$' near.err || fail "$tool: $(cat near.err)"
	[ "$(head -1 near.txt)" = " - showing closest match" ] || fail "$tool: $(head -2 near.txt)"
	sed -n 2p near.txt | grep -Eq '^ +iodepth: ' || fail "$tool: no iodepth help: $(cat near.txt)"
done

# --showcmd: a job's stonewall stays (fio: where the job file says it)
printf '[a]\nrw=read\nsize=1m\nfilename=x\n[b]\nstonewall\nrw=write\nsize=1m\nfilename=x\n' >sw.fio
for tool in fio "$RAIDLAB run"; do
	$tool --showcmd sw.fio | grep -oE -- '--(name=[a-z]|stonewall)' | tr '\n' ' ' >sw.txt
	[ "$(cat sw.txt)" = "--name=a --name=b --stonewall " ] || fail "$tool --showcmd: $(cat sw.txt)"
done

# --enghelp: fio's heading and engine names; an engine without options as fio says it
for tool in fio "$RAIDLAB run"; do
	$tool --enghelp >eng.txt || fail "$tool --enghelp"
	[ "$(head -1 eng.txt)" = "Available IO engines:" ] || fail "$tool --enghelp heading"
	for e in psync libaio io_uring null; do
		grep -q "^.$e\$" eng.txt || fail "$tool --enghelp does not list $e"
	done
	rc=0
	$tool --enghelp=psync >psync.txt 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q '^IO engine psync has no options$' psync.txt ||
		fail "$tool --enghelp=psync: exit $rc, $(cat psync.txt)"
done
expect_fail 1 "IO engine 'nosuch' not found" $RAIDLAB run --enghelp=nosuch
expect_fail 1 "IO engine psync has no option 'hipri'" $RAIDLAB run --enghelp=psync,hipri

# --readonly: a job that writes is refused by both, the file untouched; reading runs
head -c 1048576 /dev/urandom >ro.img
cp ro.img ro.orig
for tool in fio "$RAIDLAB run"; do
	rc=0
	$tool --readonly --name=w --filename="$T/ro.img" --size=1m --rw=randwrite \
		--output=/dev/null >ro.out 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat ro.out; fail "$tool --readonly with a writing job exited $rc"; }
	grep -q "read-only\|--readonly" ro.out || { cat ro.out; fail "$tool: the message"; }
	cmp -s ro.img ro.orig || fail "$tool --readonly wrote"
	$tool --readonly --name=r --filename="$T/ro.img" --size=1m --rw=read --output=/dev/null ||
		fail "$tool --readonly refused a reading job"
done
expect_fail 1 "job 'tr' writes or trims" $RAIDLAB run --readonly --name=tr --filename="$T/ro.img" \
	--size=1m --rw=trim

# --warnings-fatal, --max-jobs, --aux-path: the same command line runs under both
ok=(--warnings-fatal --max-jobs=4 --aux-path="$T" --name=a --filename="$T/a.img" --size=1m
	--numjobs=2 --output=/dev/null)
fio "${ok[@]}" || fail "fio with --warnings-fatal --max-jobs --aux-path"
$RAIDLAB run "${ok[@]}" || fail "raidlab with --warnings-fatal --max-jobs --aux-path"
expect_fail 1 "4 jobs (counting numjobs copies), more than --max-jobs=3" $RAIDLAB run --max-jobs=3 \
	--name=a --filename="$T/a.img" --size=1m --numjobs=4
expect_fail 1 "expected a number of jobs" $RAIDLAB run --max-jobs=0 --name=a --filename="$T/a.img"
expect_fail 1 "--aux-path $T/none: not a directory" $RAIDLAB run --aux-path="$T/none" --name=a \
	--filename="$T/a.img"

# --eta-newline keeps a progress line every period; --eta-interval draws it less often
rated=(--name=e --filename="$T/e.img" --size=64m --rw=randread --time_based --runtime=2
	--rate=8m --eta=always --output=/dev/null)
$RAIDLAB run "${rated[@]}" 2>plain.err || fail "--eta=always"
$RAIDLAB run "${rated[@]}" --eta-newline=500ms 2>newline.err || fail "--eta-newline"
$RAIDLAB run "${rated[@]}" --eta-interval=60s 2>interval.err || fail "--eta-interval"
draws() { grep -o 'Jobs: ' "$1" | wc -l; }
kept() { tr -cd '\n' <"$1" | wc -c; } # the line is redrawn after \r; a newline keeps it
[ "$(kept plain.err)" = 0 ] || { cat -A plain.err; fail "without --eta-newline a progress line was kept"; }
[ "$(kept newline.err)" -ge 1 ] || fail "--eta-newline kept no line"
[ "$(draws plain.err)" -ge 3 ] || fail "the progress line was drawn $(draws plain.err) times in 2 s"
[ "$(draws interval.err)" = 1 ] || fail "--eta-interval=60s drew the line $(draws interval.err) times"
expect_fail 1 "--eta-newline: expected a duration" $RAIDLAB run --eta-newline=soon --name=a \
	--filename="$T/a.img"

# --output-format lists: fio's order (terse, JSON, normal), and the JSON part parses
for tool in fio "$RAIDLAB run"; do
	$tool --name=f --filename="$T/a.img" --size=1m --output-format=normal,terse,json >multi.txt ||
		fail "$tool --output-format=normal,terse,json"
	t=$(grep -n '^3;' multi.txt | head -1 | cut -d: -f1)
	j=$(grep -n '^{' multi.txt | head -1 | cut -d: -f1)
	e=$(grep -n '^}' multi.txt | head -1 | cut -d: -f1)
	n=$(grep -En '^ *(read|f: \(groupid)' multi.txt | head -1 | cut -d: -f1)
	[ -n "$t" ] && [ -n "$j" ] && [ -n "$n" ] && [ "$t" -lt "$j" ] && [ "$e" -lt "$n" ] ||
		{ cat multi.txt; fail "$tool: terse at $t, JSON at $j-$e, normal at $n"; }
	sed -n "${j},${e}p" multi.txt | jq -e '.jobs[0].jobname == "f"' >/dev/null ||
		fail "$tool: the JSON part does not parse"
done

# --status-interval with json: standard output is JSON documents only, the last the whole
# result; each lists every job and numjobs copy, as fio's
for tool in fio "$RAIDLAB run"; do
	$tool --name=s --filename="$T/e.img" --size=64m --rw=randread --time_based --runtime=2 \
		--rate=8m --numjobs=2 --status-interval=500ms --output-format=json >status.json ||
		fail "$tool --status-interval"
	jq -s -e 'length >= 3 and all(.[]; .jobs[0].jobname == "s" and (."fio version" | type) == "string")' \
		status.json >/dev/null || { head -c 600 status.json; fail "$tool: not a stream of JSON documents"; }
	# numjobs=2: every document lists both copies, each with its own bytes
	jq -s -e 'all(.[]; (.jobs | length) == 2) and .[-2].jobs[1].read.io_bytes > 0' status.json \
		>/dev/null || fail "$tool: $(jq -s -c '[.[] | .jobs | length]' status.json) jobs per document"
	jq -s -e '[.[].jobs[0].read.io_bytes] | . == sort and .[-1] > 0' status.json >/dev/null ||
		fail "$tool: the interval documents are not cumulative"
	jq -s -e '.[-1].jobs[0].read.clat_ns.mean > 0' status.json >/dev/null ||
		fail "$tool: the last document is not the whole result"
done
echo "fio_cmdline: ok"
