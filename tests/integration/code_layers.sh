#!/usr/bin/env bash
# The include graph of src/ follows the layer table of docs/ARCHITECTURE.md
# ("## Layers": rows "| N | folder folder ... | includes |", layer 1 on top).
# For every include of a project header (`#include "folder/name.h"`, or
# `<folder/name.h>` when folder is one of src/) a file may name:
#   - a header of its own folder, private ones (*_int.h, *_priv.h) too;
#   - on a row whose includes column names folders in backquotes (the
#     target tier: `core`), only those folders' public headers;
#   - on any other row, public headers of folders on lower layers.
# Everything else fails the test with the file and line: an include that
# does not name its folder ("../cli/cli.h", "./x.h", "x.h"), another
# folder's private header, a folder outside the allowed set, an include
# upward or sideways, a folder without a row; so does a folder other than
# core/ that registers a target type (RL_TARGET_REGISTER) outside the tier.
# Since every edge between folders points strictly down, the folders cannot
# form a cycle.
#
# The check first runs on a small tree of its own making, with the table of
# docs/ARCHITECTURE.md, holding includes of each kind it must refuse and
# some it must pass, and has to name exactly the bad ones, so it is known to
# be able to fail; then on src/.
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# layers_table ARCH: "folder layer [allowed,...]" lines from the table of
# the Layers section; allowed are the backquoted folders of the third column.
layers_table() {
	awk '/^## / { on = ($0 ~ /^## Layers *$/); next }
	     on && /^\| *[0-9]+ *\|/ {
		split($0, c, "|"); n = c[2] + 0; k = split(c[3], f, " ")
		only = ""; rest = c[4]
		while (match(rest, /`[A-Za-z0-9_]+`/)) {
			only = only (only == "" ? "" : ",") substr(rest, RSTART + 1, RLENGTH - 2)
			rest = substr(rest, RSTART + RLENGTH)
		}
		for (i = 1; i <= k; i++) print f[i], n, only
	     }' "$1"
}

