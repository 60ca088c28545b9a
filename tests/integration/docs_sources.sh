#!/usr/bin/env bash
# Provenance stays inside the project: every citation of docs/sources.md
# (docs/sources.md#ID, or "docs/sources.md sections ID, ID" on a profile's
# source line, where '#' would start a comment) names an anchor that
# exists; nothing cites the research notes the facts were first collected
# in; and every parameter line of a shipped profile says where its value
# comes from ([src], [calc] or [est]).
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
sources=$top/docs/sources.md
errors=0
problem() { echo "docs_sources: $*" >&2; errors=$((errors + 1)); }
[ -f "$sources" ] || fail "docs/sources.md does not exist"
where=("$top/profiles" "$top/docs" "$top/src" "$top/tests" "$top/validation" "$top/README.md")

# 1. anchors cited exist
sed -n 's/.*<a id="\([a-z0-9-]*\)"><\/a>.*/\1/p' "$sources" | sort -u >anchors
[ -s anchors ] || fail "docs/sources.md has no anchors"
# (grep finds nothing: not an error here, the emptiness is checked below)
{
	{ grep -rhoE 'sources\.md#[a-z0-9-]+' "${where[@]}" || true; } | sed 's/.*#//'
	{ grep -rhoE 'docs/sources\.md sections? [a-z0-9, -]+' "$top/profiles" || true; } |
		sed -E 's/.*sections? //' | tr ',' '\n' | tr -d ' '
} | { grep . || true; } | sort -u >cited
[ -s cited ] || problem "nothing cites docs/sources.md"
while read -r id; do
	grep -qx -- "$id" anchors || problem "docs/sources.md has no anchor '$id' (cited in: $(grep -rlE "sources\.md(#| sections? [a-z0-9, -]*)$id\b" "${where[@]}" | sed "s|$top/||" | tr '\n' ' '))"
done <cited

# 2. no citation of the notes outside the repository
grep -rnE --exclude=docs_sources.sh 'shared/research|research notes|research (raid|ssdsim|bench)\.md|\b(ssdsim|bench)\.md\b|raid\.md ([0-9]|§)' "${where[@]}" >stale || true
[ ! -s stale ] || { sed "s|$top/||" stale >&2; problem "$(wc -l <stale) line(s) cite notes outside the repository"; }

# 3. every profile parameter carries a provenance tag
n=0
for f in "$top"/profiles/*.profile "$top"/profiles/*.controller; do
	while IFS= read -r line; do
		key=${line%%=*}
		key=${key//[[:space:]]/}
		case $key in name | aliases | description | source | kind) continue ;; esac
		n=$((n + 1))
		[[ $line =~ \[(src|calc|est) ]] || problem "${f#"$top"/}: no [src]/[calc]/[est] on '$line'"
	done < <(grep -E '^[[:space:]]*[^#[:space:]][^=]*=' "$f" || true)
done
[ "$n" -gt 0 ] || fail "no profile parameters found in $top/profiles"

[ "$errors" -eq 0 ] || fail "$errors provenance problem(s)"
echo "ok: $(wc -l <cited) anchors cited, $n profile parameters tagged"
