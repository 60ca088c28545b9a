#!/usr/bin/env bash
# The include graph of src/ follows the layer table of docs/ARCHITECTURE.md
# ("## Layers": rows "| N | folder folder ... |", layer 1 on top).  A file
# may include headers of its own folder and of folders on lower layers; an
# include of a folder on a higher layer (upward) or on the same layer
# (sideways) fails the test with the file and line.  Since every edge
# between folders must point strictly down, the folders cannot form a
# cycle.  Every folder of src/ must have a row.
#
# The check first runs on a small tree with one upward and one sideways
# include of its own making and must name both, so it is known to be able
# to fail; then on src/.
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# layers_table ARCH: "folder layer" lines from the table of the Layers section.
layers_table() {
	awk '/^## / { on = ($0 ~ /^## Layers *$/); next }
	     on && /^\| *[0-9]+ *\|/ {
		split($0, c, "|"); n = c[2] + 0; k = split(c[3], f, " ")
		for (i = 1; i <= k; i++) print f[i], n
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
	done
	find -H "$srcdir" -mindepth 2 -name '*.[ch]' | sort |
		awk -v table="$table" -v srcdir="$srcdir/" '
		BEGIN { while ((getline l < table) > 0) { split(l, p, " "); layer[p[1]] = p[2] } }
		{
			file = $0; rel = substr(file, length(srcdir) + 1)
			own = substr(rel, 1, index(rel, "/") - 1)
			n = 0
			while ((getline line < file) > 0) {
				n++
				if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[A-Za-z0-9_]+\//)
					continue
				inc = line; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
				to = substr(inc, 1, index(inc, "/") - 1)
				if (to == own || !(own in layer))
					continue
				if (!(to in layer))
					printf "src/%s:%d: includes \"%s\": folder %s has no row in the layer table\n", rel, n, inc, to
				else if (layer[to] < layer[own])
					printf "src/%s:%d: upward include of \"%s\": %s/ (layer %d) is above %s/ (layer %d)\n", rel, n, inc, to, layer[to], own, layer[own]
				else if (layer[to] == layer[own])
					printf "src/%s:%d: sideways include of \"%s\": %s/ and %s/ share layer %d\n", rel, n, inc, to, own, layer[own]
			}
			close(file)
		}'
}

arch=$top/docs/ARCHITECTURE.md
layers_table "$arch" >table
[ "$(wc -l <table)" -ge 2 ] || fail "$arch: no layer table (## Layers, rows | N | folders |)"
dup=$(awk '{ print $1 }' table | sort | uniq -d)
[ -z "$dup" ] || fail "$arch: folders on more than one layer: $dup"

# 1. the check names a bad include: a tree of two layers with one of each kind
printf 'core 3\nraid 2\nsim 2\ncli 1\n' >t.table
mkdir -p t/core t/raid t/sim t/cli
printf '#include "core/a.h"\n' >t/raid/ok.c
printf '#include "raid/ok.h"\n#include "core/b.h"\n' >t/cli/ok.c
printf '/* a comment */\n#include "cli/cli.h"\n' >t/core/up.c
printf '#include <stdio.h>\n\n#include "sim/sim.h"\n' >t/raid/side.c
layers_check t.table t >t.out || true
grep -q '^src/core/up.c:2: upward include of "cli/cli.h"' t.out ||
	{ cat t.out; fail "the check does not name an upward include"; }
grep -q '^src/raid/side.c:3: sideways include of "sim/sim.h"' t.out ||
	{ cat t.out; fail "the check does not name a sideways include"; }
[ "$(wc -l <t.out)" -eq 2 ] || { cat t.out; fail "the check names good includes too"; }

# 2. src/ follows the table
layers_check table "$top/src" >problems || true
if [ -s problems ]; then
	cat problems >&2
	fail "$(wc -l <problems) include(s) against the layer order of docs/ARCHITECTURE.md"
fi
echo "ok: $(find -H "$top/src" -mindepth 2 -name '*.[ch]' | wc -l) files of $(wc -l <table) folders on $(awk '{ print $2 }' table | sort -u | wc -l) layers"
