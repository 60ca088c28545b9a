#!/usr/bin/env bash
# What a fio user meets in the first minute, each checked beside fio itself:
# the default engine of a job on a plain file (psync, fio's), the file a job
# lays out staying after the run (fio's unlink=0), a job file read from
# standard input (`run -`), fio's `include FILE` inside a section (found
# beside the including file), and "No job(s) defined" when nothing defines
# one.  A --target job keeps raidlab's own defaults (io_uring, O_DIRECT).
. "$(dirname "$0")/lib.sh"
need fio
need jq

# header TOOL ARGS...: the job's description line ("j: (g=0): rw=...")
header() {
	local tool=$1; shift
	"$tool" "$@" >header.out 2>&1
	grep -m1 '(g=0)' header.out
}

# 1. the engine: same description line as fio, naming ioengine=psync
mkdir fio rl
(cd fio && header fio --name=j --rw=randread --size=4m >../h.fio)
(cd rl && header "$RAIDLAB" run --name=j --rw=randread --size=4m >../h.rl)
grep -q 'ioengine=psync, iodepth=1' h.fio || fail "fio's own header changed: $(cat h.fio)"
diff h.fio h.rl || fail "the job's description differs from fio's (default ioengine)"
# a job's result names the engine it ran with (raidlab's own result: fio's
# "job options" list only the options given)
"$RAIDLAB" run --name=j --filename=rl/f --rw=read --size=1m --quiet --json o.json
[ "$(jq -r '.jobs[0].options.ioengine' o.json)" = psync ] ||
	fail "a plain-file job did not run on psync: $(jq -c '.jobs[0].options' o.json)"
"$RAIDLAB" run --name=j --filename=rl/f --rw=read --size=1m --ioengine=io_uring \
	--quiet --json o.json
[ "$(jq -r '.jobs[0].options.ioengine' o.json)" = io_uring ] || fail "ioengine= given was not kept"
# a --target job keeps raidlab's defaults
"$RAIDLAB" run --target 'mem(size=4m)' --rw=read --size=1m --quiet --json o.json
[ "$(jq -r '.jobs[0].options.ioengine' o.json)" = io_uring ] ||
	fail "a --target job lost raidlab's default engine"
[ "$(jq -r '.jobs[0].options.direct' o.json)" = 1 ] || fail "a --target job lost direct=1"
# psync cannot honour cmdprio: refused for a plain-file job as fio refuses it
expect_fail 1 "cmdprio_percentage needs ioengine=io_uring or libaio" \
	"$RAIDLAB" run --name=j --filename=rl/f --rw=read --size=1m --cmdprio_percentage=50

# 2. files stay: both leave fio's default file NAME.CLONE.0 at its size
for d in fio rl; do
	[ "$(stat -c %s $d/j.0.0 2>/dev/null)" = 4194304 ] || fail "$d: j.0.0 is not left at 4 MiB"
done
"$RAIDLAB" run --name=gone --filename=rl/g --rw=write --size=1m --unlink=1 >/dev/null
[ ! -e rl/g ] || fail "unlink=1 did not remove the file"
# files raidlab makes for a --target spec are still its own to remove
"$RAIDLAB" run --target "file($T/rl/spec.img, size=1m)" --rw=write --size=1m >/dev/null
[ ! -e rl/spec.img ] || fail "a file() target raidlab created was left behind"

# 3. a job file on standard input
printf '[s]\nfilename=%s\nrw=read\nsize=1m\n' "$T/rl/s" >s.fio
fio --output-format=terse - <s.fio >t.fio
"$RAIDLAB" run --output-format=terse - <s.fio >t.rl
[ "$(cut -d';' -f3,6 t.fio)" = "$(cut -d';' -f3,6 t.rl)" ] ||
	fail "stdin job: fio '$(cut -d';' -f3,6 t.fio)', raidlab '$(cut -d';' -f3,6 t.rl)'"
expect_fail 1 "<stdin>:3: unknown option 'bogus'" \
	sh -c "printf '[s]\nrw=read\nbogus=1\n' | \"\$0\" run -" "$RAIDLAB"

# 4. include, inside a section, beside the including file
mkdir inc
printf 'rw=read\nsize=2m\n' >inc/common.fio
printf '[global]\ninclude common.fio\n[i]\nfilename=%s\n' "$T/rl/i" >inc/main.fio
printf '[i]\nfilename=%s\ninclude common.fio\nbs=8k\n' "$T/rl/i" >inc/job.fio
for f in main job; do
	fio --output-format=terse inc/$f.fio >t.fio || fail "fio refused inc/$f.fio"
	"$RAIDLAB" run --output-format=terse inc/$f.fio >t.rl || fail "raidlab refused inc/$f.fio"
	[ "$(cut -d';' -f3,6 t.fio)" = "$(cut -d';' -f3,6 t.rl)" ] ||
		fail "include ($f): fio '$(cut -d';' -f3,6 t.fio)', raidlab '$(cut -d';' -f3,6 t.rl)'"
