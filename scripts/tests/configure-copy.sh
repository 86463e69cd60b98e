#!/usr/bin/env bash
# configure-copy.sh: sourced by the tests that configure a copy of the course without building
# it (add-lesson-scaffold-test.sh, renumber-lesson-test.sh). Defines
#   configure_copy LOG: configures $tree into $build with $cmake (and $generator, $cuda_compiler
#     where set), maintainer tests on and the optional parts that no lesson needs left out
#     (Doxygen, gnuplot, GoogleTest); CMake's output goes to LOG, its exit code is returned;
#   skip_if_lessons_left_out WHAT: where that configure left a lesson out (lesson 08 without MPI
#     or NCCL), `sync` cannot write its rows: says so and that WHAT, then exits 77 (a skip).
configure_copy() {
  local options=(-S "$tree" -B "$build" -DWORKBOOK_MAINTAINER_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_Doxygen=ON
                 -DCMAKE_DISABLE_FIND_PACKAGE_Gnuplot=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
  [ -n "${generator:-}" ] && options+=(-G "$generator")
  [ -n "${cuda_compiler:-}" ] && options+=("-DCMAKE_CUDA_COMPILER=$cuda_compiler")
  "$cmake" "${options[@]}" >"$1" 2>&1
}

skip_if_lessons_left_out() {
  local left_out
  left_out=$(cut -f 1 "$build/workbook-left-out.tsv" | grep -E '^[0-9][0-9]-' | tr '\n' ' ')
  [ -z "$left_out" ] && return 0
  echo "SKIP: configure left out ${left_out}(workbook-left-out.tsv): sync cannot write its rows, so $1"
  exit 77
}
