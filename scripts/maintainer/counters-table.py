#!/usr/bin/env python3
"""counters-table.py NCU_CSV OUT_CSV DEVICE DATE COMMAND

Turns the raw CSV of `ncu --csv --metrics ...` (scripts/maintainer/measure-counters.sh) into one row
per kernel, block and grid: the kernel's short name (its template arguments kept), and each
metric's median over the profiled launches, as a plain number. The header comments say where
the numbers come from, as in every CSV of data/.
"""
import csv
import statistics
import os
import sys

# The reader of ncu's CSV that scripts/profile also uses (scripts/lib/ncu_csv.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import ncu_csv  # noqa: E402  (after the path to it)


# Column names for the metrics (the pages quote them; ncu's names have dots).
NAMES = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "global_load_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global_load_sectors",
    "dram__bytes_read.sum": "dram_bytes_read",
    "smsp__inst_executed_op_shared_ld.sum": "shared_load_instructions",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_load_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "shared_load_bank_conflicts",
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads_per_instruction",
    "smsp__inst_executed.sum": "warp_instructions",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "gpu__time_duration.sum": "duration_ns",
    "lts__t_sector_hit_rate.pct": "l2_hit_rate_pct",
    "lts__t_bytes.sum": "l2_bytes",
    "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.avg.pct_of_peak_sustained_elapsed": "bf16_tensor_pct_of_peak",
    "sm__cycles_elapsed.avg.per_second": "sm_clock_hz",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed": "tensor_pipe_active_pct",
    "sm__inst_issued.avg.pct_of_peak_sustained_active": "issue_slots_used_pct",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "stall_long_scoreboard",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": "stall_barrier",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio": "stall_mio_throttle",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio": "stall_short_scoreboard",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio": "stall_math_pipe_throttle",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio": "stall_wait",
    "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio": "stall_dispatch",
}


def shape(text):
    """'(32, 8, 1)' -> '32x8'; '(132, 1, 1)' -> '132'."""
    parts = text.strip("()").split(", ")
    while len(parts) > 1 and parts[-1] == "1":
        parts.pop()
    return "x".join(parts)


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    source, target, device, date, command = sys.argv[1:]
    with open(source, newline="") as f:
        rows = ncu_csv.metric_rows(f.read())
    if not rows:
        sys.exit(f"{source}: no ncu rows")
    values, metrics, order = {}, [], []
    for row in rows:
        key = (ncu_csv.kernel_name(row["Kernel Name"]), shape(row["Block Size"]), shape(row["Grid Size"]))
        metric = row["Metric Name"]
        if key not in values:
            values[key] = {}
            order.append(key)
        if metric not in metrics:
            metrics.append(metric)
        if row["value"] is None:
            sys.exit(f"{source}: {metric} of {key[0]} is not a number: {row['Metric Value']!r}")
        values[key].setdefault(metric, []).append(row["value"])
    with open(target, "w", newline="") as f:
        f.write(f"# cuda-workbook hardware counters (Nsight Compute, median over the profiled launches)\n")
        f.write(f"# device: {device}\n# date: {date}\n# command: {command}\n")
        for metric in metrics:
            f.write(f"# {NAMES.get(metric, metric)} = ncu metric {metric}\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["kernel", "block", "grid"] + [NAMES.get(m, m) for m in metrics])
        for key in order:
            writer.writerow(list(key) + ["%.10g" % statistics.median(values[key][m]) for m in metrics])


if __name__ == "__main__":
    main()
