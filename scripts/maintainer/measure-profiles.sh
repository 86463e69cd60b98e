#!/usr/bin/env bash
# measure-profiles.sh BUILD OUTDIR
# The profiling lesson's reference figures (lessons/NN-profiling, found by its folder whatever its
# number): the smoothing step as given (both slow-downs), with each one fixed alone, and solved.
# For each: its benchmark row (--label names it) and its counters read by scripts/profile on one
# launch. Writes OUTDIR/NN-profiling.csv (the four benchmark rows under
# one header, the roofs and the device copy of each run) and OUTDIR/NN-profiling-profile.csv
# (one row of counters per version), which the GPU's machine folder keeps (data/machines.csv:
# data/h200/ for an H200). Needs the maintainer build (the
# planted programs). Exits 77 when scripts/profile cannot read the counters.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
build=${1:?usage: measure-profiles.sh BUILD OUTDIR}
out=${2:?usage: measure-profiles.sh BUILD OUTDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
lesson=$(cd "$src/lessons" && ls -d [0-9][0-9]-profiling | head -n 1)
[ -n "$lesson" ] || { echo "profiles: no lessons/NN-profiling folder"; exit 1; }
mkdir -p "$out/profiles"
rm -f "$out/$lesson-profile.csv"
status=0
# version label: program (as given = the pristine exercise; a planted program is the solution
# with one slow-down put back, so it has the *other* one fixed)
versions="as-given:$lesson-exercise rows-fixed:$lesson-planted-few-blocks
blocks-fixed:$lesson-planted-column-order both-fixed:$lesson-solution"
# The exercise and the solution are in BUILD/bin, the planted programs beside their lesson's build.
bench_commands=() profile_commands=()  # the command lines that ran, for the CSVs' headers
quoted() { printf '%q ' "$@" | sed 's/ $//'; }  # a command line as a shell would take it back
locate() { if [ -x "$build/bin/$1" ]; then echo "$build/bin/$1"; else find "$build" -name "$1" -type f -perm -u+x | head -n 1; fi; }
for version in $versions; do
  label=${version%%:*} program=$(locate "${version#*:}")
  [ -n "$program" ] || { echo "profiles $label: ${version#*:} is not built (a maintainer build has it)"; status=1; continue; }
  # Each command is kept as it runs, for the CSVs' headers.
  bench=("$program" --bench --label "$label" --out "$out/profiles/$label.csv")
  profile=(python3 "$src/scripts/profile" --build-dir "$build" --summary "$out/$lesson-profile.csv"
           --label "$label" "$program" --profile-run)
  bench_commands+=("$(quoted "${bench[@]}")")
  profile_commands+=("$(quoted "${profile[@]}")")
  if ! "${bench[@]}" >"$out/profiles/$label.bench.log" 2>&1; then
    echo "profiles $label: benchmark FAILED"; tail -n 5 "$out/profiles/$label.bench.log"; status=1; continue
  fi
  "${profile[@]}" >"$out/profiles/$label.profile.log" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "profiles $label: scripts/profile exit $rc"; tail -n 8 "$out/profiles/$label.profile.log"
    [ "$rc" -eq 77 ] && [ "$status" -eq 0 ] && status=77 || status=1
  fi
  echo "profiles $label: $(grep -v '^#' "$out/profiles/$label.csv" | tail -n 1 | cut -d, -f1-3,8-12)"
  cat "$out/profiles/$label.profile.log"
done
# One file: the first run's comment lines and header, then every run's rows (each row carries
# its own run's roofs and device copy).
first=1
for version in $versions; do
  label=${version%%:*}
  [ -f "$out/profiles/$label.csv" ] || continue
  if [ "$first" -eq 1 ]; then cat "$out/profiles/$label.csv"; first=0; else grep -v '^#' "$out/profiles/$label.csv" | tail -n +2; fi
done >"$out/$lesson.csv"
# Say in both files what produced them: each version is its own run of its own program, so the
# command line is every one that ran, in order.
joined() { local text="" command; for command in "$@"; do text+="${text:+; }$command"; done; echo "$text"; }
replace_command() {  # file text
  python3 - "$1" "$2" <<'PY'
import sys
path, text = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
lines = ["# command: " + text if line.startswith("# command: ") else line for line in lines]
open(path, "w").write("\n".join(lines))
PY
}
[ -f "$out/$lesson.csv" ] && replace_command "$out/$lesson.csv" "$(joined "${bench_commands[@]}")"
[ -f "$out/$lesson-profile.csv" ] && replace_command "$out/$lesson-profile.csv" "$(joined "${profile_commands[@]}")"
exit $status
