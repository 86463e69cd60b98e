#!/usr/bin/env bash
# measure-counters.sh BUILD OUTDIR
# Reads the hardware counters that the execution-model programs of lessons 02 and 03 teach
# (Nsight Compute, ncu): sectors per global load request, shared-memory wavefronts and bank
# conflicts, active threads per warp instruction, achieved occupancy; and lesson 13's L2 hit rate
# with kernel 04's tiles in plain row order and in bands, and how busy kernels 04 to 06 and the
# cuBLAS kernels of the same benchmark keep the tensor cores; and the SM clock of lesson 07's
# cuBLAS DGEMM. Writes ncu's raw CSV per program to OUTDIR/counters/, and its table
# (scripts/maintainer/counters-table.py), the one that the GPU's machine folder keeps
# (data/machines.csv: data/h200/ for an H200), to OUTDIR/counters/NAME-counters.csv, its
# "# command:" line the ncu command that ran. Exits 77 when ncu is missing or cannot read the
# counters.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
build=${1:?usage: measure-counters.sh BUILD OUTDIR}
out=${2:?usage: measure-counters.sh BUILD OUTDIR}/counters
mkdir -p "$out"
command -v ncu >/dev/null 2>&1 || { echo "ncu: not found"; exit 77; }
status=0
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
measure() {  # name kernel-regex metrics program args...
  local name=$1 kernels=$2 metrics=$3
  shift 3
  # --clock-control none: the GPU keeps the clocks it runs with outside the profiler.
  local ncu_command=(ncu --csv --clock-control none --metrics "$metrics" -k "regex:$kernels" "$@")
  local date
  date=$(date -u '+%Y-%m-%d %H:%M UTC')
  if "${ncu_command[@]}" >"$out/$name.csv" 2>"$out/$name.log" &&
     python3 "$(dirname "$0")/counters-table.py" "$out/$name.csv" "$out/$name-counters.csv" "$device" "$date" \
       "$(printf '%q ' "${ncu_command[@]}" | sed 's/ $//')" 2>>"$out/$name.log"; then
    echo "counters $name: $(grep -vc '^#' "$out/$name-counters.csv") table lines"
  else
    echo "counters $name: FAILED"; tail -n 5 "$out/$name.log"; status=1
  fi
}
global=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum
shared=smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
measure 02-naive-matmul-coalescing 'scale_rows' "$global" \
  "$build/bin/02-naive-matmul-coalescing-solution" --bench --sizes 2048x2048 --repeat 1
measure 02-naive-matmul-divergence 'branch_by' smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum \
  "$build/bin/02-naive-matmul-coalescing-solution" --bench --sizes 256x256 --repeat 1
measure 03-tiled-matmul-banks 'transpose' "$shared,$global" \
  "$build/bin/03-tiled-matmul-banks-solution" --bench --sizes 2048 --repeat 1
measure 03-tiled-matmul-occupancy 'scale_kernel' sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum \
  "$build/bin/03-tiled-matmul-occupancy-solution" --bench --sizes 16777216 --repeat 1
# Lesson 13's kernel 04 at 8192^3, its tiles in plain row order (--band-rows 1) and in its bands of 8.
l2=gpu__time_duration.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,dram__bytes_read.sum
measure 13-hopper-tensor-cores-row-order 'persistent' "$l2" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 8192 --kernels 4 --repeat 1 --band-rows 1
measure 13-hopper-tensor-cores-bands 'persistent' "$l2" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 8192 --kernels 4 --repeat 1 --band-rows 8
# Lesson 13's kernels 04 to 06: how busy their tensor pipes are, at each size of the benchmark.
tensor=gpu__time_duration.sum,sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second
measure 13-hopper-tensor-cores-tensor-pipe-4096 'persistent|cluster_multicast|tma_epilogue' "$tensor" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 4096 --kernels 4,5,6 --repeat 1
measure 13-hopper-tensor-cores-tensor-pipe-8192 'persistent|cluster_multicast|tma_epilogue' "$tensor" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 8192 --kernels 4,5,6 --repeat 1
# Lesson 07's cuBLAS DGEMM at 8192^3: the SM clock it runs at, read from the SM's own cycle
# counter (NVML's readings inside its timed runs can stay at one value that its rate rules out).
measure 07-toward-cublas-library '^(nvjet|sm[0-9]|cutlass|dgemm)' gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second \
  "$build/bin/07-toward-cublas-solution" --bench --sizes 8192 --kernels 8 --repeat 1
# The libraries' own kernels in the same kind of run: every candidate that cuBLASLt's search times
# and cublasGemmEx's default, by name (cuBLAS names its Hopper kernels nvjet_* or sm90_*).
measure 13-hopper-tensor-cores-library-4096 '^(nvjet|sm90)' "$tensor" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 4096 --kernels 4 --repeat 1
measure 13-hopper-tensor-cores-library-8192 '^(nvjet|sm90)' "$tensor" \
  "$build/bin/13-hopper-tensor-cores-solution" --bench --sizes 8192 --kernels 4 --repeat 1
exit $status
