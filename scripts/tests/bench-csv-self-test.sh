#!/usr/bin/env bash
# bench-csv-self-test.sh SOURCE_DIR: proves that scripts/lib/validate-bench-csv.py can fail.
# Fake benchmarks (shell scripts that take --out FILE last) write a CSV of the common schema (a
# run of one kernel on an H200 of data/machines.csv and a CPU baseline): as it is, and exiting 1,
# truncated, with no file, a header without rows, a row with a zero time, a kernel missing, a
# row above its roof, a row naming no arithmetic, and a rate above what the H200's FP64 units
# give at the clock the row records. Only the good one, and the same run on a GPU the machines
# do not list (its rate then not bounded, said so), may pass; each failure names its cause.
# Kernels are named whole: a part of a name ("cpu" of "cpu-ikj") or a regular expression
# ("^tiled$") is no kernel of the run.
set -u
src=${1:?usage: bench-csv-self-test.sh SOURCE_DIR}
checker="$src/scripts/lib/validate-bench-csv.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 20 TFLOP/s of FP64 at 1900 MHz (median; 1980 the highest reading): below 128 flop/cycle x 132 SMs
# x 1980 MHz = 33.5 TFLOP/s.
sample="$work/sample.csv"
cat >"$sample" <<'CSV'
# cuda-workbook benchmark
# device: NVIDIA H200
# date: 2026-01-01 00:00 UTC
# command: bin/fake-solution --bench
# gpu: NVIDIA H200, compute capability 9.0, 132 SMs, SM clock at most 1980 MHz, memory clock at most 3201 MHz
# software: driver 580.00 (CUDA 13.0), CUDA runtime 13.0
# roofs: stream_gbs=4300 copy_gbs=4200 fp64_gflops=33000 fp32_gflops=66000 fp64_tensor_gflops=66000 (measured in this run)
lesson,kernel,precision,shape,n,block,repeats,median_ms,min_ms,max_ms,transfers,rate,rate_unit,ceiling,ceiling_rate,ratio,baseline,baseline_ms,speedup,device,flops,dram_bytes,intensity,achieved_gflops,achieved_gbs,roof_gbs,roof_gflops,roof_fraction,arithmetic,sm_clock_mhz,sm_clock_min_mhz,sm_clock_max_mhz,power_w,power_min_w,power_max_w,power_limit_w,clock_events,timed_samples
fake,cpu-ikj,double,4096x4096x4096,4096,-,1,27487.8,27487.8,27487.8,0,5,GFLOP/s,,,,,,,Host CPU,1.37439e+11,,,,,,,,fp64,,,,,,,,,
fake,tiled,double,4096x4096x4096,4096,32x32,5,6.87195,6.8,7.0,0,20000,GFLOP/s,,,,cpu-ikj,27487.8,4000,NVIDIA H200,1.37439e+11,4.02653e+08,341.333,20000,58.59,4300,33000,0.606,fp64,1900,1890,1980,600,590,610,700,none,25
CSV

# fake NAME EXIT_CODE FILTER: a program that writes `sample` through FILTER to its --out file.
fake() {
  cat >"$work/$1" <<SCRIPT
#!/usr/bin/env bash
out="\${@: -1}"
$3 <"$sample" >"\$out"
exit $2
SCRIPT
  chmod +x "$work/$1"
}
fake good 0 cat
fake exit-code-1 0 cat && sed -i 's/^exit 0$/exit 1/' "$work/exit-code-1"
fake truncated 0 "head -c 1050"
fake header-only 0 "grep -m1 -B99 ^lesson,"
fake zero-time 0 "sed 's/,6.87195,/,0,/'"
fake above-roof 0 "sed 's/,0.606,fp64,/,1.2,fp64,/'"
fake no-arithmetic 0 "sed 's/,0.606,fp64,/,0.606,,/'"
fake slower-clock 0 "sed 's/,1900,1890,1980,/,1000,990,1000,/'"
fake unknown-gpu 0 "sed 's/NVIDIA H200/Test GPU/g; s/,1900,1890,1980,/,1000,990,1000,/'"
cat >"$work/no-file" <<'SCRIPT'
#!/usr/bin/env bash
echo "pretends to benchmark, writes nothing"
SCRIPT
chmod +x "$work/no-file"

failures=0
expect() {  # expect pass|fail NAME KERNELS [CAUSE: text the FAIL line must hold]
  python3 "$checker" --kernels "$3" "$work/$2" >"$work/$2.log" 2>&1
  local rc=$? verdict
  verdict=$(grep -E '^(OK|FAIL)' "$work/$2.log")
  if { [ "$1" = pass ] && [ $rc -eq 0 ]; } || { [ "$1" = fail ] && [ $rc -eq 1 ] && grep -qF -- "$4" <<<"$verdict"; }; then
    echo "ok: $2 ($1): $verdict"
  else
    echo "WRONG: $2 should $1${4:+ naming '$4'}, the checker exited $rc"; cat "$work/$2.log"; failures=$((failures + 1))
  fi
}
expect pass good tiled
expect fail exit-code-1 tiled "exited with 1"
expect fail truncated tiled "fields, the header"
expect fail header-only tiled "no row"
expect fail zero-time tiled "median_ms '0' is not a positive number"
expect fail no-file tiled "wrote no CSV"
expect fail good no-such-kernel "no row's kernel is named no-such-kernel"
expect fail above-roof tiled "at 1.20 of its roof"
expect fail no-arithmetic tiled "no arithmetic named"
expect fail slower-clock tiled "more than fp64 can give at 1000 MHz"
expect pass unknown-gpu tiled
grep -q "rates not bounded" "$work/unknown-gpu.log" ||
  { echo "WRONG: unknown-gpu does not say that its rates were not bounded"; failures=$((failures + 1)); }
expect pass good cpu-ikj,tiled
expect fail good cpu "no row's kernel is named cpu"
expect fail good ikj "no row's kernel is named ikj"
expect fail good tiled,cpu "no row's kernel is named cpu"
expect fail good '^tiled$' "no row's kernel is named ^tiled$"
[ $failures -eq 0 ] && echo "PASSED: the benchmark CSV check fails on each planted defect" || exit 1
