#!/usr/bin/env bash
# judge-skips.sh CTEST_LOG GPUS [ALLOWED_TSV]
# A skip is never a pass: prints one line per test that CTEST_LOG reports as skipped, either
# "  allowed skip: NAME (why)" when ALLOWED_TSV (default scripts/maintainer/gpu-allowed-skips.tsv) or,
# for a lesson's test, the lesson's lessons/NN-name/allowed-skips.tsv (its patterns match the name
# after "LESSON.") allows it on a machine with GPUS GPUs, or "UNEXPECTED SKIP: NAME". Exits 1 when any skip is
# unexpected, 0 otherwise, 2 on bad arguments.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
log=${1:-}
gpus=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
allowed=${3:-$src/scripts/maintainer/gpu-allowed-skips.tsv}
if [ ! -r "$log" ] || ! [[ "$gpus" =~ ^[0-9]+$ ]] || [ ! -r "$allowed" ]; then
  echo "usage: judge-skips.sh CTEST_LOG GPUS [ALLOWED_TSV] (a readable log, a GPU count, a readable list)" >&2
  exit 2
fi
# The reason a TSV of patterns gives for NAME on this machine, or nothing.
reason_in() {  # table name
  local pattern when reason
  while IFS=$'\t' read -r pattern when reason; do
    case "$pattern" in '' | '#'*) continue ;; esac
    [[ "$2" =~ $pattern ]] || continue
    if [ "$when" = always ] || { [[ "$when" =~ ^gpus\<([0-9]+)$ ]] && [ "$gpus" -lt "${BASH_REMATCH[1]}" ]; }; then
      echo "$reason"
      return
    fi
  done <"$1"
}
unexpected=0
while read -r name; do
  why=$(reason_in "$allowed" "$name")
  lesson_table="$src/lessons/${name%%.*}/allowed-skips.tsv"
  if [ -z "$why" ] && [[ "$name" == *.* ]] && [ -r "$lesson_table" ]; then
    why=$(reason_in "$lesson_table" "${name#*.}")
  fi
  if [ -n "$why" ]; then
    echo "  allowed skip: $name ($why)"
  else
    echo "UNEXPECTED SKIP: $name"
    unexpected=$((unexpected + 1))
  fi
done < <(grep -E "Test +#[0-9]+: .*Skipped" "$log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) .*/\1/')
[ "$unexpected" -eq 0 ]
