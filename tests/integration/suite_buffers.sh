#!/usr/bin/env bash
# A suite's I/O buffers are in transparent huge pages (one segment per
# MiB, docs/results.md), and --small-pages puts them in ordinary pages as
# fio's default.  Seen from outside: the running process's AnonHugePages.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -r "$thp" ] || skip_env "no transparent huge pages in this kernel"
grep -q '\[never\]' "$thp" && skip_env "transparent huge pages are turned off ($thp)"

# huge_kb [OPTION]: the most AnonHugePages seen while a cdm pass runs.
huge_kb() {
	local most=0 kb
	"$RAIDLAB" run cdm --target "file($PWD/t.img, size=256m)" --size=64m --passes=1 \
		--warmup=0 --duration=1s --quiet --json "$PWD/c.json" "$@" >/dev/null &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		kb=$(awk '/AnonHugePages/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
		[ -n "$kb" ] && [ "$kb" -gt "$most" ] && most=$kb
		sleep 0.05
	done
	wait "$pid" || fail "cdm $* failed"
	echo "$most"
}

big=$(huge_kb)
[ "$big" -ge 2048 ] || fail "cdm's buffers were not in huge pages (AnonHugePages peaked at ${big} kB)"
[ "$(jqv c.json .suite.params.small_pages)" = false ] || fail "suite.params.small_pages is not false"
small=$(huge_kb --small-pages)
[ "$small" -eq 0 ] || fail "--small-pages still used huge pages (${small} kB)"
[ "$(jqv c.json .suite.params.small_pages)" = true ] || fail "suite.params.small_pages is not true"
echo "huge pages: default ${big} kB at most, --small-pages ${small} kB"
