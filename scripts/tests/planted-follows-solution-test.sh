#!/usr/bin/env bash
# planted-follows-solution-test.sh SOURCE_DIR WORK_DIR CMAKE: a planted bug is planted in the
# solution as it is now, in an incremental build too. A tiny project uses the course's
# workbook_planted_bug() (common/cmake/Workbook.cmake) on two solution files; after an edit of one
# of them, building its planted target must configure again and compile a planted copy that holds
# the edit, while the other planted copy, unchanged, is not rewritten (so not compiled again).
set -u
src=$1 work=$2 cmake=$3
rm -rf "$work" && mkdir -p "$work/project/lessons/demo" "$work/project/solutions/demo" || exit 1
project=$work/project build=$work/build
cat >"$project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(planted-follows-solution LANGUAGES CXX)
set(WORKBOOK_MAINTAINER_TESTS ON)
include("$src/common/cmake/Workbook.cmake")
add_library(workbook_common INTERFACE)
add_library(demo-harness OBJECT lessons/demo/main.cpp)
workbook_planted_bug(LESSON demo NAME slip FILE answer.cpp KIND cpu FROM "return 42;" TO "return 41;" CAUSE "wrong" CHECK_ARGS --check)
workbook_planted_bug(LESSON demo NAME other FILE other.cpp KIND cpu FROM "return 42;" TO "return 40;" CAUSE "wrong" CHECK_ARGS --check)
CMAKE
echo 'int answer(); int main() { return answer() == 42 ? 0 : 1; }' >"$project/lessons/demo/main.cpp"
printf 'int answer() {\n    return 42;\n}\n' >"$project/solutions/demo/answer.cpp"
printf 'int answer() {\n    return 42;\n}\n' >"$project/solutions/demo/other.cpp"

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
build_targets() { "$cmake" --build "$build" --target demo-planted-slip demo-planted-other >"$work/build.log" 2>&1 ||
                    { cat "$work/build.log"; echo "FAIL: the planted targets do not build"; exit 1; }; }
"$cmake" -S "$project" -B "$build" "${generator[@]}" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; echo "FAIL: the test project does not configure"; exit 1; }
build_targets
slip=$build/planted-slip/answer.cpp other=$build/planted-other/other.cpp
grep -q "return 41;" "$slip" || { echo "FAIL: $slip does not hold the planted bug"; exit 1; }
sleep 1
touch "$work/marker"
sleep 1

# The solution changes: its planted copy must follow at the next build, with the bug still planted.
echo "// an edit of the solution" >>"$project/solutions/demo/answer.cpp"
build_targets
if ! grep -q "an edit of the solution" "$slip"; then
  echo "FAIL: the solution was edited, but its planted copy was not written again (no configure ran):"
  cat "$slip"; exit 1
fi
grep -q "return 41;" "$slip" || { echo "FAIL: the rewritten planted copy lost the planted bug"; exit 1; }
# The other plant did not change: its copy is not rewritten, even when the build configures again.
touch "$project/CMakeLists.txt"
build_targets
if [ -n "$(find "$other" -newer "$work/marker")" ]; then
  echo "FAIL: $other was rewritten though its text did not change (it is compiled again for nothing)"; exit 1
fi
echo "PASSED: an edited solution re-plants its bug at the next build; an unchanged plant is left alone"
