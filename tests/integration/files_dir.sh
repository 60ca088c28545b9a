#!/usr/bin/env bash
# Every file suite on a tmpfs-backed dir() at a small --scale.  With --keep
# the data stays, so the copies, the extracted tree and the clones are
# checked here by independent programs (diff -r, tar --diff, cmp, find)
# and their file counts against the result; without --keep nothing is left
# in the directory.  A directory holding other files is refused, and a
# --scale that does not fit is refused before anything is written.
. "$(dirname "$0")/lib.sh"
need jq
need tar
D=$(mktemp -d /dev/shm/raidlab-files.XXXXXX) || skip_env "no /dev/shm"
cleanup_hooks+=("rm -rf $D")
[ "$(stat -f -c %T "$D")" = tmpfs ] || skip_env "/dev/shm is not tmpfs"
S=0.002

run() { # SUITE [args]: one run with --keep into $D, result s-SUITE.json
	local s=$1; shift
	rm -rf "${D:?}"/*
	"$RAIDLAB" run "$s" --target "dir($D)" --scale $S --keep --quiet --json "s-$s.json" "$@" \
		2>"$s.err" || { cat "$s.err"; fail "$s failed"; }
	W=$(ls -d "$D"/raidlab-files.*)
	[ -d "$W" ] || fail "$s: no kept work directory"
}

# asssd-copy: each copy equals its source, file for file.
run asssd-copy
for t in ISO Program Game; do
	diff -r "$W/$t-src" "$W/$t-copy" || fail "asssd-copy $t: the copy differs from its source"
	n=$(find "$W/$t-copy" -type f | wc -l)
	[ "$n" = "$(jq -r ".tests[] | select(.name==\"$t\") | .files" s-asssd-copy.json)" ] ||
		fail "asssd-copy $t: $n files copied, the result says otherwise"
	[ "$(jq -r ".tests[] | select(.name==\"$t\") | .verified_files" s-asssd-copy.json)" -ge 2 ] ||
		fail "asssd-copy $t: the suite verified no files"
	[ "$(jq -r ".tests[] | select(.name==\"$t\") | .write.mb_s > 0" s-asssd-copy.json)" = true ] ||
		fail "asssd-copy $t: no MB/s"
done
# The generator is deterministic: the same seed makes the same files.
sha1=$(cd "$W/Program-src" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
run asssd-copy
sha2=$(cd "$W/Program-src" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
[ "$sha1" = "$sha2" ] || fail "the same seed made different data"
run asssd-copy --seed 7
sha3=$(cd "$W/Program-src" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
[ "$sha1" != "$sha3" ] || fail "another seed made the same data"
# Incompressible by default, compressible on request.
gz0=$(gzip -c "$W/ISO-src/f000000.bin" | wc -c)
run asssd-copy --compress 75
gz75=$(gzip -c "$W/ISO-src/f000000.bin" | wc -c)
sz=$(stat -c %s "$W/ISO-src/f000000.bin")
[ "$gz0" -gt $((sz * 99 / 100)) ] || fail "default data compressed to $gz0 of $sz bytes"
[ "$gz75" -lt $((sz * 40 / 100)) ] || fail "--compress 75 data compressed only to $gz75 of $sz"

# fc-test: the create/read/copy/delete phases of four templates; delete leaves nothing.
run fc-test
[ "$(jq '.tests | length' s-fc-test.json)" = 16 ] || fail "fc-test: not 16 tests"
[ "$(find "$W" -type f | wc -l)" = 0 ] || fail "fc-test: delete left files"
jq -e '[.tests[] | select(.name | endswith("copy")) | .verified_files >= 2] | all' s-fc-test.json \
	>/dev/null || fail "fc-test: copies not verified"

# untar: GNU tar itself compares the archive with the extracted tree.
run untar
tar -d -f "$W/tree.tar" -C "$W/tree" || fail "untar: the tree differs from the archive"
n=$(find "$W/tree" -type f | wc -l)
[ "$n" = "$(jq -r '.tests[0].files' s-untar.json)" ] || fail "untar: $n files extracted"
[ "$n" -ge 80 ] || fail "untar: only $n files at --scale $S"
dirs=$(find "$W/tree" -mindepth 1 -type d | wc -l)
[ "$dirs" -ge 10 ] || fail "untar: only $dirs folders"

# vm-clone: the clone equals the image and stays sparse.
run vm-clone
cmp "$W/disk.img" "$W/clone.img" || fail "vm-clone: the clone differs from the image"
virt=$(stat -c %s "$W/clone.img")
used=$(($(stat -c %b "$W/clone.img") * 512))
[ "$used" -lt $((virt * 7 / 10)) ] || fail "vm-clone: the clone is not sparse ($used of $virt)"
if have qemu-img; then
	cmp "$W/disk.img" "$W/clone-qemu.img" || fail "vm-clone: qemu-img's clone differs"
	[ "$(jq '.tests | length' s-vm-clone.json)" = 2 ] || fail "vm-clone: no qemu-img test"
fi

# game-load: everything read; the phases add up.
run game-load
jq -e '.tests[0] | .phases.small_files + .phases.assets == .files and .read.bytes == .bytes' \
	s-game-load.json >/dev/null || fail "game-load: phases do not add up"

# The results read like block suites: compare accepts them, and a block
# suite and a file suite of the same configuration (label) share a column.
"$RAIDLAB" compare s-asssd-copy.json s-fc-test.json >cmp.out || fail "compare refused file results"
grep -q 'ISO' cmp.out || fail "compare shows no ISO row"
"$RAIDLAB" run cdm --target "file($T/c.img, size=24m)" --size 8m --passes 1 --warmup 0 \
	--duration 0.1s --label shm --quiet --json cdm.json || fail "cdm failed"
jq '.label = "shm"' s-asssd-copy.json >copy.json
jq '.label = "shm"' s-game-load.json >game.json
"$RAIDLAB" compare cdm.json copy.json game.json --html both.html >both.out || fail "compare failed"
grep -q '#1  shm  (cdm + asssd-copy + game-load' both.out || { cat both.out; fail "not one column"; }
grep -q '^SEQ1M Q8T1 read' both.out || { cat both.out; fail "no cdm row"; }
grep -q '^asssd-copy ISO write' both.out || { cat both.out; fail "no asssd-copy row"; }
grep -q '^game-load Game load read' both.out || { cat both.out; fail "no game-load row"; }
grep -q 'asssd-copy ISO' both.html || fail "the HTML report lacks the file suite"

# Without --keep nothing stays.
rm -rf "${D:?}"/*
"$RAIDLAB" run untar --target "dir($D)" --scale $S --quiet --json u.json || fail "untar failed"
[ -z "$(ls -A "$D")" ] || fail "untar left files in $D"

# Not scratch: refused without --force-destroy; the marker makes it scratch.
echo precious >"$D/keep.txt"
expect_fail 1 "cannot tell it is scratch" "$RAIDLAB" run untar --target "dir($D)" --scale $S
[ "$(cat "$D/keep.txt")" = precious ] || fail "a refused run touched the directory"
touch "$D/.raidlab-scratch"
"$RAIDLAB" run untar --target "dir($D)" --scale $S --quiet || fail "the marker did not make it scratch"
[ "$(ls -A "$D" | wc -l)" = 2 ] || fail "the run left something next to the marker"
# Too big for the space: refused first.
rm -f "$D"/* "$D"/.raidlab-scratch
expect_fail 1 "the suite needs" "$RAIDLAB" run vm-clone --target "dir($D)" --scale 1 \
	--no-drop-caches
[ -z "$(ls -A "$D")" ] || fail "a refused run left files"
expect_fail 2 "expected a number" "$RAIDLAB" run untar --target "dir($D)" --scale 2
expect_fail 2 "ext4 or xfs" "$RAIDLAB" run untar --target "dir($D)" --fs btrfs
expect_fail 1 "No such file" "$RAIDLAB" run untar --target "dir($D/none)"
touch "$D/file"
expect_fail 1 "not a directory" "$RAIDLAB" run untar --target "dir($D/file)"
finish "files_dir: ok"
