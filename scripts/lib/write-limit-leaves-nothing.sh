#!/usr/bin/env bash
# write-limit-leaves-nothing.sh SCRATCH KIB PROGRAM ARGS...
# Runs PROGRAM (in ARGS, @OUT@ is the existing, empty folder SCRATCH/out) with files limited to
# KIB KiB (ulimit -f; SIGXFSZ ignored, so a write past the limit fails with "File too large", as
# on a full disk), passes its output and exit code on, and fails (exit 1) if it left any file in
# SCRATCH/out: neither a partial output nor a temporary one. With workbook_expect_error the test
# then also requires the program's message and exit code.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
scratch=$1 kib=$2
shift 2
rm -rf "$scratch" && mkdir -p "$scratch/out" || exit 1
args=()
for a in "$@"; do args+=("${a//@OUT@/$scratch/out}"); done
(trap '' XFSZ; ulimit -S -f "$kib" && exec "${args[@]}")
rc=$?
left=$(find "$scratch/out" -type f | head -n 3)
[ -z "$left" ] || { echo "FAIL: left behind after the failed write: $left"; exit 1; }
exit $rc
