#!/usr/bin/env python3
"""torch_ceilings.py CSV [--repeat N]: PyTorch's own attention beside the lesson's kernels.

CSV is the file the lesson's --bench just wrote. For every shape it holds (the batch, heads, seq,
head_dim and causal columns), this times torch.nn.functional.scaled_dot_product_attention on the
same GPU with one backend forced at a time, FlashAttention (torch-flash) and cuDNN (torch-cudnn),
on bf16 tensors of that shape, and appends one row per backend in the driver's own columns: the
median, min and max of as many samples as the driver's rows took (--repeat N to change it), each
sample 5 back-to-back calls between two CUDA events after a warm-up; the rate is
4 B H S^2 d / t in GFLOP/s, halved with causal, as the driver counts it. The columns that only
describe the shape (flops, bytes, baseline time, roofs) are copied from the driver's row of that
shape; the clock and power columns stay empty (the bound on the rate is then the GPU's highest
clock). A backend that refuses a shape is said so, and has no row.

Without PyTorch, or with a PyTorch that sees no CUDA GPU (or WB_FORCE_NO_TORCH=1), it says so
in one line and exits 0, leaving the CSV as it was. Bad input: exit 2, the CSV untouched.
"""
import argparse
import csv
import io
import os
import sys

# The course's reader of benchmark CSVs, in scripts/lib/ of the course this file belongs to.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "lib"))
import bench_csv  # noqa: E402  (after the path to it)

BACKENDS = [("torch-flash", "FLASH_ATTENTION"), ("torch-cudnn", "CUDNN_ATTENTION")]
BATCH = 5  # back-to-back calls per timed sample, as the driver's kBatch
SHAPE_COLUMNS = ["batch", "heads", "seq", "head_dim", "causal"]
# Columns each backend's run fills; the others come from the driver's row of the same shape.
MEASURED = ["kernel", "block", "repeats", "median_ms", "min_ms", "max_ms", "rate", "ratio", "speedup",
            "achieved_gflops", "achieved_gbs", "roof_fraction"]


def load_torch():
    """torch, or None with the reason why its rows are left out."""
    if os.environ.get("WB_FORCE_NO_TORCH") == "1":
        return None, "WB_FORCE_NO_TORCH=1"
    try:
        import torch
    except ImportError:
        return None, "python3 cannot import torch"
    if not torch.cuda.is_available():
        return None, f"PyTorch {torch.__version__} sees no CUDA GPU"
    return torch, ""


def number(value):
    """As the driver writes a number (%.6g); empty when not measured."""
    return "" if value is None or not value >= 0 else f"{value:.6g}"


def read_table(path):
    """(header, rows as dicts) of the driver's CSV (scripts/lib/bench_csv.py reads it); exits 2
    when it holds no shape to time."""
    table = bench_csv.read(path)
    if any(column not in table.columns for column in SHAPE_COLUMNS + MEASURED):
        print(f"error: {path}: not a CSV of the lesson's --bench (no header with {', '.join(SHAPE_COLUMNS)})")
        sys.exit(2)
    return table.columns, table.rows


def shapes_of(rows):
    """{(batch, heads, seq, head_dim, causal): the driver's first row of that shape}, in order."""
    shapes = {}
    for row in rows:
        shapes.setdefault(tuple(int(row[c]) for c in SHAPE_COLUMNS), row)
    return shapes


def time_calls(torch, call, repeat):
    """(median, min, max) in ms of one call, each sample BATCH calls between two events."""
    for _ in range(3):
        call()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(repeat):
        start.record()
        for _ in range(BATCH):
            call()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) / BATCH)
    samples.sort()
    middle = len(samples) // 2
    median = samples[middle] if len(samples) % 2 else (samples[middle - 1] + samples[middle]) / 2
    return median, samples[0], samples[-1]


