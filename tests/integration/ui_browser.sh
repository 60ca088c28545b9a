#!/usr/bin/env bash
# `raidlab ui` in a real browser: Debian's Chromium driven by puppeteer-core
# (tests/browser/ui_check.js; scripts/install-node-deps.sh installs it, and
# no browser is ever downloaded).  The page renders with no error and no
# request but to the server; a suite on a simulated drive fills the grid; a
# long run shows live figures and Stop ends it (its process is gone within
# a second); two saved results are compared; advise answers for two small
# drives; a served raid1's member is failed and rebuilt from the Watch view
# (and the fail of the last copy is refused; the socket is named relative
# to the folder raidlab ui runs in, as a user may type it).  Screenshots go to
# $RAIDLAB_BUILD/test-artifacts/ (scripts/ui-screenshots.sh copies them to
# docs/images/).
. "$(dirname "$0")/lib.sh"
need node
command -v chromium >/dev/null 2>&1 ||
	timeout 600 "$RAIDLAB_TOP/scripts/install-deps.sh" >"$T/install.log" 2>&1 || true
command -v chromium >/dev/null 2>&1 || skip "chromium is not installed and could not be installed"
[ -d "$RAIDLAB_TOP/tests/browser/node_modules/puppeteer-core" ] ||
	timeout 600 "$RAIDLAB_TOP/scripts/install-node-deps.sh" >"$T/npm.log" 2>&1 || true
[ -d "$RAIDLAB_TOP/tests/browser/node_modules/puppeteer-core" ] ||
	skip "puppeteer-core is not installed (scripts/install-node-deps.sh: $(tail -n 3 "$T/npm.log" 2>/dev/null))"
art="$RAIDLAB_BUILD/test-artifacts"
mkdir -p "$art"

# a served raid1 with its control socket, for the Watch view
"$RAIDLAB" serve 'raid1(mem(size=16m) x2)' --socket s.sock --ctl c.sock --no-status \
	--ready-file sready >serve.out 2>serve.err &
SPID=$!
cleanup_hooks+=("kill $SPID 2>/dev/null")
"$RAIDLAB" ui --port 0 --results results --ready-file ready --no-browser >ui.out 2>ui.err &
UPID=$!
cleanup_hooks+=("kill $UPID 2>/dev/null")
for _ in $(seq 200); do [ -s ready ] && [ -s sready ] && break; sleep 0.05; done
[ -s ready ] || { cat ui.err; fail "raidlab ui did not start"; }
[ -s sready ] || { cat serve.err; fail "raidlab serve did not start"; }

NODE_PATH="$RAIDLAB_TOP/tests/browser/node_modules" timeout 900 \
	node "$RAIDLAB_TOP/tests/browser/ui_check.js" "$(cat ready)" c.sock "$art" >check.out 2>check.err ||
	{ cat check.out check.err; cat ui.err; fail "the browser check"; }
cat check.out
for s in page measure stop compare ask watch; do
	grep -q "^ok $s" check.out || fail "step $s did not run"
done
# Stop left nothing: no run under the server
sleep 1
left=$(pgrep -P "$UPID" -a || true)
[ -z "$left" ] || fail "left running after Stop: $left"
ls results/*.json >/dev/null || fail "no saved results"
kill -TERM "$UPID"
wait "$UPID" || fail "raidlab ui exit status $?"
echo "ok"
