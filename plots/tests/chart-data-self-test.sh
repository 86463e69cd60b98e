#!/usr/bin/env bash
# chart-data-self-test.sh GNUPLOT SOURCE_DIR WORK_DIR: proves that a chart fails without its data,
# and draws the machines' runs that exist. In copies of plots/ and data/, the lesson 02 chart
# must render untouched, with the reference machine's run beside the second machine's, and with
# the reference machine's alone (data/machines.csv names both); it must fail, naming the files,
# with no machine's run of lesson 02 left or with the one left emptied to its header, and the
# lesson 01 chart (which also draws the report's points) must fail without any run of lesson 01
# and without the report's CSV. The reference machine's run is a copy of the second machine's,
# made here, in the copy only.
set -u
gnuplot=$1 src=$2 work=$3
render="$src/plots/tools/render-chart.sh"
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0
machine() {  # machine ROLE: the folder data/machines.csv gives the machine of that role
  awk -F, -v role="$1" '!/^#/ && $2 == role { print $3; exit }' "$src/data/machines.csv"
}
ref=$(machine reference) second=$(machine second)
[ -n "$ref" ] && [ -n "$second" ] || { echo "WRONG: data/machines.csv names no reference or second machine"; exit 1; }
# as_reference NAME: the second machine's run of NAME copied to the reference machine's folder.
as_reference() { echo "mkdir -p data/$ref && cp data/$second/$1.csv data/$ref/$1.csv"; }

# attempt NAME pass|fail SCRIPT SETUP CAUSE: renders SCRIPT in a fresh copy changed by SETUP; a
# pass must print CAUSE (a note), a failure must name CAUSE in its error.
attempt() {
  local name=$1 want=$2 script=$3 setup=$4 cause=$5 tree="$work/$1"
  mkdir -p "$tree" && cp -r "$src/plots" "$src/data" "$tree/" && (cd "$tree" && eval "$setup")
  bash "$render" "$gnuplot" "$tree" "" "$work/$name-chart" "$script" "" >"$work/$name.log" 2>&1
  local rc=$?
  if { [ "$want" = pass ] && [ $rc -eq 0 ]; } || { [ "$want" = fail ] && [ $rc -ne 0 ]; } &&
     grep -qF -- "$cause" "$work/$name.log"; then
    echo "ok: $name ($want): $(grep -m1 -F -- "$cause" "$work/$name.log")"
  else
    echo "WRONG: $name should $want (exit $rc) saying '$cause'"; cat "$work/$name.log"; failures=$((failures + 1))
  fi
}
both="$(as_reference 02-naive-matmul)"
attempt untouched pass 02-naive-matmul.gp true "chart:"
attempt reference-and-second pass 02-naive-matmul.gp "$both" "chart:"
attempt reference-alone pass 02-naive-matmul.gp "$both && rm data/$second/02-naive-matmul.csv" "chart:"
[ -e "$src/data/$ref/02-naive-matmul.csv" ] ||
  attempt reference-not-yet pass 02-naive-matmul.gp true "note: no $ref/02-naive-matmul.csv"
attempt runs-deleted fail 02-naive-matmul.gp "rm -f data/$ref/02-naive-matmul.csv data/$second/02-naive-matmul.csv" \
  "error: the chart needs one of data/$ref/02-naive-matmul.csv|data/$second/02-naive-matmul.csv, each missing"
attempt run-emptied fail 02-naive-matmul.gp \
  "rm -f data/$ref/02-naive-matmul.csv && sed -i '/^02-naive-matmul,/d' data/$second/02-naive-matmul.csv" \
  "error: the chart plotted no point"
attempt report-chart-without-runs fail 01-cpu-matmul.gp "rm -f data/$ref/01-cpu-matmul.csv data/$second/01-cpu-matmul.csv" \
  "error: the chart needs one of data/$ref/01-cpu-matmul.csv|"
attempt report-deleted fail 01-cpu-matmul.gp "rm data/source000/matmul-report.csv" \
  "error: the chart needs data/source000/matmul-report.csv, which is missing"
[ $failures -eq 0 ] && echo "PASSED: a chart draws the machines' runs it has and fails without them" || exit 1
