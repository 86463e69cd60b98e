#!/usr/bin/env bash
# test-declarations-self-test.sh SOURCE_DIR WORK_DIR CMAKE: the course's test declarations
# (common/cmake/Workbook.cmake) cannot declare a test that passes for the wrong reason. In tiny
# projects that include Workbook.cmake, configure must fail on
#   - workbook_test with PASS_REGULAR_EXPRESSION but no EXIT_CODE (CTest would ignore the exit code),
#   - workbook_planted_bug without CAUSE or SPEED_CAUSE (any FAILED line would do), STOPS (a hang
#     stopped by a time limit) judged by a verdict on speed, or RANKS below 2,
#   - workbook_lesson without a PRISTINE_CAUSES entry for each exercise file,
#   - workbook_bench_test with a pattern where a kernel's whole name belongs (KERNELS);
# and the tests that workbook_test declares with EXIT_CODE and PASS_REGULAR_EXPRESSION must fail
# when the command prints the line but exits with another code, or exits right without the line;
# so must those of workbook_expect_error, EXIT_CODE 0 included (a run that must succeed and say
# its line), and without EXIT_CODE it expects 2.
set -u
src=$1 work=$2 cmake=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# project NAME BODY: a project whose CMakeLists.txt includes Workbook.cmake, then BODY.
project() {
  local dir=$work/$1
  mkdir -p "$dir"
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(%s LANGUAGES NONE)\nset(WORKBOOK_MAINTAINER_TESTS ON)\ninclude("%s/common/cmake/Workbook.cmake")\nenable_testing()\n%s\n' \
    "$1" "$src" "$2" >"$dir/CMakeLists.txt"
}
# refused NAME MESSAGE BODY: configuring BODY must fail and say MESSAGE.
refused() {
  project "$1" "$3"
  if "$cmake" -S "$work/$1" -B "$work/$1/build" "${generator[@]}" >"$work/$1.log" 2>&1; then
    echo "FAIL: $1: configure accepted it"; failures=$((failures + 1))
  elif ! tr -s ' \n' ' ' <"$work/$1.log" | grep -Fq -- "$2"; then
    echo "FAIL: $1: configure failed without saying '$2':"; sed 's/^/    /' "$work/$1.log"; failures=$((failures + 1))
  else
    echo "ok: $1 is refused"
  fi
}

refused pass-expression-alone "PASS_REGULAR_EXPRESSION and EXIT_CODE go together" \
  'workbook_test(NAME demo.line COMMAND bash -c "echo all runs correct" PASS_REGULAR_EXPRESSION "all runs correct" LABELS cpu)'
refused planted-without-cause "needs CAUSE (the failure it must cause) or SPEED_CAUSE" \
  'workbook_planted_bug(LESSON demo NAME slip FILE answer.cpp KIND cpu FROM "return 42;" TO "return 41;" CHECK_ARGS --check)'
refused planted-with-both-causes "needs CAUSE (the failure it must cause) or SPEED_CAUSE" \
  'workbook_planted_bug(LESSON demo NAME slip FILE answer.cpp KIND cpu FROM "42" TO "41" CAUSE "wrong" SPEED_CAUSE "slow" CHECK_ARGS --check)'
refused planted-stop-on-speed "STOPS takes CAUSE, the line of the time limit" \
  'workbook_planted_bug(LESSON demo NAME hang FILE answer.cpp KIND cpu FROM "42" TO "41" STOPS SPEED_CAUSE "slow" CHECK_ARGS --check)'
refused planted-on-one-rank "RANKS is a number of MPI ranks, 2 or more (got '1')" \
  'workbook_planted_bug(LESSON demo NAME slip FILE answer.cpp FROM "42" TO "41" RANKS 1 CAUSE "wrong" CHECK_ARGS --check)'
refused lesson-without-pristine-cause "no PRISTINE_CAUSES for second.cpp" \
  'workbook_lesson(NAME 99-demo DRIVER driver.cpp EXERCISE_FILES first.cpp second.cpp PRISTINE_CAUSES first.cpp "wrong")'
refused pristine-cause-for-no-file "'third.cpp' is not one of" \
  'workbook_lesson(NAME 99-demo DRIVER driver.cpp EXERCISE_FILES first.cpp PRISTINE_CAUSES first.cpp "wrong" third.cpp "wrong")'
refused bench-kernel-as-pattern "KERNELS takes the rows' kernel names as they are written, not '^naive\$'" \
  'workbook_bench_test(NAME demo.bench COMMAND true KERNELS "^naive$" LABELS cpu)'

# A line and an exit code, both required: three commands, one right.
project line-and-exit-code '
workbook_test(NAME demo.right COMMAND bash -c "echo all 5000 runs correct" EXIT_CODE 0
              PASS_REGULAR_EXPRESSION "all 5000 runs correct" LABELS cpu)
workbook_test(NAME demo.line-then-failure COMMAND bash -c "echo all 5000 runs correct && echo FAILED: part 1 && exit 1"
              EXIT_CODE 0 PASS_REGULAR_EXPRESSION "all 5000 runs correct" LABELS cpu)
workbook_test(NAME demo.exit-0-without-line COMMAND bash -c "echo PASSED" EXIT_CODE 0
              PASS_REGULAR_EXPRESSION "all 5000 runs correct" LABELS cpu)
workbook_expect_error(NAME demo.expect-success EXIT_CODE 0 MESSAGE "^note: ran$"
                      COMMAND bash -c "echo note: ran" LABELS cpu)
workbook_expect_error(NAME demo.expect-success-but-exit-2 EXIT_CODE 0 MESSAGE "^note: ran$"
                      COMMAND bash -c "echo note: ran && exit 2" LABELS cpu)
workbook_expect_error(NAME demo.expect-bad-input MESSAGE "^error: bad$"
                      COMMAND bash -c "echo error: bad && exit 2" LABELS cpu)
workbook_expect_error(NAME demo.expect-bad-input-but-exit-0 MESSAGE "^error: bad$"
                      COMMAND bash -c "echo error: bad" LABELS cpu)'
dir=$work/line-and-exit-code
if ! "$cmake" -S "$dir" -B "$dir/build" "${generator[@]}" >"$work/line-and-exit-code.log" 2>&1; then
  cat "$work/line-and-exit-code.log"; echo "FAIL: the project with EXIT_CODE and PASS_REGULAR_EXPRESSION does not configure"
  exit 1
fi
(cd "$dir/build" && ctest -R '^demo\.' >"$work/ctest.log" 2>&1)
for expected in "demo.right .* Passed" "demo.line-then-failure .*Failed" "demo.exit-0-without-line .*Failed" \
                "demo.expect-success .* Passed" "demo.expect-success-but-exit-2 .*Failed" \
                "demo.expect-bad-input .* Passed" "demo.expect-bad-input-but-exit-0 .*Failed"; do
  if grep -Eq -- "$expected" "$work/ctest.log"; then
    echo "ok: ${expected%% *}"
  else
    echo "FAIL: expected /$expected/ in CTest's summary:"; sed 's/^/    /' "$work/ctest.log"; failures=$((failures + 1))
  fi
done

[ "$failures" -eq 0 ] || { echo "FAILED: $failures declaration(s) let a test pass for the wrong reason"; exit 1; }
echo "PASSED: every test declaration checks the exit code, and every expected failure names its cause"
