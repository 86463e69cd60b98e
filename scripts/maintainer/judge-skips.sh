#!/usr/bin/env bash
# judge-skips.sh CTEST_LOG GPUS [ALLOWED_TSV]
# A skip is never a pass: prints one line per test that CTEST_LOG reports as skipped, either
# "  allowed skip: NAME (why)" when ALLOWED_TSV (default scripts/maintainer/gpu-allowed-skips.tsv) allows
# it on a machine with GPUS GPUs, or "UNEXPECTED SKIP: NAME". Exits 1 when any skip is
# unexpected, 0 otherwise, 2 on bad arguments.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
log=${1:-}
gpus=${2:-}
allowed=${3:-$(cd "$(dirname "$0")/../.." && pwd)/scripts/maintainer/gpu-allowed-skips.tsv}
if [ ! -r "$log" ] || ! [[ "$gpus" =~ ^[0-9]+$ ]] || [ ! -r "$allowed" ]; then
  echo "usage: judge-skips.sh CTEST_LOG GPUS [ALLOWED_TSV] (a readable log, a GPU count, a readable list)" >&2
  exit 2
fi
unexpected=0
while read -r name; do
  why=""
  while IFS=$'\t' read -r pattern when reason; do
    case "$pattern" in '' | '#'*) continue ;; esac
    [[ "$name" =~ $pattern ]] || continue
    if [ "$when" = always ] || { [[ "$when" =~ ^gpus\<([0-9]+)$ ]] && [ "$gpus" -lt "${BASH_REMATCH[1]}" ]; }; then
      why=$reason
      break
    fi
  done <"$allowed"
  if [ -n "$why" ]; then
    echo "  allowed skip: $name ($why)"
  else
    echo "UNEXPECTED SKIP: $name"
    unexpected=$((unexpected + 1))
  fi
done < <(grep -E "Test +#[0-9]+: .*Skipped" "$log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) .*/\1/')
[ "$unexpected" -eq 0 ]
