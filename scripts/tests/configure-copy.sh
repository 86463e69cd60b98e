#!/usr/bin/env bash
# configure-copy.sh: sourced by the tests that configure a copy of the course without building
# it (add-lesson-scaffold-test.sh, renumber-lesson-test.sh). Defines
#   configure_copy LOG: configures $tree into $build with $cmake (and $generator, $cuda_compiler
#     where set), maintainer tests on and the optional parts that no lesson needs left out
#     (Doxygen, gnuplot, GoogleTest); CMake's output goes to LOG, its exit code is returned.
configure_copy() {
  local options=(-S "$tree" -B "$build" -DWORKBOOK_MAINTAINER_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_Doxygen=ON
                 -DCMAKE_DISABLE_FIND_PACKAGE_Gnuplot=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
  [ -n "${generator:-}" ] && options+=(-G "$generator")
  [ -n "${cuda_compiler:-}" ] && options+=("-DCMAKE_CUDA_COMPILER=$cuda_compiler")
  "$cmake" "${options[@]}" >"$1" 2>&1
}
