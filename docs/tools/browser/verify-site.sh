#!/usr/bin/env bash
# verify-site.sh HTML_DIR: the docs test in a real browser (headless Chromium, driven by
# playwright-core): see verify-site.mjs. Skips (exit 77) when Chromium or Node.js is absent,
# unless WORKBOOK_REQUIRE_BROWSER_TEST=1 (CI), which turns every skip into a failure.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
html=$1
here=$(cd "$(dirname "$0")" && pwd)
skip() {
  if [ "${WORKBOOK_REQUIRE_BROWSER_TEST:-0}" = 1 ]; then echo "FAIL: $* (required here)"; exit 1; fi
  echo "SKIP: $*"; exit 77
}
[ -s "$html/index.html" ] || { echo "FAIL: $html/index.html missing (build the 'docs' target)"; exit 1; }
chromium=${WORKBOOK_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] && [ -x "$chromium" ] || skip "Chromium not found (Debian: apt-get install chromium, or bash scripts/setup.sh)"
command -v node >/dev/null 2>&1 || skip "Node.js not found (Debian: apt-get install nodejs npm)"
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  command -v npm >/dev/null 2>&1 || skip "npm not found (Debian: apt-get install npm)"
  echo "installing playwright-core (npm ci in $here)"
  (cd "$here" && npm ci --no-audit --no-fund >npm-ci.log 2>&1) || { cat "$here/npm-ci.log"; skip "npm ci failed (offline?)"; }
fi
exec node "$here/verify-site.mjs" "$html" "$chromium"
