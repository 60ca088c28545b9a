#!/usr/bin/env bash
# No leaks and no memory errors under valgrind on the file-suite paths:
# each suite on a dir() at a tiny scale, the merged comparison, and the
# refusals.
. "$(dirname "$0")/lib.sh"
need valgrind
need jq
case "$RAIDLAB_BUILD" in *asan*) skip_env "valgrind does not run ASan binaries (the ASan build checks leaks itself)" ;; esac


mkdir d
for s in asssd-copy untar vm-clone game-load; do
	vg "$RAIDLAB" run $s --target "dir($T/d)" --scale 0.0005 --no-drop-caches --json "$s.json" ||
		fail "$s failed under valgrind"
done
vg "$RAIDLAB" run cdm --target "file($T/c.img, size=8m)" --size 4m --passes 1 --warmup 0 \
	--duration 0.05s --label x --quiet --json cdm.json
jq '.label = "x"' asssd-copy.json >c2.json
vg "$RAIDLAB" compare cdm.json c2.json game-load.json --html r.html --csv r.csv
vg "$RAIDLAB" run passmark --target 'ssd(sm951)' --size 8m --duration 0.05s --quiet
vg "$RAIDLAB" run asssd-compr --target 'mem(size=16m)' --size 12m --quiet
# refusals
touch d/x
vg "$RAIDLAB" run untar --target "dir($T/d)" --scale 0.001 && fail "not scratch: accepted"
vg "$RAIDLAB" run untar --target "dir($T/none)" && fail "missing dir: accepted"
vg "$RAIDLAB" run untar --target "dir($T/d)" --scale 7 && fail "bad scale: accepted"
echo ok
