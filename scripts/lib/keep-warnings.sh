#!/usr/bin/env bash
# keep-warnings.sh COMPILER ARGS...: the compiler launcher of the exercise programs (their
# <LANG>_COMPILER_LAUNCHER, set by common/cmake/Workbook.cmake). Runs the compile command as it
# is and prints what the compiler printed, then keeps that text beside the object file (the path
# after -o, with .warnings added), so that scripts/progress and scripts/check show the warnings
# about an exercise at every run, not only at the run that compiled it. Exits with the compiler's
# exit code.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
object="" previous=""
for argument in "$@"; do
  [ "$previous" = -o ] && object=$argument
  previous=$argument
done
[ -n "$object" ] || exec "$@"
kept=$object.warnings
mkdir -p "$(dirname "$kept")" || exec "$@"
"$@" >"$kept.tmp" 2>&1
code=$?
cat "$kept.tmp" >&2
mv -f "$kept.tmp" "$kept"
exit $code
