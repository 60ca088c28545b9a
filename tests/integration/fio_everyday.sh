#!/usr/bin/env bash
# Thirty everyday fio command lines (the kind fio's HOWTO and its users'
# scripts hold; fio_everyday.lines), each run by fio first and then,
# unchanged, by `raidlab run` in the same folder: raidlab must accept every
# one, write to the plain file fio laid out without --force-destroy, and
# give the output the line asks for (a JSON document, a terse line, fio's
# help layouts).  F is the job's file,
# D a folder beside it.  A line marked "existing:" runs on a file laid out
# beforehand (fio's --readonly refuses to create one).
. "$(dirname "$0")/lib.sh"
need fio
need jq

# the lines, one a line after the comments
mapfile -t lines < <(grep -v '^#' "$INTEG_DIR/fio_everyday.lines")
[ ${#lines[@]} = 30 ] || fail "${#lines[@]} lines, not 30"

# check_output LINE OUT: what the line asks for is what came out
check_output() {
	case $1 in
	*--output-format=json*--status-interval* | *--status-interval*--output-format=json*)
		jq -s -e 'length >= 1 and all(.[]; .jobs | length == 1)' "$2" >/dev/null ;;
	*--output-format=json*) jq -e '.jobs[0].jobname' "$2" >/dev/null ;;
	*--minimal*) grep -q '^3;' "$2" ;;
	*--output=*) [ -s D/out.txt ] ;;
	--version) grep -Eq '^(fio|raidlab)-[0-9]' "$2" ;;
	--cmdhelp=*) grep -Eq '^ +iodepth: ' "$2" ;;
	--enghelp=*) grep -Eq '^cmdprio_percentage +: ' "$2" ;;
	*--write_hist_log*) # fio's shape: msec, direction, bs and fio's bins, a line per interval
		[ "$(awk -F, 'NR == 1 { print NF }' D/hist_clat_hist.1.log)" = "$hist_fields" ] &&
			[ "$(wc -l <D/hist_clat_hist.1.log)" -ge 3 ] ;;
	*) [ -s "$2" ] ;;
	esac
}

accepted=0
for i in "${!lines[@]}"; do
	line=${lines[$i]}
	mkdir "$T/l$i" "$T/l$i/D"
	cd "$T/l$i"
	existing=false
	[[ $line == existing:* ]] && { existing=true; line=${line#existing: }; }
	line=${line//=F/=$T/l$i/f.img}
	line=${line//=D/=$T/l$i/D}
	read -ra args <<<"$line"
	$existing && { fio --name=lay --filename="$T/l$i/f.img" --size=16m --rw=write \
		--output=/dev/null || fail "laying out the file"; }
	timeout 120 fio "${args[@]}" >fio.out 2>fio.err ||
		{ cat fio.err; fail "fio refused line $((i + 1)): $line"; }
	[ -e D/hist_clat_hist.1.log ] && hist_fields=$(awk -F, 'NR == 1 { print NF }' D/hist_clat_hist.1.log)
	check_output "$line" fio.out || { head fio.out; fail "fio's output, line $((i + 1))"; }
	rm -rf D/*
	rc=0
	timeout 120 $RAIDLAB run "${args[@]}" >rl.out 2>rl.err || rc=$?
	if [ $rc != 0 ]; then
		echo "line $((i + 1)) refused (exit $rc): $line"
		sed 's/^/    /' rl.err | head -3
		continue
	fi
	grep -q -- '--force-destroy' rl.err && { cat rl.err; fail "line $((i + 1)) mentions --force-destroy"; }
	check_output "$line" rl.out || { head rl.out; fail "raidlab's output, line $((i + 1)): $line"; }
	accepted=$((accepted + 1))
done
echo "$accepted of ${#lines[@]} everyday fio command lines run unchanged"

# write_hist_log's bins hold every completion once; log_hist_msec=0 leaves it empty, as fio's
cd "$T"
$RAIDLAB run --name=h --filename="$T/h.img" --rw=randread --size=4m --write_hist_log=hs \
	--log_hist_msec=20 --log_hist_coarseness=2 --output-format=json >h.json || fail "hist log"
sum=$(awk -F, '{ for (i = 4; i <= NF; i++) s += $i } END { print s }' hs_clat_hist.1.log)
[ "$sum" = "$(jq .jobs[0].read.total_ios h.json)" ] || fail "hist log holds $sum completions"
[ "$(awk -F, 'NR == 1 { print NF - 3 }' hs_clat_hist.1.log)" = $(((hist_fields - 3) / 4)) ] ||
	fail "log_hist_coarseness=2: $(awk -F, 'NR == 1 { print NF - 3 }' hs_clat_hist.1.log) bins"
for tool in fio "$RAIDLAB run"; do
	$tool --name=h0 --filename="$T/h.img" --rw=read --size=1m --write_hist_log=h0 \
		--output=/dev/null || fail "$tool: hist log without log_hist_msec"
	[ -e h0_clat_hist.1.log ] && [ ! -s h0_clat_hist.1.log ] || fail "$tool: h0_clat_hist.1.log"
	rm h0_clat_hist.1.log
done
[ $accepted = ${#lines[@]} ] || fail "$((${#lines[@]} - accepted)) lines refused"
echo "fio_everyday: ok"
