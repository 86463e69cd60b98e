#!/usr/bin/env bash
# student-edits-self-test.sh SOURCE_DIR WORK_DIR
# A student's edits must not fail the tests the README tells them to run. In a clone of the
# course with its history (what `git clone` gives a student) plus this tree's uncommitted
# changes, lesson 01's solution is written over its exercise, with a line that .clang-format
# would change and a variable it never uses. There, configured with the maintainer tests and
# warnings as errors, as the check preset is, the exercise program builds, printing the warning,
# and `scripts/check 01-cpu-matmul` passes and shows the same warning line (the solution with
# the same variable does not build: warnings stay errors elsewhere); and the tests that read the
# exercises must not fail:
#   workbook.format                       passes (an edited exercise's formatting is the student's)
#   workbook.exercise-solution-sync       passes (on the pristine copy, from git), and so does
#   workbook.exercise-sync-self-test
#   workbook.pristine-manifest            skips (never passes: the manifest is not verified);
#                                         with WORKBOOK_STRICT_EXERCISES=1 (CI) it fails
#   workbook.progress-self-test           passes (it uses the pristine lesson 01, from git)
#   01-cpu-matmul.exercise-fails-pristine passes, on a program built from the pristine copy
# Exit 77 where SOURCE_DIR is not a git checkout (nothing to clone).
set -u
src=${1:?usage: student-edits-self-test.sh SOURCE_DIR WORK_DIR}
work=${2:?usage: student-edits-self-test.sh SOURCE_DIR WORK_DIR}
fail() { echo "FAIL: $*"; exit 1; }
git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1 || { echo "SKIP: $src is not a git checkout"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
tree=$work/clone build=$work/build
git clone -q --no-hardlinks "$src" "$tree" || fail "cannot clone $src"
# The working tree's changes too (tracked and untracked files that git does not ignore).
(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$src" && xargs -0 cp --parents -t "$tree" 2>/dev/null || true)
exercise=$tree/lessons/01-cpu-matmul/matmul_cpu.cpp
cp "$tree/solutions/01-cpu-matmul/matmul_cpu.cpp" "$exercise"
# ... formatted the student's way, with a variable left over.
printf '\nint student_helper(){return 1;}\n' >>"$exercise"
plant_unused() { sed -i 's/^void matmul_ijk(.*{$/&\n    int planted_unused = 0;/' "$1" && grep -q planted_unused "$1"; }
plant_unused "$exercise" || fail "cannot plant an unused variable in $exercise"
unset WORKBOOK_STRICT_EXERCISES  # a student's machine, not CI

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$tree" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DWORKBOOK_MAINTAINER_TESTS=ON \
  -DWORKBOOK_WARNINGS_AS_ERRORS=ON >"$work/configure.log" 2>&1 ||
  { tail -n 20 "$work/configure.log"; fail "configure"; }
grep -F 'matmul_cpu.cpp edited' "$work/configure.log"
grep -Fq 'matmul_cpu.cpp edited; its compiler warnings are shown, not errors' "$work/configure.log" ||
  fail "configure does not say that the edited exercise's warnings are not errors"
cmake --build "$build" --target 01-cpu-matmul-pristine >"$work/build.log" 2>&1 ||
  { tail -n 20 "$work/build.log"; fail "the program of lesson 01's pristine copy does not build"; }

echo "== a warning in the student's code: shown by the build and by scripts/check, never an error"
cmake --build "$build" --target 01-cpu-matmul-exercise >"$work/exercise-build.log" 2>&1 ||
  { tail -n 20 "$work/exercise-build.log"; fail "a warning in the edited exercise fails its build"; }
warning=$(grep -m 1 "warning: unused variable .*planted_unused" "$work/exercise-build.log") ||
  { tail -n 20 "$work/exercise-build.log"; fail "the build does not print the exercise's warning"; }
echo "the build printed: $warning"
python3 "$tree/scripts/progress" check 01-cpu-matmul --build-dir "$build" --no-bench >"$work/check.txt" 2>&1
rc=$?
cat "$work/check.txt"
[ $rc -eq 0 ] || fail "scripts/check of the solved exercise with a warning exited $rc (expected 0)"
grep -Fxq '01-cpu-matmul: PASSED' "$work/check.txt" || fail "scripts/check does not say PASSED"
grep -Fxq "      ${warning#"$tree/"}" "$work/check.txt" || fail "scripts/check does not show the build's warning line"

tests='^(workbook\.(format|pristine-manifest|progress-self-test|exercise-solution-sync|exercise-sync-self-test)'
tests+='|01-cpu-matmul\.exercise-fails-pristine)$'
(cd "$build" && ctest -R "$tests" --output-on-failure --output-junit "$work/tests.xml") | tee "$work/ctest.txt"
count=$(grep -c '<testcase ' "$work/tests.xml" 2>/dev/null || echo 0)
[ "$count" -eq 6 ] || fail "expected the 6 tests to run, CTest ran $count"
# Each test's outcome, from CTest's JUnit report: run (passed), fail, or disabled/notrun (skipped).
outcome() { python3 - "$work/tests.xml" "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.get("name") == sys.argv[2]:
        skipped = case.find("skipped")
        print("skipped" if skipped is not None and "SKIP_RETURN_CODE" in (skipped.get("message") or "")
              else "passed" if case.get("status") == "run" else "failed")
PY
}
want() {
  local got
  got=$(outcome "$1")
  [[ "$got" =~ ^($2)$ ]] || fail "$1: $got (expected $2)"
}
format_ok=passed
command -v "${CLANG_FORMAT:-clang-format}" >/dev/null 2>&1 || format_ok=skipped
want workbook.format "$format_ok"
want workbook.pristine-manifest skipped
want workbook.progress-self-test passed
want workbook.exercise-solution-sync passed
want workbook.exercise-sync-self-test passed
want 01-cpu-matmul.exercise-fails-pristine passed
grep -Fq 'not checked: lessons/01-cpu-matmul/matmul_cpu.cpp' "$work/tests.xml" || [ "$format_ok" = skipped ] ||
  fail "the format test did not leave the edited exercise out"

echo "== in CI (WORKBOOK_STRICT_EXERCISES=1) the edited exercise fails the manifest test"
(cd "$build" && WORKBOOK_STRICT_EXERCISES=1 ctest -R '^workbook\.pristine-manifest$' --output-junit "$work/strict.xml") \
  >"$work/strict.txt" 2>&1
python3 - "$work/strict.xml" <<'PY' || fail "with WORKBOOK_STRICT_EXERCISES=1 an edited exercise does not fail workbook.pristine-manifest"
import sys, xml.etree.ElementTree as ET
cases = list(ET.parse(sys.argv[1]).getroot().iter("testcase"))
sys.exit(0 if len(cases) == 1 and cases[0].get("status") == "fail" else 1)
PY
echo "== the same variable in the solution: warnings are still errors there"
plant_unused "$tree/solutions/01-cpu-matmul/matmul_cpu.cpp" || fail "cannot plant an unused variable in the solution"
cmake --build "$build" --target 01-cpu-matmul-solution >"$work/solution-build.log" 2>&1 &&
  fail "the solution with an unused variable builds: warnings are no longer errors"
grep -q "unused variable .*planted_unused.*-Werror" "$work/solution-build.log" ||
  { tail -n 20 "$work/solution-build.log"; fail "the solution's build fails, but not on the warning"; }
echo "OK: lesson 01 solved fails none of the tests that read the exercises (the manifest test skips) and its"
echo "    warning is shown, never an error"