done
printf 'include common.fio\n[i]\nfilename=x\n' >inc/outside.fio
fio inc/outside.fio >/dev/null 2>&1 && fail "fio now accepts include outside a section"
expect_fail 1 "inc/outside.fio:1: include common.fio: outside any section" \
	"$RAIDLAB" run inc/outside.fio
printf '[i]\nfilename=x\ninclude missing.fio\n' >inc/absent.fio
expect_fail 1 "inc/absent.fio:3: include missing.fio: cannot open job file inc/missing.fio" \
	"$RAIDLAB" run inc/absent.fio
printf '[i]\ninclude self.fio\n' >inc/self.fio
expect_fail 1 "nest more than 8 deep" "$RAIDLAB" run inc/self.fio

# 5. options fio accepts that raidlab refused: each beside fio
cd rl
for o in '--bs=4k,64k --rw=rw' '--bs=4k,64k,8k --rw=rw' '--bs=,16k --rw=rw' \
	'--random_distribution=zipf:1.2' '--clocksource=cpu' '--clocksource=gettimeofday'; do
	header fio --name=o --filename=o.img --size=1m --rw=read $o >../h.fio || fail "fio refused $o"
	header "$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read $o >../h.rl ||
		fail "raidlab refused $o: $(cat header.out)"
	diff ../h.fio ../h.rl || fail "$o: the job's description differs from fio's"
done
# per-direction sizes are what the requests use (the last write may be cut at the region's end)
"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=rw --bs=4k,64k --output-format=json >o.json
jq -e '.jobs[0].read.total_ios > 0 and .jobs[0].read.io_bytes == 4096 * .jobs[0].read.total_ios and
	.jobs[0].write.io_bytes > 61440 * .jobs[0].write.total_ios' o.json >/dev/null ||
	fail "bs=4k,64k: $(jq -c '.jobs[0] | [.read.io_bytes, .read.total_ios, .write.io_bytes, .write.total_ios]' o.json)"
expect_fail 1 "a range per direction (4k-8k) is not supported" \
	"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=rw --bs=4k-8k,64k
# time_based without runtime: fio's note, and the size runs once
fio --name=o --filename=o.img --size=1m --rw=read --time_based --output-format=json >o.fio 2>e.fio
"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read --time_based --output-format=json \
	>o.json 2>e.rl || fail "time_based without runtime: $(cat e.rl)"
grep -q 'time_based requires a runtime' e.fio || fail "fio's note changed: $(cat e.fio)"
grep -q 'time_based needs a runtime; it runs its size once' e.rl || fail "no note: $(cat e.rl)"
[ "$(jq .jobs[0].read.io_bytes o.json)" = "$(jq .jobs[0].read.io_bytes o.fio)" ] ||
	fail "time_based without runtime moved $(jq .jobs[0].read.io_bytes o.json), fio $(jq .jobs[0].read.io_bytes o.fio)"
# disk_util=0: no Disk stats section (fio's, when the job ran on a disk)
"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read >n.rl
"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read --disk_util=0 >d.rl
fio --name=o --filename=o.img --size=1m --rw=read --disk_util=0 >d.fio
! grep -q 'Disk stats' d.fio || fail "fio printed Disk stats with disk_util=0"
! grep -q 'Disk stats' d.rl || fail "disk_util=0 still printed Disk stats"
if grep -q 'Disk stats' n.rl; then :; else echo "note: no disk under $T to show Disk stats for"; fi
# create_only: the file is laid out, nothing is measured
for tool in fio "$RAIDLAB run"; do
	rm -f c.img
	$tool --name=c --filename=c.img --size=2m --rw=read --create_only=1 >c.out 2>&1 ||
		fail "$tool create_only: $(cat c.out)"
	[ "$(stat -c %s c.img)" = 2097152 ] || fail "$tool create_only did not lay out c.img"
	! grep -q 'READ:' c.out || fail "$tool create_only measured: $(cat c.out)"
done
printf '[a]\nfilename=c.img\nsize=1m\nrw=read\ncreate_only=1\n[b]\nfilename=c.img\nsize=1m\nrw=read\n' >mix.fio
expect_fail 1 "a run either lays out files or measures" "$RAIDLAB" run mix.fio
# allow_mounted_write=1 cannot lift raidlab's protection: refused, saying why
expect_fail 1 "only when --force-destroy is given on the command line" \
	"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read --allow_mounted_write=1
"$RAIDLAB" run --name=o --filename=o.img --size=1m --rw=read --allow_mounted_write=0 >/dev/null ||
	fail "allow_mounted_write=0 (fio's default) refused"
cd "$T"

# 6. nothing defines a job
fio >/dev/null 2>fio.err && fail "fio ran with no job"
grep -q 'No job(s) defined' fio.err || fail "fio's message changed: $(cat fio.err)"
expect_fail 1 "No job(s) defined" "$RAIDLAB" run
expect_fail 1 "No job(s) defined" "$RAIDLAB" run --rw=read --size=1m
echo "fio habits: ok"
