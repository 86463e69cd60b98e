#!/usr/bin/env bash
# manifest-self-test.sh SOURCE_DIR WORK_DIR: copying a solution over an exercise must not go
# unnoticed. In a copy of lessons/, solutions/ and scripts/ with the pristine exercises (from
# git where they were edited: scripts/lib/pristine-exercises.sh), lesson 07's kernel 05 (an
# exercise one folder down, in kernels/) is replaced by its solution: the pristine manifest check
# must then fail where exercises must be pristine (WORKBOOK_STRICT_EXERCISES=1, as in CI), and
# elsewhere skip (77), never pass, so scripts/progress can no longer call that file untouched.
set -u
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
cp -r "$src/lessons" "$src/solutions" "$src/scripts" "$work/" || exit 1
bash "$src/scripts/lib/pristine-exercises.sh" "$work" || { echo "SKIP: the pristine exercises cannot be recovered here"; exit 77; }
check() { bash "$work/scripts/maintainer/update-pristine-manifest" --check >/dev/null; }
WORKBOOK_STRICT_EXERCISES=1 check || { echo "FAIL: the untouched copy does not match"; exit 1; }
cp "$work/solutions/07-toward-cublas/kernels/05_register_tile_2d.cu" "$work/lessons/07-toward-cublas/kernels/"
WORKBOOK_STRICT_EXERCISES=1 check
rc=$?
[ $rc = 1 ] || { echo "FAIL: the solution copied over lesson 07's kernel 05 went unnoticed (exit $rc, expected 1)"; exit 1; }
WORKBOOK_STRICT_EXERCISES=0 check
rc=$?
[ $rc = 77 ] || { echo "FAIL: outside CI an edited exercise must skip the manifest check (exit $rc, expected 77)"; exit 1; }
echo "PASSED: the manifest check sees a solution copied over lesson 07's kernel 05 (fails in CI, skips elsewhere)"
