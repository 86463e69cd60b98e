#!/usr/bin/env bash
# expect-exit.sh [--timeout S] CODE REGEX COMMAND...: succeeds when COMMAND exits with CODE and its
# output (stdout and stderr together) has a line matching REGEX (extended grep): both, never one of
# them (CTest's PASS_REGULAR_EXPRESSION alone ignores the exit code). Prints the output, then, when
# it fails, what it found instead: the exit code, or that no line matches. COMMAND is stopped
# after S seconds (default 60; 0: no limit). Exit 77 (skipped) is passed on unless CODE is 77.
# Used for the bad-input tests (workbook_expect_error) and workbook_test's PASS_REGULAR_EXPRESSION.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
limit=60
if [ "${1:-}" = --timeout ]; then
  limit=$2
  shift 2
fi
[ $# -ge 3 ] || { echo "usage: expect-exit.sh [--timeout S] CODE REGEX COMMAND..."; exit 2; }
want=$1 regex=$2
shift 2
output=$(timeout "$limit" "$@" 2>&1)
rc=$?
printf '%s\n' "$output"
if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then echo "SKIPPED: the command skipped (exit 77)"; exit 77; fi
if [ "$rc" -eq 124 ] && [ "$limit" != 0 ] && [ "$want" -ne 124 ]; then
  echo "FAIL: the command did not finish within $limit s (expected exit code $want)"
  exit 1
fi
if [ "$rc" -ne "$want" ]; then echo "FAIL: expected exit code $want, got $rc"; exit 1; fi
if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then echo "FAIL: exit $rc as expected, but no line matches /$regex/"; exit 1; fi
echo "OK: exit $rc with a line matching /$regex/"
