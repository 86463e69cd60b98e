#!/usr/bin/env bash
# expect-error.sh CODE REGEX COMMAND...: succeeds when COMMAND exits with CODE and its output
# (stdout and stderr) matches REGEX (extended grep). Used for the bad-input tests.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
want=$1; regex=$2; shift 2
output=$(timeout 60 "$@" 2>&1)
rc=$?
printf '%s\n' "$output"
if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then echo "SKIPPED: needs a GPU"; exit 77; fi
if [ "$rc" -ne "$want" ]; then echo "FAIL: expected exit code $want, got $rc"; exit 1; fi
if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then echo "FAIL: output does not match /$regex/"; exit 1; fi
echo "OK: exit $rc with the expected message"
