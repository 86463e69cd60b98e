#!/usr/bin/env bash
# expect-check-failure.sh --cause REGEX COMMAND...
# expect-check-failure.sh --speed-cause REGEX COMMAND...
# Runs a check (an untouched exercise, a planted bug) and succeeds only if the check ran and
# failed for the cause the test expects: exit 1 together with the check's own verdict, a line
# that starts with FAILED (wb::CheckTally::finish's "FAILED: N of M cases wrong", a driver's
# "FAILED: ...", check-with-races.py's "FAILED: race on shared memory ..."), and a line of the
# output matching REGEX (extended grep) that names the cause: a wrong element ("C[3][4] = ...
# (expected ...)"), the poison value of an output never written ("= -nan (expected"), a time
# limit, a kernel's fault, a race ... Every expected failure names its cause: a check can fail
# for many reasons, and only the one the test plants proves that the check catches it.
# Lines that name no cause never match REGEX: the tally's "FAILED: N of M cases wrong" (a speed
# case counts there too), and, for --cause, a speed verdict (a check whose numbers are right but
# whose code is too slow, SPEED_LINE below): a correctness failure is never proved by a verdict
# on speed. --speed-cause expects such a verdict, and REGEX must match one of its lines.
# An exit 1 without the verdict (a crash, a tool or a script that broke) is not the expected
# failure: the test fails. Exit 77 (no GPU) is passed through so that CTest reports the test as
# skipped.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
usage="usage: expect-check-failure.sh --cause REGEX | --speed-cause REGEX COMMAND..."
case "${1:-}" in
  --cause) kind=correctness ;;
  --speed-cause) kind=speed ;;
  *) echo "$usage (every expected failure names its cause)"; exit 2 ;;
esac
[ $# -ge 3 ] && [ -n "$2" ] || { echo "$usage"; exit 2; }
cause=$2
shift 2
# A verdict on speed, or the measurement it judges, as the lessons' checks word them: "speed at
# n=512: ... i-k-j is 0.2x faster (at least 1.5x needed)", "cpu-ikj is correct but too slow",
# "speed, 4096 x 4096 on ...: 1.2x", "right but only 1.2x faster than the strided one", "the step
# runs at 24% of a copy's speed", "3.20x the time of a kernel that only reads the values".
SPEED_LINE='^[[:space:]]*speed[ ,]|[0-9.]+x faster|correct but too slow|right but only|of a copy.s speed|x the time of a kernel'
# The tally's count, which names no cause.
TALLY_LINE='^[[:space:]]*FAILED: [0-9]+ of [0-9]+ cases wrong'
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
    candidates=$(grep -Ev -- "$TALLY_LINE" "$log")
    if [ "$kind" = speed ]; then
      candidates=$(printf '%s\n' "$candidates" | grep -E -- "$SPEED_LINE")
    else
      candidates=$(printf '%s\n' "$candidates" | grep -Ev -- "$SPEED_LINE")
    fi
    if ! printf '%s\n' "$candidates" | grep -Eq -- "$cause"; then
      if [ "$kind" = speed ]; then
        echo "FAIL: the check failed, but not on its speed for the expected cause: no verdict on speed matches /$cause/."
      elif grep -Eq -- "$cause" "$log"; then
        echo "FAIL: the check failed, but /$cause/ matches only a verdict on speed or the count of wrong cases, never the correctness failure expected."
      else
        echo "FAIL: the check failed, but not for the expected cause: no line matches /$cause/."
      fi
      exit 1
    fi
    echo "OK: the check fails, as it must, for the expected cause."
    exit 0 ;;
  77) echo "SKIPPED: the check could not run here (exit 77: no GPU, or no compute-sanitizer for its races)."; exit 77 ;;
  0)  echo "FAIL: the check PASSED; it cannot catch this unsolved or planted bug."; exit 1 ;;
  4)  echo "FAIL: expected the check to report wrong results (exit 1), got exit 4: compute-sanitizer itself failed, so the check was not completed."; exit 1 ;;
  *)  echo "FAIL: expected the check to report wrong results (exit 1), got exit $rc (crash, usage or CUDA error)."; exit 1 ;;
esac
