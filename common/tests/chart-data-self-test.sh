#!/usr/bin/env bash
# chart-data-self-test.sh GNUPLOT SOURCE_DIR WORK_DIR: proves that a chart fails without its data.
# In a copy of plots/ and data/: the lesson 02 chart with its reference CSV deleted, the same
# CSV emptied to its header, and the lesson 01 chart (which also draws the report's points)
# without its reference CSV must each fail to render; the untouched copy must render.
set -u
gnuplot=$1 src=$2 work=$3
render="$src/plots/tools/render-chart.sh"
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0

# attempt NAME pass|fail SCRIPT SETUP: renders SCRIPT in a fresh copy changed by SETUP.
attempt() {
  local name=$1 want=$2 script=$3 setup=$4 tree="$work/$1"
  mkdir -p "$tree" && cp -r "$src/plots" "$src/data" "$tree/" && (cd "$tree" && eval "$setup")
  bash "$render" "$gnuplot" "$tree" "" "$work/$name-chart" "$script" "" >"$work/$name.log" 2>&1
  local rc=$?
  if { [ "$want" = pass ] && [ $rc -eq 0 ]; } || { [ "$want" = fail ] && [ $rc -ne 0 ]; }; then
    echo "ok: $name ($want): $(grep -m1 -E 'error|chart:' "$work/$name.log")"
  else
    echo "WRONG: $name should $want (exit $rc)"; cat "$work/$name.log"; failures=$((failures + 1))
  fi
}
attempt untouched pass 02-naive-matmul.gp true
attempt reference-deleted fail 02-naive-matmul.gp "rm data/h100/02-naive-matmul.csv"
attempt reference-emptied fail 02-naive-matmul.gp "sed -i '/^02-naive-matmul,/d' data/h100/02-naive-matmul.csv"
attempt report-chart-without-reference fail 01-cpu-matmul.gp "rm data/h100/01-cpu-matmul.csv"
attempt report-deleted fail 01-cpu-matmul.gp "rm data/source000/matmul-report.csv"
[ $failures -eq 0 ] && echo "PASSED: a chart fails when its data is missing or plots no point" || exit 1
