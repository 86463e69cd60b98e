#!/usr/bin/env bash
# if-pristine.sh FILE... -- COMMAND...
# Runs COMMAND (and exits with its status) only while every exercise FILE (relative to the
# course, e.g. lessons/01-cpu-matmul/matmul_cpu.cpp) still matches its pristine copy in
# scripts/lib/pristine-exercises.sha256; otherwise exits 77 (skipped) naming the edited file. The
# maintainer tests that an untouched exercise fails its check run the exercise program through it:
# after an edit, the build (which configures again) makes them use a pristine copy instead.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
manifest="$root/scripts/lib/pristine-exercises.sha256"
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
[ "${1:-}" = -- ] || { echo "usage: if-pristine.sh FILE... -- COMMAND..." >&2; exit 2; }
shift
for file in "${files[@]}"; do
  expected=$(awk -v f="$file" '$2 == f {print $1}' "$manifest")
  actual=$(sha256sum <"$root/$file" 2>/dev/null | cut -d' ' -f1)
  if [ -z "$expected" ] || [ "$actual" != "$expected" ]; then
    echo "SKIP: $file is not the pristine exercise (it differs from scripts/lib/pristine-exercises.sha256)"
    echo "      since this build was configured: build again (it then tests a pristine copy from git)."
    exit 77
  fi
done
"$@"
