#!/usr/bin/env bash
# Tests scripts/lib/unbuilt-tests.py on a made-up build folder: a test whose program is missing
# from bin/, lessons/ or common/ is listed (also behind a wrapper such as timeout), as is
# GoogleTest's stand-in for an unbuilt test program, and one that CTest lists without a command (its
# program, named by a target, was not built), as one CTest expression without parentheses;
# one whose program exists is not, nor is one outside the selection or one whose missing path is
# an output elsewhere.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/bin" "$work/build/lessons/01-x" "$work/build/common"
touch "$work/build/bin/01-x-solution"
b="$work/build"
cat >"$work/listing.json" <<JSON
{"tests": [
 {"name": "01-x.solution", "command": ["$b/bin/01-x-solution", "--check"]},
 {"name": "01-x.planted-bug-fails", "command": ["/usr/bin/bash", "expect.sh", "$b/lessons/01-x/01-x-planted-bug"]},
 {"name": "02-y.solution", "command": ["$b/bin/02-y-solution", "--check"]},
 {"name": "01-x.common-helper", "command": ["/usr/bin/timeout", "60", "$b/common/01-x-helper", "--check"]},
 {"name": "01-x-unit-tests_NOT_BUILT", "command": ["01-x-unit-tests_NOT_BUILT"]},
 {"name": "01-x.tolerance", "properties": [{"name": "LABELS", "value": ["cpu"]}]},
 {"name": "01-x.writes-output", "command": ["$b/bin/01-x-solution", "--out", "$b/test-output/result"]}
]}
JSON
got=$(WB_CTEST_LISTING="$work/listing.json" python3 "$src/scripts/lib/unbuilt-tests.py" "$b" '^01-')
want='^01-x\.planted-bug-fails$|^01-x\.common-helper$|^01-x-unit-tests_NOT_BUILT$|^01-x\.tolerance$'
if [ "$got" != "$want" ]; then
  echo "FAIL: expected '$want', got '$got'"
  exit 1
fi
case "$got" in *"("*) echo "FAIL: the expression has a parenthesis: $got"; exit 1 ;; esac
echo "PASS: only the tests whose programs were not built are listed"
