#!/usr/bin/env bash
# Output paths are checked before any measurement starts, by every command
# and for every output option: an empty path is refused with the option's
# name; so is a path whose directory is missing or read-only, or that lies
# on a pseudo filesystem (proc, sysfs), where root may seem to be allowed
# to write but no file can be created.  A refusal comes within seconds,
# exits 2 (compare: 1, its status for an output it cannot write), and
# leaves no fallback result (raidlab-result-PID.json) in $TMPDIR.
. "$(dirname "$0")/lib.sh"
mkdir tmp
export TMPDIR=$T/tmp
sim='ssd(sm951)'
srv='mem(size=16m)' # serve: a target that keeps data
job=(--name=j --rw=read --bs=4k --size=1m --target "$sim")

# refused CODE PATTERN CMD...: CMD exits CODE within 10 s (a command that
# went on to serve or measure would be stopped and fail here), says
# PATTERN, and leaves nothing in $TMPDIR.
refused() {
	local code=$1 pat=$2 rc=0
	shift 2
	timeout -k 5 10 "$@" >out 2>err || rc=$?
	[ "$rc" -ne 124 ] || fail "'$*' did not stop within 10 s (it went on)"
	[ "$rc" -eq "$code" ] || { cat err; fail "'$*' exited $rc, expected $code"; }
	grep -q -- "$pat" err || { cat err; fail "'$*': no '$pat' in its error output"; }
	[ -z "$(ls -A tmp)" ] || fail "'$*' left $(ls tmp) in \$TMPDIR"
}

# --- the cases of the report: empty paths and pseudo filesystems ---
refused 2 "--socket: the path is empty" "$RAIDLAB" serve "$srv" --socket ''
refused 1 "--json: the path is empty" "$RAIDLAB" run "${job[@]}" --json=
refused 1 "--write_bw_log /proc/bw.*proc filesystem" "$RAIDLAB" run "${job[@]}" --write_bw_log=/proc/bw
refused 1 "--json /proc/x.json: /proc is on a proc filesystem" "$RAIDLAB" run "${job[@]}" --json /proc/x.json
refused 2 "--out-dir /proc: /proc is on a proc filesystem" "$RAIDLAB" run asssd --target "$sim" --out-dir /proc
refused 2 "--json /proc/x.json: /proc is on a proc filesystem" "$RAIDLAB" serve "$srv" --json /proc/x.json

