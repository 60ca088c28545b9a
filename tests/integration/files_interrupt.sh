#!/usr/bin/env bash
# Ctrl-C on a file suite over a simulated stack in slow motion: a signal in
# any phase (mkfs on a write-through controller stack, mount, building the
# set, the measured work with its child program, the sync, the verify, the
# removal) ends the run within 5 s of the signal, with a result marked
# interrupted in that phase, and nothing left mounted, attached or running.
# SIGINT then SIGTERM, and three signals with the printed commands run,
# leave nothing either; leftovers of a killed run are named by the next run
# and removed by `raidlab cleanup`.  Last, a full-size simulated drive
# (512 GB sm951) takes the default mkfs path, discard included.
# test-alone: counts loop devices on dead FUSE files and mkfs processes machine-wide, which other file-suite tests make
. "$(dirname "$0")/lib.sh"
need jq
need_mount_chain
export TMPDIR=$T # runtime directories go here, so leftovers are ours to find
# whatever a failure leaves: removed by hand, never by the command under test alone
cleanup_hooks+=("grep -o \"$T/raidlab-fs[^ ]*/mnt\" /proc/mounts | xargs -r -n1 umount -l")
cleanup_hooks+=("losetup -a | grep \"$T/raidlab-fs\" | cut -d: -f1 | xargs -r -n1 losetup -d")
cleanup_hooks+=("grep -o \"$T/raidlab-fs[^ ]*/fuse\" /proc/mounts | xargs -r -n1 umount -l")
cleanup_hooks+=("pkill -KILL -f \"$T/raidlab-fs\"")

SSD='ssd(sm951, data=on, capacity=1g)'
PERC='controller(perc-h730p, raid0(ssd(850evo, data=on, capacity=1g) x4, chunk=64k), read=ahead, write=through, disk-cache=on)'

