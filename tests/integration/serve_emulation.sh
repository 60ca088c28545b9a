#!/usr/bin/env bash
# Emulation accuracy: a simulated stack served over NBD runs on the paced
# executor (simulated time locked to the wall clock), so fio's nbd engine
# measuring it from outside should see what the same job sees when raidlab
# runs it directly in simulated time.  For ssd(850evo) and raid0 of two, a
# 1M sequential-read job at QD32 must agree within 10 % in MB/s and in mean
# latency.  Large requests keep the server's work per simulated second small
# (under what this machine sustains, also in the ASan build), and the deep
# queue lets the model ride out the scheduling stalls of a busy machine.
# The machine is shared, so a case gets up to four attempts; every attempt
# is printed with the server's lag report.
. "$(dirname "$0")/lib.sh"
need fio
fio --enghelp=nbd >/dev/null 2>&1 || skip "fio has no nbd engine"
secs=2
job=(--rw=read --bs=1m --iodepth=32 --size=512m --runtime=$secs --time_based)

# direct TARGET: "MB/s mean_lat_us" of the job run in simulated time.
direct() {
	"$RAIDLAB" run --target "$1" "${job[@]}" --quiet --json direct.json >/dev/null
	jq -r '.jobs[0].read | "\(.mb_s) \(.lat_us.mean)"' direct.json
}
# served TARGET [SLOW]: the same job through raidlab serve and fio's nbd
# engine; in slow motion fio's wall-clock figures are scaled back.
served() {
	local slow=${2:-1}
	rm -f s.sock ready
	"$RAIDLAB" serve "$1" --socket s.sock --no-status --ready-file ready --slow "$slow" \
		>serve.out 2>serve.err &
	local spid=$!
	for _ in $(seq 100); do [ -s ready ] && break; sleep 0.05; done
	[ -s ready ] || { cat serve.err; fail "server did not start"; }
	timeout -s KILL 120 fio --name=e --ioengine=nbd --uri='nbd+unix:///?socket=s.sock' "${job[@]}" \
		--output-format=json --output=fio.json >fio.err 2>&1 || { cat fio.err; fail "fio failed"; }
	kill -TERM $spid
	wait $spid || { cat serve.err; fail "server exited non-zero"; }
	grep -q "emulation lag" serve.err || { cat serve.err; fail "no emulation lag report"; }
	grep "emulation lag" serve.err | sed 's/^raidlab serve: /    server: /' >&2
	jq -r --argjson k "$slow" '.jobs[0].read | "\(.bw_bytes / 1e6 * $k) \(.lat_ns.mean / 1000 / $k)"' fio.json
}

# Each attempt either agrees within 10 %, or comes out slower with the server
# saying it fell behind (mean lag over 200 us: the load was over what the
# machine sustained at that moment, which the server must report, not hide).
# Failures: faster than simulated (a completion before the model's time),
# slower while the server claims it kept up, or falling behind unreported.
# A case passes when an attempt agrees.  On a busy shared 2-core machine
# (other builds running) even 552 MB/s through NBD is not always there, so
# four attempts that all fell behind, each reported, pass with a note that
# says so.
for target in 'ssd(850evo, data=on)' 'raid0(ssd(850evo, data=on) x2)'; do
	read -r dmb dlat < <(direct "$target")
	ok=0 behind=0
	for attempt in 1 2 3 4; do
		read -r smb slat < <(served "$target")
		lagmean=$(sed -n 's/.*emulation lag: mean \([0-9.]*\) us.*/\1/p' serve.err)
		rc=0
		line=$(awk -v t="$target" -v a=$attempt -v dm="$dmb" -v dl="$dlat" -v sm="$smb" -v sl="$slat" \
			'BEGIN { em = (sm - dm) / dm * 100; el = (sl - dl) / dl * 100;
			         printf "%-34s try %d: simulated %7.1f MB/s %8.1f us | over NBD %7.1f MB/s %8.1f us | %+5.1f%% %+5.1f%%",
			                t, a, dm, dl, sm, sl, em, el;
			         exit (em < -10 || em > 10 || el < -10 || el > 10) }') || rc=$?
		echo "$line | lag mean $lagmean us"
		if [ $rc = 0 ]; then ok=1; break; fi
		awk -v dm="$dmb" -v dl="$dlat" -v sm="$smb" -v sl="$slat" \
			'BEGIN { exit !(sm > dm * 1.1 || sl < dl * 0.9) }' &&
			fail "$target: faster than the simulated hardware"
		awk -v l="$lagmean" 'BEGIN { exit !(l > 200) }' ||
			fail "$target: off by more than 10 % although the server kept up (lag mean $lagmean us)"
		grep -q "fell behind" serve.err || fail "$target: server fell behind without saying so"
		behind=$((behind + 1))
	done
	[ $ok = 1 ] ||
		echo "note: $target: this machine could not sustain the load in $behind attempts; each was reported"
done
# Slow motion: raid0 of two sm951 (4.3 GB/s) is more than this machine can
# emulate in real time; at --slow 8 fio sees 1/8 of it, and the figures
# scaled back agree with the simulated run within 10 %.
target='raid0(ssd(sm951, data=on) x2)'
read -r dmb dlat < <(direct "$target")
ok=0
for attempt in 1 2 3; do
	read -r smb slat < <(served "$target" 8)
	grep -q "slow motion x8" serve.err || { cat serve.err; fail "no slow-motion note in the lag report"; }
	line=$(awk -v a=$attempt -v dm="$dmb" -v dl="$dlat" -v sm="$smb" -v sl="$slat" \
		'BEGIN { em = (sm - dm) / dm * 100; el = (sl - dl) / dl * 100;
		         printf "slow motion x8 try %d: simulated %7.1f MB/s %8.1f us | over NBD x8 %7.1f MB/s %8.1f us | %+5.1f%% %+5.1f%%",
		                a, dm, dl, sm, sl, em, el;
		         exit (em < -10 || em > 10 || el < -10 || el > 10) }') && ok=1
	echo "$line"
	[ $ok = 1 ] && break
	awk -v dm="$dmb" -v sm="$smb" 'BEGIN { exit !(sm > dm * 1.1) }' &&
		fail "slow motion: faster than the simulated hardware"
done
[ $ok = 1 ] || fail "slow motion x8 did not agree with the simulated run in 3 attempts"

# --slow is refused on a real stack and out of range.
expect_fail 2 "applies to simulated stacks only" "$RAIDLAB" serve "mem(size=16m)" --socket x.sock --slow 4
expect_fail 2 "expected a whole factor" "$RAIDLAB" serve "ssd(850evo, data=on)" --socket x.sock --slow 1001
echo "serve_emulation: ok"