# --- every command's output options ---
refused 1 "--output: the path is empty" "$RAIDLAB" run "${job[@]}" --output ''
refused 1 "--output /proc/self/status: .*proc filesystem" "$RAIDLAB" run "${job[@]}" --output /proc/self/status
refused 1 "--write_lat_log /sys/lat.*sysfs filesystem" "$RAIDLAB" run "${job[@]}" --write_lat_log=/sys/lat
refused 1 "--write_iops_log /proc/iops.*proc filesystem" "$RAIDLAB" run "${job[@]}" --write_iops_log=/proc/iops
refused 2 "--json: the path is empty" "$RAIDLAB" run asssd --target "$sim" --json ''
refused 2 "--out-dir: the path is empty" "$RAIDLAB" run asssd --target "$sim" --out-dir ''
refused 2 "--html /sys/r.html: /sys is on a sysfs filesystem" "$RAIDLAB" run cdm --target "$sim" --html /sys/r.html
refused 2 "--csv /proc/r.csv: /proc is on a proc" "$RAIDLAB" run cdm --target "$sim" --csv /proc/r.csv
mkdir scratch
refused 2 "--out-dir /proc: /proc is on a proc" "$RAIDLAB" run untar --target "dir($T/scratch)" --out-dir /proc
refused 2 "--json: the path is empty" "$RAIDLAB" run untar --target "dir($T/scratch)" --json ''
refused 2 "--ctl: the path is empty" "$RAIDLAB" serve "$srv" --ctl ''
refused 2 "--socket /proc/s: /proc is on a proc" "$RAIDLAB" serve "$srv" --socket /proc/s
refused 2 "--record /proc/r: /proc is on a proc" "$RAIDLAB" serve "$srv" --record /proc/r
refused 2 "--ready-file: the path is empty" "$RAIDLAB" serve "$srv" --ready-file ''
refused 2 "--json /proc/s.json: /proc is on a proc" "$RAIDLAB" sweep cdm5 --target 'ssd(850evo)' --json /proc/s.json
refused 2 "--html: the path is empty" "$RAIDLAB" sweep cdm5 --target 'ssd(850evo)' --html ''
refused 2 "--csv /sys/s.csv: /sys is on a sysfs" "$RAIDLAB" sweep cdm5 --target 'ssd(850evo)' --csv /sys/s.csv
refused 2 "--store /proc: /proc is on a proc" "$RAIDLAB" sweep cdm5 --target 'ssd(850evo)' --store /proc
refused 2 "--json /proc/a.json: /proc is on a proc" "$RAIDLAB" advise --drives 2x850evo --json /proc/a.json
refused 2 "--json: the path is empty" "$RAIDLAB" validate --json ''
refused 2 "--html /proc/v.html: /proc is on a proc" "$RAIDLAB" validate --html /proc/v.html
refused 2 "-o /proc/t: /proc is on a proc" "$RAIDLAB" trace record /dev/null -o /proc/t
printf '0 w 0 4096\n' >t.txt
refused 2 "-o: the path is empty" "$RAIDLAB" trace import t.txt -o ''
"$RAIDLAB" run "${job[@]}" --json r.json >/dev/null || fail "a plain run with --json failed"
refused 1 "--csv /proc/c.csv: /proc is on a proc" "$RAIDLAB" compare r.json --csv /proc/c.csv
refused 2 "--html needs a file name" "$RAIDLAB" compare r.json --html ''

# --- ordinary paths still work: the shell's own streams, a new --out-dir ---
"$RAIDLAB" run "${job[@]}" --output /dev/null || fail "--output /dev/null was refused"
"$RAIDLAB" run "${job[@]}" --json /dev/stdout >/dev/null || fail "--json /dev/stdout was refused"
"$RAIDLAB" run asssd --target "$sim" --out-dir new/ --quiet || fail "a new --out-dir DIR/ was refused"
[ "$(ls new)" ] || fail "nothing was written to the new --out-dir"
refused 1 "--json no/such/r.json: directory no/such does not exist" "$RAIDLAB" run "${job[@]}" --json no/such/r.json
refused 2 "--out-dir no/such: directory no does not exist" "$RAIDLAB" run asssd --target "$sim" --out-dir no/such
[ ! -e no ] || fail "a refused --out-dir was created"
# files named inside a new --out-dir: the folder is made first; a refused
# file then takes the new folder away again
"$RAIDLAB" run asssd --target "$sim" --out-dir hc --html hc/r.html --csv hc/r.csv --quiet ||
	fail "--html inside a new --out-dir was refused"
[ -s hc/r.html ] && [ -s hc/r.csv ] || fail "nothing was written inside the new --out-dir"
refused 2 "--html /proc/r.html: /proc is on a proc" "$RAIDLAB" run asssd --target "$sim" \
	--out-dir made --html /proc/r.html
[ ! -e made ] || fail "a refused run left the --out-dir it created"

# --- a directory that is not writable: a read-only mount as root, else mode 555 ---
mkdir ro
if [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o ro,size=1m tmpfs ro 2>/dev/null ||
		skip_env "cannot mount a read-only tmpfs (no CAP_SYS_ADMIN): the read-only case was not run"
	cleanup_hooks+=("umount '$T/ro'")
else
	chmod 555 ro
fi
refused 1 "--json ro/r.json: cannot create files in ro" "$RAIDLAB" run "${job[@]}" --json ro/r.json
refused 2 "--out-dir ro/d: cannot create files in ro" "$RAIDLAB" run asssd --target "$sim" --out-dir ro/d
echo ok
