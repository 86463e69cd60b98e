#!/usr/bin/env bash
# progress-self-test.sh SOURCE_DIR WORK_DIR: scripts/progress on a copy of the course.
# Lesson 01 untouched (the pristine copy, from git if the student edited theirs; exit 77 when
# it cannot be recovered) -> "not started"; edited but wrong -> "failing" with the first wrong
# element and hint 1; the reference solution copied over -> "done", in a bare `progress` (every
# exercise) too; CTest failing on its own -> said plainly; hints revealed one at a time. When
# the bug gallery is present: a GPU exercise without a GPU -> "skipped", not "done"; the
# profiling lesson (lessons/NN-profiling, whatever its number) solved, without a GPU: "skipped",
# and no speed line, no measurement.
set -u
src=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work/tree" || fail "cannot copy the tree"
tree=$work/tree build=$work/build
# Lesson 01 as the course gives it, whatever the student made of it (from git where edited).
bash "$src/scripts/lib/pristine-exercises.sh" "$tree" lessons/01-cpu-matmul/matmul_cpu.cpp ||
  { echo "SKIP: this test needs lesson 01's pristine exercise"; exit 77; }
progress() { python3 "$tree/scripts/progress" --build-dir "$build" "$@"; }
cmake -S "$tree" -B "$build" -DWORKBOOK_MAINTAINER_TESTS=OFF >"$work/configure.log" 2>&1 ||
  { tail -n 20 "$work/configure.log"; fail "configure"; }

echo "== untouched"
progress --only '^01-cpu-matmul$' | tee "$work/1.txt"
grep -Eq '01-cpu-matmul +not started' "$work/1.txt" || fail "untouched lesson 01 is not 'not started'"

echo "== edited, still wrong"
echo "// started" >>"$tree/lessons/01-cpu-matmul/matmul_cpu.cpp"
progress --only '^01-cpu-matmul$' | tee "$work/2.txt"
grep -Eq '01-cpu-matmul +failing' "$work/2.txt" || fail "edited lesson 01 is not 'failing'"
grep -Fq 'C[0][0] = nan (expected' "$work/2.txt" || fail "no first wrong element shown"
grep -Fq 'Hint 1 of' "$work/2.txt" || fail "hint 1 not shown on failure"

echo "== hints one at a time"
progress hint 01-cpu-matmul | tee "$work/3.txt"
grep -Fq 'Hint 2 of' "$work/3.txt" || fail "'hint' did not reveal hint 2"
progress hint 01-cpu-matmul | grep -Fq 'Hint 3 of' || fail "'hint' did not reveal hint 3"
progress hints 01-cpu-matmul | grep -c '^Hint ' | grep -qx 3 || fail "'hints' does not list the 3 revealed hints"
# The learner's state lives outside the build, so deleting the build keeps the hints seen.
[ -f "$tree/.workbook/hints.json" ] || fail "the hints seen are not kept in .workbook/hints.json"
[ ! -e "$build/progress/hints.json" ] || fail "the hints seen are kept in the build folder"

echo "== scripts/check on an unsolved exercise"
python3 "$tree/scripts/progress" check --build-dir "$build" 01-cpu-matmul | tee "$work/check1.txt"
[ "${PIPESTATUS[0]}" -eq 1 ] || fail "scripts/check of a failing exercise does not exit 1"
grep -Fq '01-cpu-matmul: FAILED' "$work/check1.txt" || fail "scripts/check does not say FAILED"

echo "== solved"
cp "$tree/solutions/01-cpu-matmul/matmul_cpu.cpp" "$tree/lessons/01-cpu-matmul/matmul_cpu.cpp"
progress --only '^01-cpu-matmul$' | tee "$work/4.txt"
grep -Eq '01-cpu-matmul +done' "$work/4.txt" || fail "solved lesson 01 is not 'done'"
# A passing exercise is measured once: its CSV feeds the charts' "your exercise" curves.
grep -q 'cpu-ikj' "$build/bench/01-cpu-matmul-exercise.csv" || fail "the solved exercise was not benchmarked"
progress --only '^01-cpu-matmul$' | grep -q 'measuring your' && fail "an unchanged exercise was benchmarked again"
echo "== every exercise at once (one CTest pattern, whatever CMake's regex limits)"
progress --no-build --no-bench | tee "$work/all.txt"
grep -Eq '01-cpu-matmul +done' "$work/all.txt" || fail "a bare 'progress' does not show solved lesson 01 as 'done'"
grep -Fq 'the check did not run' "$work/all.txt" && fail "a bare 'progress' did not run the checks"
echo "== CTest failing on its own"
mkdir -p "$work/bin" && printf '#!/bin/sh\necho "RegularExpression::compile(): Too many parentheses."\n' >"$work/bin/ctest"
chmod +x "$work/bin/ctest"
PATH="$work/bin:$PATH" progress --no-build --no-bench --only '^01-cpu-matmul$' >"$work/ctest-error.txt" 2>&1
rc=$?
cat "$work/ctest-error.txt"
[ $rc -ne 0 ] || fail "progress exits 0 when CTest could not run the checks"
grep -Fq 'CTest could not run the checks' "$work/ctest-error.txt" || fail "progress does not say that CTest failed"
grep -Fq 'Too many parentheses' "$work/ctest-error.txt" || fail "progress does not show CTest's error"
bash "$tree/scripts/check" --build-dir "$build" 01-cpu-matmul | tee "$work/check2.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "scripts/check of a solved exercise does not exit 0"
grep -Fq '01-cpu-matmul: PASSED' "$work/check2.txt" || fail "scripts/check does not say PASSED"

if [ -d "$tree/lessons/09-bug-gallery" ]; then
  echo "== a GPU exercise without a GPU"
  WB_FORCE_NO_GPU=1 progress --only 'missing-barrier' | tee "$work/5.txt"
  grep -Eq 'missing-barrier +skipped' "$work/5.txt" || fail "a GPU exercise without a GPU is not 'skipped'"
  WB_FORCE_NO_GPU=1 bash "$tree/scripts/check" --build-dir "$build" 09-bug-gallery.missing-barrier | tee "$work/6.txt"
  [ "${PIPESTATUS[0]}" -eq 77 ] || fail "scripts/check of a skipped GPU exercise does not exit 77"
  grep -Fq 'SKIPPED' "$work/6.txt" || fail "scripts/check does not say SKIPPED"
fi
profiling=$(cd "$tree/lessons" && ls -d [0-9][0-9]-profiling 2>/dev/null | head -n 1)
if [ -n "$profiling" ]; then
  echo "== a solved GPU exercise with a speed goal, without a GPU"
  cp "$tree/solutions/$profiling/smooth.cu" "$tree/lessons/$profiling/smooth.cu"
  WB_FORCE_NO_GPU=1 progress --only "^$profiling\$" | tee "$work/7.txt"
  grep -Eq "$profiling +skipped" "$work/7.txt" || fail "a solved GPU exercise without a GPU is not 'skipped'"
  grep -Eq 'speed:|measuring' "$work/7.txt" && fail "a speed line or a measurement without a GPU"
fi
echo "OK: progress and scripts/check report not started, failing, done and skipped correctly"
