#!/usr/bin/env bash
# measure-counters.sh BUILD OUTDIR [LESSON_REGEX]
# Reads the hardware counters that lessons declare in their lessons/NN-name/counters.tsv (Nsight
# Compute, ncu): in lessons 02 and 03 the execution model (sectors per global load request,
# shared-memory wavefronts and bank conflicts, active threads per warp instruction, achieved
# occupancy), in lesson 13 the L2 hit rate and how busy the tensor cores are, in lesson 07 the SM
# clock of cuBLAS's DGEMM, in lesson 16 how busy the tensor pipe and the schedulers are and what
# the warps waited for. Writes ncu's raw CSV per row to OUTDIR/counters/, and its table
# (scripts/maintainer/counters-table.py), the one that the GPU's machine folder keeps
# (data/machines.csv: data/h200/ for an H200), to OUTDIR/counters/LESSON-NAME-counters.csv, its
# "# command:" line the ncu command that ran. Exits 77 when ncu is missing or cannot read the
# counters. LESSON_REGEX: only the lessons whose folder name matches it (e.g. ^16-).
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
build=${1:?usage: measure-counters.sh BUILD OUTDIR}
out=${2:?usage: measure-counters.sh BUILD OUTDIR}/counters
only=${3:-}
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
# The metric sets a table may name (@global, @shared, @l2, @tensor, @issue).
declare -A sets=(
  [global]=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum
  [shared]=smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  [l2]=gpu__time_duration.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,dram__bytes_read.sum
  [tensor]=gpu__time_duration.sum,sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second
  [issue]=gpu__time_duration.sum,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,sm__cycles_elapsed.avg.per_second
)
expand_sets() {  # comma-separated metrics, @set names replaced by their metrics
  local metric expanded=()
  IFS=, read -r -a metrics <<<"$1"
  for metric in "${metrics[@]}"; do
    if [[ "$metric" == @* ]]; then expanded+=("${sets[${metric#@}]:?unknown metric set $metric}"); else expanded+=("$metric"); fi
  done
  (IFS=,; echo "${expanded[*]}")
}
src=$(cd "$(dirname "$0")/../.." && pwd)
for table in "$src"/lessons/[0-9][0-9]-*/counters.tsv; do
  [ -f "$table" ] || continue
  lesson=$(basename "$(dirname "$table")")
  [[ "$lesson" =~ ${only:-.} ]] || continue
  while IFS=$'\t' read -r name kernels metrics program arguments; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    read -r -a args <<<"$arguments"
    measure "$lesson-$name" "$kernels" "$(expand_sets "$metrics")" "$build/bin/$lesson-$program" "${args[@]}"
  done <"$table"
done
exit $status
