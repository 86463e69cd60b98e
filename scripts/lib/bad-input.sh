#!/usr/bin/env bash
# bad-input.sh CODES REGEX SCRATCH PROGRAM ARGS...     one case of the generic sweep
# bad-input.sh --row TABLE NAME SCRATCH PROGRAM        one row of a lesson's bad-inputs.tsv
# (its columns: name, program, arguments, input, accepted exit codes, message regex)
# Runs PROGRAM on bad input and succeeds when it
#   - ends within 60 s (no hang) without a signal (no crash),
#   - exits with one of CODES (comma-separated, e.g. 2),
#   - prints a message matching REGEX (extended grep, stdout and stderr together),
#   - leaves no file behind in SCRATCH (no partial output), and leaves an earlier output it
#     was told to overwrite (an argument that is exactly @OUT@) as it was.
# In the arguments, @OUT@ is SCRATCH/out (a file the program must not create) and @INPUT@ the
# input file written from the row's input column (printf %b: \n, \t, \x41 ...); @EMPTY@ is an
# empty argument. A SciddicaT grid is three files: an input column "HEADER|||DEM|||SOURCE" writes
# SCRATCH/in/grid_header.txt, _dem.txt and _source.txt, and @GRID@ is their prefix; the input
# @FOLDERS@ makes those three names folders instead; with @DATA@ (a --data-dir) in the arguments,
# the grid is written as @DATA@/sciddicat/tessina_*, the names of the real grid. Exit 77 (no GPU)
# is passed on as "skipped" unless CODES accepts it. CODES ending in '!' (e.g. 2!) marks input
# that must be refused before any GPU test: the program runs with WB_FORCE_NO_GPU=1, and exit 77
# fails the case.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
if [ "$1" = --row ]; then
  table=$2 name=$3 scratch=$4 program=$5
  row=$(awk -F'\t' -v n="$name" '$1 == n { print; exit }' "$table")
  [ -n "$row" ] || { echo "FAIL: no row '$name' in $table"; exit 1; }
  IFS=$'\t' read -r _ _ arguments input codes regex <<<"$row"
  read -r -a args <<<"$arguments"
else
  codes=$1 regex=$2 scratch=$3 program=$4
  shift 4
  args=("$@")
  input=""
fi

no_gpu=""
if [[ "$codes" == *! ]]; then codes=${codes%!} no_gpu=1; fi

rm -rf "$scratch" && mkdir -p "$scratch/in" "$scratch/run" || exit 1
input_file="$scratch/in/input.txt"
grid="$scratch/in/grid"
[[ " ${args[*]} " == *@DATA@* ]] && grid="$scratch/in/data/sciddicat/tessina" && mkdir -p "${grid%/*}"
if [ "$input" = @FOLDERS@ ]; then
  mkdir -p "${grid}_header.txt" "${grid}_dem.txt" "${grid}_source.txt"
elif [[ "$input" == *"|||"* ]]; then
  rest=$input
  for part in header dem source; do
    printf '%b' "${rest%%|||*}" >"${grid}_$part.txt"
    if [[ "$rest" == *"|||"* ]]; then rest=${rest#*|||}; else rest=""; fi
  done
elif [ -n "$input" ] && [ "$input" != - ]; then
  printf '%b' "$input" >"$input_file"
fi
for i in "${!args[@]}"; do
  case "${args[$i]}" in
    @EMPTY@) args[$i]="" ;;
    *) args[$i]=${args[$i]//@OUT@/$scratch/run/out}; args[$i]=${args[$i]//@INPUT@/$input_file}; args[$i]=${args[$i]//@GRID@/$grid}
       args[$i]=${args[$i]//@DATA@/$scratch/in/data} ;;
  esac
done

# An output the program is told to write already exists, from an earlier good run: a failing
# run must leave it as it was (outputs are written to a temporary file and renamed at the end).
previous="$scratch/run/out"
for a in "${args[@]}"; do
  [ "$a" = "$previous" ] && printf 'results of an earlier run\n' >"$previous"
done

echo "\$ $(basename "$program") ${args[*]}"
if [ -n "$no_gpu" ]; then export WB_FORCE_NO_GPU=1; fi
output=$(cd "$scratch/run" && timeout 60 "$program" "${args[@]}" 2>&1)
rc=$?
printf '%s\n' "$output" | head -n 20
if [ $rc -eq 124 ]; then echo "FAIL: no answer within 60 s (a hang?)"; exit 1; fi
if [ $rc -ge 128 ]; then echo "FAIL: killed by signal $((rc - 128)) (a crash)"; exit 1; fi
if [ $rc -eq 77 ] && [ -n "$no_gpu" ]; then echo "FAIL: the GPU was tested before this input (expected exit $codes)"; exit 1; fi
if [ $rc -eq 77 ] && [[ ",$codes," != *",77,"* ]]; then echo "SKIPPED: needs a GPU"; exit 77; fi
if [[ ",$codes," != *",$rc,"* ]]; then echo "FAIL: expected exit code $codes, got $rc"; exit 1; fi
if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then echo "FAIL: the message does not match /$regex/"; exit 1; fi
if [ -e "$previous" ] && [ "$(cat "$previous")" != "results of an earlier run" ]; then
  echo "FAIL: the earlier output $previous was changed by the failing run"; exit 1
fi
left=$(find "$scratch/run" -mindepth 1 ! -path "$previous" | head -n 3)
if [ -n "$left" ]; then echo "FAIL: output left behind after the error: $left"; exit 1; fi
echo "OK: exit $rc, a clear message, nothing written"
