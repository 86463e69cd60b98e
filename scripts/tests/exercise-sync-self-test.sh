#!/usr/bin/env bash
# Proves that scripts/maintainer/verify-exercise-sync can fail: on a copy of lesson 01's exercise/solution pair
# it must pass untouched, then fail on each planted fault (a changed line outside the regions, an
# unmatched marker, a region in one file only, a duplicate region id, a TODO outside the regions).
#   exercise-sync-self-test.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1
scratch=$2
checker="$src/scripts/maintainer/verify-exercise-sync"
pair=01-cpu-matmul/matmul_cpu.cpp
failures=0

fresh_copy() {
  rm -rf "$scratch"
  mkdir -p "$scratch/lessons/01-cpu-matmul" "$scratch/solutions/01-cpu-matmul"
  # The pristine exercise, whatever a student made of theirs (from git where edited).
  bash "$src/scripts/lib/pristine-exercises.sh" "$scratch" "lessons/$pair" ||
    { echo "SKIP: lesson 01's pristine exercise cannot be recovered here"; exit 77; }
  cp "$src/solutions/$pair" "$scratch/solutions/$pair"
}

# expect NAME EXIT_CODE REGEX: runs the checker on the scratch copy.
expect() {
  local name=$1 code=$2 regex=$3 output status=0
  output=$("${PYTHON:-python3}" "$checker" --root "$scratch" 2>&1) || status=$?
  if [[ $status -eq $code ]] && grep -Eq -- "$regex" <<<"$output"; then
    echo "ok: $name (exit $status)"
  else
    echo "FAILED: $name: expected exit $code and /$regex/, got exit $status:"
    sed 's/^/    /' <<<"$output"
    failures=$((failures + 1))
  fi
}

# first_code_line FILE: the number of the first line after the leading // comment block.
first_code_line() {
  awk '!/^[[:space:]]*\/\// { print NR; exit }' "$1"
}

fresh_copy
expect "the untouched pair is in sync" 0 "^OK: 1 exercise/solution pairs"

fresh_copy
line=$(first_code_line "$scratch/solutions/$pair")
sed -i "${line}s|\$|  // drift|" "$scratch/solutions/$pair"
expect "a line changed outside the regions" 1 "first difference outside the regions"

fresh_copy
echo "// <<< TODO 1" >>"$scratch/lessons/$pair"
expect "an unmatched closing marker" 1 "closes no open region"

fresh_copy
printf '// >>> TODO 9: never closed\n' >>"$scratch/solutions/$pair"
expect "an opening marker never closed" 1 "region 9 is never closed"

fresh_copy
printf '\n// >>> TODO 9: only here\n// <<< TODO 9\n' >>"$scratch/lessons/$pair"
expect "a region in the exercise only" 1 "region\\(s\\) 9 only in the exercise"

fresh_copy
for side in lessons solutions; do
  printf '\n// >>> TODO 1: again\n// <<< TODO 1\n' >>"$scratch/$side/$pair"
done
expect "a duplicate region id" 1 "region 1 appears twice"

fresh_copy
for side in lessons solutions; do
  printf '\n// TODO: left outside\n' >>"$scratch/$side/$pair"
done
expect "a TODO outside the regions" 1 "TODO outside any region"

rm -rf "$scratch"
if [[ $failures -gt 0 ]]; then
  echo "FAIL: $failures case(s) of the checker's self-test"
  exit 1
fi
echo "PASSED: verify-exercise-sync accepts the pair and rejects every planted fault"
