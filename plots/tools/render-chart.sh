#!/usr/bin/env bash
# render-chart.sh GNUPLOT SOURCE_DIR BENCH_DIR OUT_BASE SCRIPT [VARS]
# Renders OUT_BASE.png and OUT_BASE.svg from plots/SCRIPT, run from SOURCE_DIR so that the
# script finds plots/common.gp and data/. Re-renders only when the script, the data or a
# benchmark CSV is newer than the PNG. VARS are extra gnuplot assignments ("what='time'").
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
gnuplot=$1 source_dir=$2 bench_dir=$3 out=$4 script=$5 vars=${6:-}
mkdir -p "$(dirname "$out")"
if [ -s "$out.png" ] && [ -s "$out.svg" ]; then
  newer=$(find "$source_dir/plots" "$source_dir/data" ${bench_dir:+"$bench_dir"} -newer "$out.png" \
          \( -name '*.gp' -o -name '*.gpi' -o -name '*.csv' \) 2>/dev/null | head -n 1)
  [ -z "$newer" ] && exit 0
fi
tools=$(cd "$(dirname "$0")" && pwd)
cd "$source_dir" || exit 1
for fmt in png svg; do
  # A chart reads this machine's runs only where they exist (no warning in a first build).
  # The epilogue fails a chart whose required data is missing or that plotted no point.
  if ! "$gnuplot" -e "datadir='data'; benchdir='$bench_dir'; out='$out'; fmt='$fmt'; $vars" "plots/$script" \
       "$tools/chart-epilogue.gp" 2> >(grep -v 'Skipping data file with no valid points' >&2); then
    echo "error: gnuplot failed on plots/$script" >&2
    rm -f "$out.png" "$out.svg"
    exit 1
  fi
done
echo "chart: $out.png"
