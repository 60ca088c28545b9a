#!/usr/bin/env bash
# Install the npm packages of the browser tests (tests/browser/package.json:
# puppeteer-core, pinned by package-lock.json) into tests/browser/node_modules,
# if missing or not the locked version.  puppeteer-core never downloads a
# browser (and install scripts are not run): the tests drive the chromium
# package that scripts/install-deps.sh installs.  Without npm it says so and
# does nothing (the browser tests then report a skip).
set -euo pipefail
dir="$(cd "$(dirname "$0")/.." && pwd)/tests/browser"
command -v npm >/dev/null 2>&1 || { echo "install-node-deps: npm is missing; the browser tests will skip"; exit 0; }
want=$(sed -n 's/.*"puppeteer-core": *"\([^"]*\)".*/\1/p' "$dir/package.json")
have=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$dir/node_modules/puppeteer-core/package.json" 2>/dev/null || true)
[ -n "$want" ] && [ "$want" = "$have" ] && exit 0
echo "install-node-deps: installing puppeteer-core $want into tests/browser/node_modules"
cd "$dir"
PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
