#!/usr/bin/env bash
# The GPU check's judgement of skipped tests (scripts/maintainer/judge-skips.sh): a skip the list
# allows passes with its reason, any other skip fails, and a rule for fewer GPUs than a test
# needs does not excuse it on a machine that has enough.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
judge="$root/scripts/maintainer/judge-skips.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
case_() {  # case_ WHAT EXPECTED_EXIT PATTERN_IN_OUTPUT COMMAND...
  local what=$1 expected=$2 pattern=$3
  shift 3
  local output rc
  output=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -eq "$expected" ] && grep -Eq -- "$pattern" <<<"$output"; then
    echo "ok: $what (exit $rc)"
  else
    echo "FAIL: $what: exit $rc, expected $expected and /$pattern/. Output:"
    sed 's/^/    /' <<<"$output"
    failures=$((failures + 1))
  fi
}
cat >"$work/skip-format.log" <<'LOG'
 12/610 Test  #12: workbook.format ..........................***Skipped   0.01 sec
 13/610 Test  #13: 02-naive-matmul.solution .................   Passed    0.70 sec
LOG
cat >"$work/skip-check.log" <<'LOG'
 13/610 Test #420: 13-hopper-tensor-cores.solution ...........***Skipped   0.10 sec
LOG
cat >"$work/skip-ranks.log" <<'LOG'
 99/610 Test #300: 08-sciddicat-multigpu.solution-2ranks .....***Skipped   0.30 sec
LOG
case_ "an allowed skip passes with its reason" 0 "allowed skip: workbook.format \(" bash "$judge" "$work/skip-format.log" 1
case_ "a skipped check is unexpected" 1 "UNEXPECTED SKIP: 13-hopper-tensor-cores.solution" \
  bash "$judge" "$work/skip-check.log" 1
case_ "two ranks may skip on one GPU" 0 "allowed skip: 08-sciddicat-multigpu.solution-2ranks" \
  bash "$judge" "$work/skip-ranks.log" 1
case_ "two ranks may not skip on two GPUs" 1 "UNEXPECTED SKIP: 08-sciddicat-multigpu.solution-2ranks" \
  bash "$judge" "$work/skip-ranks.log" 2
case_ "a missing log is a usage error" 2 "usage" bash "$judge" "$work/none.log" 1
[ "$failures" -eq 0 ] && echo "PASSED: judge-skips self-test" || echo "FAILED: $failures case(s)"
[ "$failures" -eq 0 ]
