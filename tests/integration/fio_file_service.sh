#!/usr/bin/env bash
# A job's several files as fio 3.33 uses them: file_service_type
# roundrobin (and :N), sequential and random pick the file of each request
# as fio does, each file keeping its own offsets (compared request by
# request through both programs' write_iolog, for filename=A:B:C and
# nrfiles); and fallocate= reserves a new file's blocks with the same
# system calls as fio in every mode (strace), none with no fallocate at all.
. "$(dirname "$0")/lib.sh"
need fio
need jq
cd "$T"

# reqs LOG: each request line of an iolog v3 as "FILE ACTION OFFSET LENGTH"
reqs() { awk 'NF == 5 && $3 != "sync" {print $2, $3, $4, $5}' "$1"; }
# runs LOG: the lengths of the runs of requests on one file, space-separated
runs() { reqs "$1" | cut -d' ' -f1 | uniq -c | awk '{printf "%d ", $1}'; }
both() { # both NAME OPTIONS...: fio's log in f.NAME.log, raidlab's in r.NAME.log
	local name=$1
	shift
	rm -f ./*.dat f."$name".log r."$name".log
	fio --name=j --ioengine=psync --bs=4k --write_iolog=f."$name".log "$@" >/dev/null 2>f.err ||
		{ cat f.err; fail "fio $*"; }
	rm -f ./*.dat
	$RAIDLAB run --name=j --ioengine=psync --bs=4k --write_iolog=r."$name".log "$@" \
		>/dev/null 2>r.err || { cat r.err; fail "raidlab $*"; }
}

# --- file_service_type: the same requests in the same order as fio ---
n=0
for svc in roundrobin roundrobin:3 sequential; do
	for rw in read write; do
		n=$((n + 1))
		both $n --filename=a.dat:b.dat:c.dat --size=96k --rw=$rw --file_service_type=$svc
		[ "$(reqs f.$n.log | wc -l)" -eq 24 ] || fail "fio $svc $rw: $(reqs f.$n.log | wc -l) requests"
		diff <(reqs f.$n.log) <(reqs r.$n.log) >d.txt ||
			{ head d.txt; fail "file_service_type=$svc rw=$rw: raidlab's requests differ from fio's"; }
	done
done
both nr --nrfiles=4 --size=64k --rw=write
diff <(reqs f.nr.log) <(reqs r.nr.log) >d.txt ||
	{ head d.txt; fail "nrfiles=4: raidlab's requests differ from fio's"; }
[ "$(runs r.nr.log)" = "$(printf '1 %.0s' $(seq 16))" ] || fail "nrfiles=4 roundrobin: runs $(runs r.nr.log)"
# the default is roundrobin: one request per file in turn
both rr --filename=a.dat:b.dat --size=64k --rw=randread
[ "$(runs r.rr.log)" = "$(printf '1 %.0s' $(seq 16))" ] || fail "randread on 2 files: runs $(runs r.rr.log)"
[ "$(reqs r.rr.log | awk '$1 == "a.dat"' | cut -d' ' -f3 | sort -n | uniq | wc -l)" -eq 8 ] ||
	fail "randread: a.dat's random map did not visit its 8 blocks once each"

# random: every file gets its share (as fio), in runs of N, not in turn
for svc in random random:4; do
	both "$svc" --filename=a.dat:b.dat:c.dat --size=96k --rw=read --file_service_type=$svc
	for f in a.dat b.dat c.dat; do
		fc=$(reqs f.$svc.log | awk -v f=$f '$1 == f' | wc -l)
		rc=$(reqs r.$svc.log | awk -v f=$f '$1 == f' | wc -l)
		[ "$fc" -eq 8 ] && [ "$rc" -eq 8 ] || fail "$svc: $f got $rc requests (fio $fc), expected 8"
	done
	[ "$(reqs r.$svc.log)" != "$(reqs r.1.log)" ] || fail "$svc gave roundrobin's order"
done
for r in $(runs r.random:4.log); do
	[ $((r % 4)) -eq 0 ] || fail "random:4: a run of $r requests on one file ($(runs r.random:4.log))"
done
[ "$(runs r.random.log | wc -w)" -lt 24 ] || fail "random: never twice on one file ($(runs r.random.log))"

# --- fallocate: the same fallocate(2) calls as fio, in every mode ---
if have strace; then
	calls() { # calls PROGRAM ARGS...: its fallocate calls, without the descriptor
		# (LeakSanitizer cannot run under ptrace: leaks are checked by the runs above)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=fallocate -o st.txt "$@" >/dev/null 2>&1 || fail "$* failed"
		sed -n 's/^[0-9]* *fallocate([0-9]*, \([^)]*\)).*/\1/p' st.txt | tr '\n' ';'
	}
	for m in none native posix keep truncate 0 1; do
		for rw in write read; do
			rm -f ./*.dat
			f=$(calls fio --name=j --filename=x.dat --size=64k --bs=4k --rw=$rw --fallocate=$m \
				--ioengine=psync)
			r=$(calls $RAIDLAB run --name=j --filename=y.dat --size=64k --bs=4k --rw=$rw \
				--fallocate=$m --ioengine=psync)
			[ "$r" = "$f" ] || fail "fallocate=$m rw=$rw: raidlab called fallocate '$r', fio '$f'"
			[ "$(stat -c %s y.dat)" -eq 65536 ] || fail "fallocate=$m rw=$rw: y.dat is $(stat -c %s y.dat) bytes"
			case $m in none | 0 | truncate) [ -z "$r" ] || fail "fallocate=$m called fallocate: $r" ;; esac
		done
	done
fi
finish
