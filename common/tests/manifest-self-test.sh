#!/usr/bin/env bash
# manifest-self-test.sh SOURCE_DIR WORK_DIR: copying a solution over an exercise must not go
# unnoticed. In a copy of lessons/, solutions/ and scripts/, lesson 07's kernel 05 (an exercise
# one folder down, in kernels/) is replaced by its solution: the pristine manifest check must
# then fail, so scripts/progress can no longer call that file untouched.
set -u
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
cp -r "$src/lessons" "$src/solutions" "$src/scripts" "$work/" || exit 1
bash "$work/scripts/update-pristine-manifest" --check >/dev/null || { echo "FAIL: the untouched copy does not match"; exit 1; }
cp "$work/solutions/07-toward-cublas/kernels/05_register_tile_2d.cu" "$work/lessons/07-toward-cublas/kernels/"
if bash "$work/scripts/update-pristine-manifest" --check >/dev/null; then
  echo "FAIL: the solution copied over lesson 07's kernel 05 went unnoticed"
  exit 1
fi
echo "PASSED: the manifest check sees a solution copied over lesson 07's kernel 05"
