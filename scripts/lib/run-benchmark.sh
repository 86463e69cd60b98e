#!/usr/bin/env bash
# run-benchmark.sh STAMP EXE ARGS...: runs a quick benchmark during the build. Without a GPU the
# program exits 77 and the benchmark is skipped; any other failure fails the build.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
stamp=$1; shift
mkdir -p "$(dirname "$stamp")"
"$@"
rc=$?
if [ $rc -eq 77 ]; then echo "benchmark skipped: no usable GPU"; elif [ $rc -ne 0 ]; then exit $rc; fi
touch "$stamp"