def measured_row(template, kernel, block, repeat, times):
    """The driver's row of the shape with this backend's measured columns in place."""
    median, low, high = times
    row = dict(template)
    seconds = median * 1e-3
    flops, dram_bytes = float(template["flops"]), float(template["dram_bytes"])
    rate = flops / seconds / 1e9
    ceiling = float(template["ceiling_rate"]) if template.get("ceiling_rate") else None
    baseline = float(template["baseline_ms"]) if template.get("baseline_ms") else None
    roof_gbs = float(template["roof_gbs"]) if template.get("roof_gbs") else None
    roof_gflops = float(template["roof_gflops"]) if template.get("roof_gflops") else None
    fraction = None  # as the driver's roofline_of: no fraction for work whose arithmetic has no roof
    if roof_gbs and roof_gflops:
        fraction = max(dram_bytes / (roof_gbs * 1e9), flops / (roof_gflops * 1e9)) / seconds
    row.update(kernel=kernel, block=block, repeats=str(repeat), median_ms=number(median), min_ms=number(low),
               max_ms=number(high), rate=number(rate), ratio=number(rate / ceiling if ceiling else None),
               speedup=number(baseline / median if baseline else None), achieved_gflops=number(rate),
               achieved_gbs=number(dram_bytes / seconds / 1e9), roof_fraction=number(fraction))
    for column in row:
        if column.startswith(("sm_clock", "power")) or column in ("clock_events", "timed_samples"):
            row[column] = ""  # not sampled here: the rate's bound is then the GPU's highest clock
    return row


def backend_rows(torch, shape, template, repeat):
    """One row per backend that accepts the shape."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    batch, heads, seq, head_dim, causal = shape
    q, k, v = (torch.randn(batch, heads, seq, head_dim, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    rows = []
    for kernel, backend in BACKENDS:
        def attention():
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
        try:
            with sdpa_kernel(getattr(SDPBackend, backend)):
                times = time_calls(torch, attention, repeat)
        except (RuntimeError, AttributeError) as refusal:
            print(f"  {kernel}: skipped, {backend} refuses B={batch} H={heads} S={seq} d={head_dim} "
                  f"causal={causal}: {str(refusal).splitlines()[0] if str(refusal) else type(refusal).__name__}")
            continue
        block = f"torch.nn.functional.scaled_dot_product_attention, SDPBackend.{backend}, bf16 out"
        rows.append(measured_row(template, kernel, block, repeat, times))
        print(f"  {kernel}: {times[0]:.4f} ms, {float(rows[-1]['rate']):.0f} GFLOP/s")
    return rows


def main():
    parser = argparse.ArgumentParser(description="Append PyTorch's attention backends to the lesson's CSV.")
    parser.add_argument("csv", help="the CSV that the lesson's --bench wrote")
    parser.add_argument("--repeat", type=int, help="samples per row (default: as many as the driver's rows)")
    options = parser.parse_args()
    torch, why = load_torch()
    if torch is None:
        print(f"PyTorch absent ({why}): its rows (torch-flash, torch-cudnn) are left out of {options.csv}")
        return 0
    if not os.path.isfile(options.csv):
        print(f"error: {options.csv}: no such file (run the lesson's --bench first)")
        return 2
    header, rows = read_table(options.csv)
    shapes = shapes_of(rows)
    if not shapes:
        print(f"error: {options.csv}: no row to take the shapes from")
        return 2
    if options.repeat is not None and options.repeat < 1:
        print("error: --repeat: at least 1")
        return 2
    print(f"PyTorch {torch.__version__} (cuDNN {torch.backends.cudnn.version()}) on {torch.cuda.get_device_name()}:")
    added = []
    for shape, template in shapes.items():
        print(f" B={shape[0]} H={shape[1]} S={shape[2]} d={shape[3]} causal={shape[4]}:")
        repeat = options.repeat or int(template["repeats"])
        added += backend_rows(torch, shape, template, repeat)
    text = io.StringIO()
    text.write(f"# command: python3 {' '.join(sys.argv)} (rows torch-*: PyTorch {torch.__version__}, "
               f"cuDNN {torch.backends.cudnn.version()})\n")
    writer = csv.DictWriter(text, fieldnames=header, lineterminator="\n")
    writer.writerows(added)
    with open(options.csv, "a", encoding="utf-8") as f:
        f.write(text.getvalue())
    print(f"{len(added)} rows appended to {options.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
