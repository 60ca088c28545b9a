#!/usr/bin/env bash
# No leaks and no memory errors under valgrind on the CLI paths: help, info,
# run (io_uring and psync, command line and job file), and error exits.
. "$(dirname "$0")/lib.sh"
need valgrind
case "$RAIDLAB_BUILD" in *asan*) skip_env "valgrind does not run ASan binaries (the ASan build checks leaks itself)" ;; esac


vg $RAIDLAB --help
vg $RAIDLAB help options
vg $RAIDLAB help targets
vg $RAIDLAB info 'mem(size=1m)'
vg $RAIDLAB info 'mem(size=1m)' --json
vg $RAIDLAB run --target "file($T/a.img, size=4m)" --rw=randrw --size=4m --iodepth=8 --quiet --json r.json
vg $RAIDLAB run --target "file($T/a.img, size=4m)" --rw=randwrite --verify=crc32c --ioengine=psync --quiet
vg $RAIDLAB run --target 'mem(size=4m)' --rw=randread --numjobs=2 --runtime=200ms --time_based
printf '[global]\ntarget=null(size=1m)\n[a]\nrw=read\n[b]\nrw=randwrite\n' >j.fio
vg $RAIDLAB run j.fio --output-format=json,terse --output=o.txt
vg $RAIDLAB run --filename="$T/b.img" --size=1m --name=a --ioengine=libaio --rw=randrw --fsync=4 \
	--end_fsync=1 --iodepth=4 --output-format=json+ --output=o.json --name=b --rw=read
# error paths exit non-zero but must not leak either
vg $RAIDLAB info 'raid0(mem x2' || true
vg $RAIDLAB run --target 'mem()' --iodepth=zero || true
vg $RAIDLAB run --target "$T/none.img" --rw=read || true
printf '[a]\nrw=sideways\n' >bad.fio
vg $RAIDLAB run bad.fio --target 'mem()' || true
echo ok
