#!/usr/bin/env bash
# expect-check-failure.sh [--cause REGEX] COMMAND...
# Runs a check (an untouched exercise, a planted bug) and succeeds only if the check ran and
# reported wrong results: exit 1 together with the check's own verdict, a line that starts with
# FAILED (wb::CheckTally::finish's "FAILED: N of M cases wrong", a driver's "FAILED: ...",
# check-with-races.py's "FAILED: race on shared memory ..."), and, with --cause, a line of the
# output matching REGEX (extended grep: the failure this test plants). An exit 1 without that
# verdict (a crash, a tool or a script that broke) is not the expected failure: the test fails.
# A check that cannot fail proves nothing. Exit 77 (no GPU) is passed through so that CTest
# reports the test as skipped.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
cause=""
if [ "${1:-}" = "--cause" ]; then
  [ $# -ge 2 ] || { echo "usage: expect-check-failure.sh [--cause REGEX] COMMAND..."; exit 2; }
  cause=$2
  shift 2
fi
[ $# -ge 1 ] || { echo "usage: expect-check-failure.sh [--cause REGEX] COMMAND..."; exit 2; }
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
verdict='^[[:space:]]*FAILED([[:space:]:]|$)'
case $rc in
  1)
    if ! grep -Eq -- "$verdict" "$log"; then
      echo "FAIL: the check exited 1 without its FAILED verdict: not the expected failure (a crash, a usage error or a broken tool?)."
      exit 1
    fi
    if [ -n "$cause" ] && ! grep -Eq -- "$cause" "$log"; then
      echo "FAIL: the check failed, but not for the expected cause: no line matches /$cause/."
      exit 1
    fi
    echo "OK: the check fails, as it must${cause:+ (for the expected cause)}."
    exit 0 ;;
  77) echo "SKIPPED: $1 needs a GPU."; exit 77 ;;
  0)  echo "FAIL: the check PASSED; it cannot catch this unsolved or planted bug."; exit 1 ;;
  4)  echo "FAIL: expected the check to report wrong results (exit 1), got exit 4: compute-sanitizer itself failed, so the check was not completed."; exit 1 ;;
  *)  echo "FAIL: expected the check to report wrong results (exit 1), got exit $rc (crash, usage or CUDA error)."; exit 1 ;;
esac
