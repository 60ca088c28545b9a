#!/usr/bin/env bash
# Refresh the screenshots of docs/ui.md: run the browser test of raidlab ui
# (tests/integration/ui_browser.sh, which takes them) and copy them to
# docs/images/.  Usage: scripts/ui-screenshots.sh [BUILD] (default build).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
cd "$top"
make -j"$(nproc)" BUILD="$build" "$build/raidlab" >/dev/null
tests/run.sh "$build" ui_browser
mkdir -p docs/images
for s in measure ask compare watch; do
	cp "$build/test-artifacts/ui-$s.png" "docs/images/ui-$s.png"
done
echo "docs/images/ui-{measure,ask,compare,watch}.png updated"