# loop devices whose FUSE file was unmounted lazily show as "(/nbd)": none may be added
stale_loops() { losetup -a | grep -c "(/nbd)" || true; }
STALE0=$(stale_loops)
leftovers() { # WHEN: nothing of ours may remain
	local when=$1
	[ "$(stale_loops)" -le "$STALE0" ] || fail "$when: a loop device on a dead FUSE file: $(losetup -a)"
	! grep -q "$T/raidlab-fs" /proc/mounts || fail "$when: a mount is left: $(grep "$T" /proc/mounts)"
	! losetup -a | grep -q "$T/raidlab-fs" || fail "$when: a loop device is left: $(losetup -a | grep "$T")"
	! pgrep -f "$T/raidlab-fs" >/dev/null || fail "$when: a process is left: $(pgrep -af "$T/raidlab-fs")"
	! pgrep -f "mkfs.ext4 -q -F /dev/loop" >/dev/null || fail "$when: mkfs is left running"
	! ls -d "$T"/raidlab-fs.* >/dev/null 2>&1 || fail "$when: the runtime directory is left"
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# start SUITE SPEC SLOW [SCALE]: a run in the background (small sets), its pid in $P
start() {
	local suite=$1 spec=$2 slow=$3 scale=${4:-0.01}
	[ "$suite" = vm-clone ] && scale=${4:-0.005}
	rm -f r.json
	"$RAIDLAB" run "$suite" --target "$spec" --scale "$scale" --slow "$slow" --quiet \
		--json r.json 2>r.err &
	P=$!
}

# await PHASE: poll the run's phase record until it reads PHASE (0), or the run
# ends (1).  Builtins only, every 5 ms (a read with a timeout on a FIFO no one
# writes): building a set takes a tenth of a second here.
mkfifo tick
exec {TICK}<>tick
await() {
	local f ph
	while kill -0 "$P" 2>/dev/null; do
		for f in "$T"/raidlab-fs.*/phase; do
			[ -e "$f" ] && read -r ph <"$f" 2>/dev/null && [ "$ph" = "$1" ] && return 0
		done
		read -r -t 0.005 -u "$TICK" _ || true
	done
	return 1
}

# ends_within SECS T0: the run exits within SECS of T0; its status in $RC, the time in $LAT
ends_within() {
	local limit=$1 t0=$2
	while kill -0 "$P" 2>/dev/null; do
		awk -v a="$t0" -v b="$(now)" -v l="$limit" 'BEGIN { exit !(b - a > l + 25) }' && break
		sleep 0.02
	done
	LAT=$(elapsed "$t0")
	RC=0
	kill -0 "$P" 2>/dev/null && { kill -KILL "$P"; cat r.err; fail "still running $LAT s after the signal"; }
	wait "$P" || RC=$?
	awk -v l="$LAT" -v m="$limit" 'BEGIN { exit !(l <= m) }' ||
		{ cat r.err; fail "the run took $LAT s to end after the signal (at most $limit s)"; }
}

# interrupt SUITE PHASE SPEC SLOW [SCALE]: SIGINT in PHASE; a short phase (building
# a set or removing it: a tenth of a second) may be over before the signal lands,
# so up to 6 tries
interrupt() {
	local suite=$1 phase=$2 spec=$3 slow=$4 scale=${5:-} try got
	for try in 1 2 3 4 5 6; do
		start "$suite" "$spec" "$slow" $scale
		if ! await "$phase"; then
			wait "$P" || true
			leftovers "$suite: a run that never showed '$phase'"
			continue
		fi
		local t0
		t0=$(now)
		kill -INT "$P"
		ends_within 5 "$t0"
		[ "$RC" = 1 ] || { cat r.err; fail "$suite interrupted in $phase exited $RC, expected 1"; }
		leftovers "$suite after SIGINT in $phase"
		[ -s r.json ] || { cat r.err; fail "$suite: no result after SIGINT in $phase"; }
		jq -e '.interrupted == true and .interrupted_signal == "SIGINT"' r.json >/dev/null ||
			fail "$suite: the result is not marked interrupted by SIGINT"
		got=$(jq -r .interrupted_phase r.json)
		if [ "$got" = "$phase" ]; then
			grep -q "interrupted during $phase" r.err || { cat r.err; fail "$suite: no message naming $phase"; }
			printf '%-8s %-28s exit %s s after SIGINT\n' "$suite" "$phase" "$LAT"
			return 0
		fi
		echo "note: $suite: SIGINT meant for '$phase' came in '$got' (try $try)"
	done
	fail "$suite: never interrupted in '$phase' in 6 tries"
}

# mkfs writing through a write-through controller stack in slow motion (the
# case that was ignored for minutes): wait until mkfs has written a while.
start vm-clone "$PERC" 16
for _ in $(seq 3000); do
	pgrep -f "mkfs.ext4 -q -F /dev/loop" >/dev/null && break
	kill -0 "$P" 2>/dev/null || { cat r.err; fail "vm-clone on the controller stack ended before mkfs"; }
	sleep 0.02
done
sleep 1
pgrep -f "mkfs.ext4 -q -F /dev/loop" >/dev/null || fail "mkfs is not running a second after it started"
t0=$(now)
kill -INT "$P"
ends_within 5 "$t0"
[ "$RC" = 1 ] || fail "interrupted mkfs: exit $RC"
[ "$(jq -r .interrupted_phase r.json)" = mkfs ] || fail "interrupted mkfs: $(jq -c . r.json)"
leftovers "after SIGINT in mkfs"
printf '%-8s %-28s exit %s s after SIGINT\n' vm-clone "mkfs (controller, slow x16)" "$LAT"

for ph in mount "VM clone: image" "VM clone: sync" "VM clone: clone" "VM clone: verify" \
	"VM clone: remove" "VM clone (qemu-img): clone"; do
	[ "$ph" = "VM clone (qemu-img): clone" ] && ! have qemu-img && continue
	interrupt vm-clone "$ph" "$SSD" 32
done
for ph in "Extract: tar -x" "Extract: sync" "Extract: verify"; do
	interrupt untar "$ph" "$SSD" 32
done
# the archive and the removal of 2,500 files take a quarter of a second at this scale
for ph in "Extract: archive" "Extract: remove"; do
	interrupt untar "$ph" "$SSD" 4 0.06
done

# SIGINT, then SIGTERM a second later (what timeout(1) or a service manager
# sends); and two signals at once, which makes the teardown hurry.
for gap in 1 0; do
	start vm-clone "$SSD" 32
	await "VM clone: clone" || { cat r.err; fail "never reached the clone"; }
	t0=$(now)
	kill -INT "$P"
	sleep "$gap"
	kill -TERM "$P" 2>/dev/null || true
	ends_within 5 "$t0"
	[ "$RC" = 1 ] || fail "SIGINT + SIGTERM: exit $RC"
	leftovers "after SIGINT and SIGTERM ${gap}s later"
	jq -e '.interrupted == true' r.json >/dev/null || fail "SIGINT + SIGTERM: not marked interrupted"
	echo "SIGINT, SIGTERM ${gap}s later: exit $LAT s after the first"
done

# Three signals: the run may abandon its teardown, and then prints the
# commands that remove what is left; those commands must remove it all.
start vm-clone "$SSD" 32
await "VM clone: clone" || { cat r.err; fail "never reached the clone"; }
kill -INT "$P"
kill -TERM "$P" 2>/dev/null || true
kill -HUP "$P" 2>/dev/null || true
t0=$(now)
ends_within 5 "$t0"
[ "$RC" = 1 ] || fail "three signals: exit $RC"
if grep -q "teardown abandoned" r.err; then
	grep -q "raidlab cleanup" r.err || { cat r.err; fail "abandoned without naming raidlab cleanup"; }
	sed -n 's/^  //p' r.err >cmds.sh
	[ -s cmds.sh ] || { cat r.err; fail "abandoned without commands"; }
	bash -e cmds.sh || { cat r.err; fail "the printed commands failed"; }
	echo "three signals: abandoned; the $(wc -l <cmds.sh) printed commands removed the rest"
fi
leftovers "after three signals"

# A run killed outright leaves its stack: the next run names it, and
# `raidlab cleanup` removes it (--dry-run first: it must leave it).  Until
# its parent reaps it (a harness killing a test on timeout) the killed run is
# a zombie, which holds nothing: its parent here is a `sleep` that never
# reaps, and the leftovers must be named and removable while it is one.
rm -f r.json run.pid
RAIDLAB=$RAIDLAB SSD=$SSD sh -c '"$RAIDLAB" run vm-clone --target "$SSD" --scale 0.005 \
	--slow 32 --quiet --json r.json 2>r.err & echo $! >run.pid; exec sleep 3600' &
REAPER=$!
cleanup_hooks+=("kill $REAPER")
for _ in $(seq 1000); do
	[ -s run.pid ] && break
	read -r -t 0.01 -u "$TICK" _ || true
done
P=$(cat run.pid)
await "VM clone: clone" || { cat r.err; fail "never reached the clone"; }
kill -KILL "$P"
for _ in $(seq 1000); do
	[ "$(awk '{ print $3 }' "/proc/$P/stat" 2>/dev/null)" = Z ] && break
	read -r -t 0.01 -u "$TICK" _ || true
done
[ "$(awk '{ print $3 }' "/proc/$P/stat")" = Z ] || fail "the killed run never became a zombie"
grep -q "$T/raidlab-fs.*/mnt" /proc/mounts || fail "the killed run left no mount to clean up (planting failed)"
"$RAIDLAB" run untar --target 'nosuch()' --quiet 2>warn.err || true
grep -q "earlier run that did not finish" warn.err || { cat warn.err; fail "the next run did not name the leftovers"; }
grep -q "raidlab-fs.*mount .*/mnt" warn.err || { cat warn.err; fail "the warning does not name the mount"; }
grep -q "raidlab cleanup" warn.err || { cat warn.err; fail "the warning does not name raidlab cleanup"; }
"$RAIDLAB" cleanup --dry-run >dry.out || { cat dry.out; fail "cleanup --dry-run failed"; }
grep -q "would unmount" dry.out || { cat dry.out; fail "--dry-run does not say what it would do"; }
grep -q "$T/raidlab-fs.*/mnt" /proc/mounts || fail "cleanup --dry-run removed something"
"$RAIDLAB" cleanup >clean.out || { cat clean.out; fail "raidlab cleanup failed"; }
leftovers "after raidlab cleanup"
grep -q "^detach /dev/loop" clean.out || { cat clean.out; fail "cleanup did not say it detached the loop device"; }
"$RAIDLAB" cleanup | grep -q "nothing left behind" || fail "a second cleanup found something"
kill "$REAPER"
wait "$REAPER" 2>/dev/null || true

# A full-size simulated drive on the default path: mkfs.ext4 discards all
# 512 GB through nbdfuse (no -E nodiscard).
"$RAIDLAB" run vm-clone --target 'ssd(sm951, data=on)' --scale 0.002 --quiet --json full.json \
	2>full.err || { cat full.err; fail "vm-clone on a full-size sm951 failed"; }
jq -e '.tests | length > 0 and all(.[]; .write.mb_s > 0)' full.json >/dev/null ||
	fail "full-size sm951: no figures"
jq -e '.target.mkfs_options == null' full.json >/dev/null || fail "full-size sm951: not the default mkfs path"
leftovers "after the full-size drive"
finish "files_interrupt: ok"
