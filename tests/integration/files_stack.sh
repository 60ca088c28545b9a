#!/usr/bin/env bash
# Every file suite on raid0 of two files through the whole chain: raidlab
# serve -> nbdfuse -> loop device -> mkfs.ext4 -> mount.  Each run must
# verify its copies, and leave no mount, loop device, socket, runtime
# directory or process behind -- after a normal run and after SIGINT in
# the middle of a suite.
. "$(dirname "$0")/lib.sh"
need jq
need_mount_chain
export TMPDIR=$T # the runtime directory (socket, FUSE dir, mount point) goes here
SPEC="raid0(file($T/a.img, size=96m), file($T/b.img, size=96m))"

leftovers() { # WHEN: nothing of ours may remain
	local when=$1
	! grep -q "$T/raidlab-fs" /proc/mounts || fail "$when: a mount is left: $(grep "$T" /proc/mounts)"
	! losetup -a | grep -q "$T/raidlab-fs" || fail "$when: a loop device is left: $(losetup -a | grep "$T")"
	! ls -d "$T"/raidlab-fs.* >/dev/null 2>&1 || fail "$when: the runtime directory (socket) is left"
	! pgrep -f "$T/raidlab-fs" >/dev/null || fail "$when: a process is left: $(pgrep -af "$T/raidlab-fs")"
}

for s in asssd-copy fc-test untar vm-clone game-load; do
	rm -f a.img b.img
	"$RAIDLAB" run "$s" --target "$SPEC" --label raid0 --scale 0.0015 --quiet --json "$s.json" \
		2>"$s.err" || { cat "$s.err"; fail "$s on the stack failed"; }
	leftovers "after $s"
	[ "$(jq -r .target.filesystem "$s.json")" = ext4 ] || fail "$s: no filesystem in the result"
	jq -e '.tests | length > 0 and all(.[]; (.write // .read).mb_s > 0)' "$s.json" >/dev/null ||
		fail "$s: a test without MB/s"
	jq -e '.suite.cache_drops > 0' "$s.json" >/dev/null || fail "$s: the page cache was never dropped"
done
jq -e 'all(.tests[]; .verified_files >= 2)' asssd-copy.json >/dev/null || fail "asssd-copy: not verified"
jq -e '.tests[0].verified_files >= 2 and .tests[0].files >= 60' untar.json >/dev/null ||
	fail "untar: not verified"
jq -e 'all(.tests[]; .verified_extents >= 2)' vm-clone.json >/dev/null || fail "vm-clone: not verified"
jq -e '[.tests[].write.sync_s] | all(. > 0)' asssd-copy.json >/dev/null || fail "asssd-copy: no sync time"
jq -e '.target.emulation == null' asssd-copy.json >/dev/null || fail "a real stack with an emulation report"

# --fs=xfs with options passed through, when mkfs.xfs is there (it wants
# more than 300 MB; the members are sparse files).
if have mkfs.xfs; then
	rm -f a.img b.img
	expect_fail 1 "mkfs.xfs failed: Filesystem must be larger" "$RAIDLAB" run untar \
		--target "$SPEC" --scale 0.0015 --fs xfs
	leftovers "after a failed mkfs"
	rm -f a.img b.img
	"$RAIDLAB" run untar --target "raid0(file($T/a.img, size=160m), file($T/b.img, size=160m))" \
		--scale 0.0015 --fs xfs --mkfs-options "-m crc=1" \
		--quiet --json x.json 2>x.err || { cat x.err; fail "untar on xfs failed"; }
	[ "$(jq -r .target.filesystem x.json)" = xfs ] || fail "xfs: not recorded"
	leftovers "after xfs"
fi

# Without root: a clear refusal before anything starts.
if have setpriv; then
	if setpriv --reuid=65534 --regid=65534 --clear-groups "$RAIDLAB" --help >/dev/null 2>&1; then
		expect_fail 1 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$RAIDLAB" run untar --target "raid0(mem(size=64m) x2)" --scale 0.001
	else
		defer_skip_env "user 65534 cannot run $RAIDLAB (a folder on its path is closed to others): the refusal without root"
	fi
fi

# A bad stack: serve's own message comes through, nothing is left.
expect_fail 1 "raidlab serve exited" "$RAIDLAB" run untar --target "raid0(nosuch(x))" --scale 0.001
leftovers "after a failed start"

# SIGINT in the middle of a suite: wait until the run's phase file (in its
# runtime directory) names a measured test, then interrupt.
rm -f a.img b.img
"$RAIDLAB" run fc-test --target "$SPEC" --scale 0.01 --quiet --json int.json 2>int.err &
P=$!
in_test() { cat "$T"/raidlab-fs.*/phase 2>/dev/null | grep -Eq '^(PROG|MP3|ISO|WIN)'; }
for _ in $(seq 3000); do in_test && break; kill -0 $P 2>/dev/null || break; sleep 0.02; done
in_test || { cat int.err; fail "the suite never reached a measured test"; }
kill -INT $P
rc=0
wait $P || rc=$?
[ "$rc" = 1 ] || { cat int.err; fail "interrupted run exited $rc, expected 1"; }
grep -q interrupted int.err || { cat int.err; fail "no 'interrupted' message"; }
jq -e '.interrupted == true and (.interrupted_phase | test("^(PROG|MP3|ISO|WIN)"))' int.json \
	>/dev/null || fail "the interrupted run's result is not marked with its phase"
leftovers "after SIGINT"
finish "files_stack: ok"