# layers_check TABLE SRC: print one line per include that breaks TABLE in the
# folders of SRC (and per folder without a row).
layers_check() {
	local table=$1 srcdir=$2 d f
	for d in "$srcdir"/*/; do
		f=$(basename "$d")
		grep -q "^$f " "$table" ||
			echo "src/$f/: the folder has no row in the layer table of docs/ARCHITECTURE.md"
		# a folder that registers a target type is in the target tier
		[ "$f" = core ] || ! grep -qs '^RL_TARGET_REGISTER(' "$d"*.c ||
			grep -q "^$f [0-9]* core$" "$table" ||
			echo "src/$f/: registers a target type but is not in the target tier (includes only \`core\`)"
	done
	find -H "$srcdir" -mindepth 2 -name '*.[ch]' | sort |
		awk -v table="$table" -v srcdir="$srcdir/" '
		BEGIN {
			while ((getline l < table) > 0) {
				split(l, p, " "); layer[p[1]] = p[2]; only[p[1]] = p[3]
			}
		}
		{
			file = $0; rel = substr(file, length(srcdir) + 1)
			own = substr(rel, 1, index(rel, "/") - 1)
			n = 0
			while ((getline line < file) > 0) {
				n++
				if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/)
					continue
				inc = line; sub(/^[^"<]*["<]/, "", inc); sub(/[">].*$/, "", inc)
				to = index(inc, "/") ? substr(inc, 1, index(inc, "/") - 1) : ""
				if (line ~ /include[ \t]*</ && !(to in layer))
					continue # a system header
				if (inc !~ /^[A-Za-z0-9_]+\/[A-Za-z0-9_][A-Za-z0-9_.-]*$/) {
					printf "src/%s:%d: include of \"%s\": a header of src/ is named \"folder/name.h\" (no ../, ./ or bare name)\n", rel, n, inc
					continue
				}
				if (to == own || !(own in layer))
					continue
				if (!(to in layer))
					printf "src/%s:%d: includes \"%s\": folder %s has no row in the layer table\n", rel, n, inc, to
				else if (inc ~ /_(int|priv)\.h$/)
					printf "src/%s:%d: include of \"%s\": a private header (*_int.h, *_priv.h) of %s/ is for %s/ only\n", rel, n, inc, to, to
				else if (only[own] != "") {
					if (index("," only[own] ",", "," to ",") == 0) {
						allowed = only[own]; gsub(/,/, "/ ", allowed)
						printf "src/%s:%d: include of \"%s\": %s/ includes only %s/ and itself\n", rel, n, inc, own, allowed
					}
				} else if (layer[to] < layer[own])
					printf "src/%s:%d: upward include of \"%s\": %s/ (layer %d) is above %s/ (layer %d)\n", rel, n, inc, to, layer[to], own, layer[own]
				else if (layer[to] == layer[own])
					printf "src/%s:%d: sideways include of \"%s\": %s/ and %s/ share layer %d\n", rel, n, inc, to, own, layer[own]
			}
			close(file)
		}'
}

arch=$top/docs/ARCHITECTURE.md
layers_table "$arch" >table
[ "$(wc -l <table)" -ge 2 ] || fail "$arch: no layer table (## Layers, rows | N | folders | includes |)"
dup=$(awk '{ print $1 }' table | sort | uniq -d)
[ -z "$dup" ] || fail "$arch: folders on more than one layer: $dup"
awk '$3 != "" { n = split($3, a, ","); for (i = 1; i <= n; i++) print a[i] }' table >allowed
while read -r f; do
	grep -q "^$f " table || fail "$arch: the includes column names $f, which has no row"
done <allowed

# 1. the check names every bad include of a tree of its own, with the real
# table: FILE, the include, and what it must be called ("" for a good one).
cases=(
	# the target tier: core/ and its own folder, nothing else
	'raid/md_super.c|"serve/serve.h"|raid/ includes only core/ and itself'
	'raid/raid0.c|"workload/job.h"|raid/ includes only core/ and itself'
	'sim/ssd.c|"suites/suite.h"|sim/ includes only core/ and itself'
	'cache/cache.c|"targets/link.h"|cache/ includes only core/ and itself'
	'targets/link.c|"stats/hist.h"|targets/ includes only core/ and itself'
	# a header not named by its folder
	'core/io.c|"../cli/cli.h"|a header of src/ is named'
	'core/spec.c|"core/../cli/cli.h"|a header of src/ is named'
	'raid/raid1.c|"./raid_common.h"|a header of src/ is named'
	'raid/raid10.c|"md.h"|a header of src/ is named'
	# another folder's private header, even below
	'cli/cmd_ctl.c|"serve/conn_int.h"|a private header'
	'sweep/sweep.c|"workload/run_priv.h"|a private header'
	# upward and sideways
	'core/target.c|"cli/cli.h"|upward include'
	'core/units.c|<workload/job.h>|upward include'
	'serve/live.c|"raid/raid_common.h"|upward include'
	'serve/conn.c|"suites/suite.h"|sideways include'
	# good ones
	'raid/parity.c|"raid/parity_priv.h"|'
	'raid/md.c|"core/io.h"|'
	'sim/dev.c|<stdio.h>|'
	'sim/ftl.c|<sys/types.h>|'
	'cli/cmd_check.c|"raid/rebuild.h"|'
	'cli/cmd_profiles.c|"sim/sim.h"|'
	'sweep/rebuild.c|"raid/parity.h"|'
	'serve/server.c|"workload/job.h"|'
	'suites/runner.c|"suites/runner_priv.h"|'
)
mkdir t
bad=0
for c in "${cases[@]}"; do
	IFS='|' read -r file inc want <<<"$c"
	mkdir -p "t/$(dirname "$file")"
	printf '/* #include "cli/cli.h" in a comment */\n#include %s\n' "$inc" >>"t/$file"
	[ -z "$want" ] || bad=$((bad + 1))
done
while read -r d _; do mkdir -p "t/$d"; done <table
printf 'RL_TARGET_REGISTER(dir_type)\n' >t/files/dir.c
bad=$((bad + 1))
layers_check table t >t.out || true
for c in "${cases[@]}"; do
	IFS='|' read -r file inc want <<<"$c"
	[ -n "$want" ] || continue
	inc=${inc:1:${#inc}-2}
	said=$(grep -F "src/$file:2: " t.out || true)
	if [[ $said != *"\"$inc\""* || $said != *"$want"* ]]; then
		cat t.out
		fail "the check does not call $file's include of $inc: $want"
	fi
done
grep -q '^src/files/: registers a target type but is not in the target tier' t.out ||
	{ cat t.out; fail "the check does not name a target type outside the target tier"; }
[ "$(wc -l <t.out)" -eq "$bad" ] || { cat t.out; fail "the check names good includes too"; }

# 2. src/ follows the table
layers_check table "$top/src" >problems || true
if [ -s problems ]; then
	cat problems >&2
	fail "$(wc -l <problems) include(s) against the layer rules of docs/ARCHITECTURE.md"
fi
echo "ok: $(find -H "$top/src" -mindepth 2 -name '*.[ch]' | wc -l) files of $(wc -l <table) folders on $(awk '{ print $2 }' table | sort -u | wc -l) layers; $bad faults of its own tree named"
