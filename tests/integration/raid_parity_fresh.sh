#!/usr/bin/env bash
# A raid5/raid6 over members raidlab has just created (filled with arbitrary
# data, parity never computed) gets md's initial resync before it is used:
# otherwise every read-modify-write carries the garbage into the parity it
# updates, and once members fail their data is rebuilt from it (the probe
# lost 29-36 of 3,000 acknowledged blocks on raid6 after a second failure;
# mem members, zero-filled and so consistent, lost none).
. "$(dirname "$0")/lib.sh"
need jq

# level NMEMBERS FAILURES: create the members in one run, write through
# them in another while FAILURES members vanish, verify at the end.
check() {
	local level=$1 n=$2 nfail=$3 i specs=() fspecs=() after=(300 1000) seed
	for ((i = 0; i < n; i++)); do
		specs+=("file(m$i.img,size=16m)")
		if ((i % 2 == 1 && i / 2 < nfail)); then
			fspecs+=("faulty(file(m$i.img), vanish-after=${after[i / 2]})")
		else
			fspecs+=("file(m$i.img)")
		fi
	done
	for seed in 1 2; do
		rm -f m*.img w.json
		# reads and writes: the files are laid out with random contents
		$RAIDLAB run --keep --target "$level($(IFS=,; echo "${specs[*]}"), chunk=64k)" \
		    --rw=randrw --bs=4k --size=4k >/dev/null 2>err || { cat err; fail "$level: create"; }
		$RAIDLAB run --quiet --force-destroy --json w.json --randseed=$seed \
		    --target "$level($(IFS=,; echo "${fspecs[*]}"), chunk=64k)" \
		    --rw=randwrite --bs=4k --size=32m --number_ios=3000 --iodepth=8 \
		    --verify=crc32c >/dev/null 2>&1 || true
		[ "$(jqv w.json '.target_final_counters.state')" = degraded ] ||
			fail "$level: $nfail member(s) did not fail: $(jqv w.json '.target_final_counters.state')"
		[ "$(jqv w.json '.jobs[0].verify.bad_blocks')" = 0 ] ||
			fail "$level seed $seed: $(jqv w.json '.jobs[0].verify.bad_blocks') acknowledged blocks lost"
		grep -q "initial resync" err || fail "$level: new members were not resynced: $(cat err)"
	done
}
check raid6 5 2
check raid5 4 1
echo ok
