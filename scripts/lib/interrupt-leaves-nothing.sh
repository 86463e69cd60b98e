#!/usr/bin/env bash
# interrupt-leaves-nothing.sh SCRATCH SECONDS PROGRAM ARGS...
# Starts PROGRAM (in ARGS, @OUT@ is the existing, empty folder SCRATCH/out), sends it Ctrl-C (SIGINT) after SECONDS, and
# succeeds when it ended with 130 (interrupted) and left no file at all in SCRATCH: neither a
# partial output nor a temporary one.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
scratch=$1 seconds=$2
shift 2
rm -rf "$scratch" && mkdir -p "$scratch/out" || exit 1
args=()
for a in "$@"; do args+=("${a//@OUT@/$scratch/out}"); done
"${args[@]}" >"$scratch.log" 2>&1 &
pid=$!
sleep "$seconds"
if ! kill -INT $pid 2>/dev/null; then
  echo "FAIL: the program ended before the interrupt (give it more work)"; cat "$scratch.log"; exit 1
fi
wait $pid
rc=$?
left=$(find "$scratch" -type f | head -n 3)
echo "\$ ${args[*]}  (Ctrl-C after $seconds s): exit $rc"
[ $rc -eq 130 ] || { echo "FAIL: expected exit 130 after Ctrl-C, got $rc"; exit 1; }
[ -z "$left" ] || { echo "FAIL: left behind after Ctrl-C: $left"; exit 1; }
echo "OK: interrupted, nothing left behind"
