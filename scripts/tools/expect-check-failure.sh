#!/usr/bin/env bash
# Runs an exercise's check and succeeds only if the check ran and reported wrong results
# (exit 1). A pristine exercise must fail its check: a check that cannot fail proves nothing.
# Exit 77 (no GPU) is passed through so that CTest reports the test as skipped.
"$@"
rc=$?
case $rc in
  1)  echo "OK: the pristine exercise fails its check, as it must."; exit 0 ;;
  77) echo "SKIPPED: $1 needs a GPU."; exit 77 ;;
  0)  echo "FAIL: the pristine exercise PASSED its check; the check cannot catch an unsolved exercise."; exit 1 ;;
  *)  echo "FAIL: expected the check to report wrong results (exit 1), got exit $rc (crash, usage or CUDA error)."; exit 1 ;;
esac
