#!/usr/bin/env python3
"""validate-bench-csv.py [--data DIR] --kernels NAME[,NAME...] PROGRAM ARGS...: runs a benchmark and checks its CSV.

Runs PROGRAM ARGS... --out FILE (FILE in a fresh temporary folder) and succeeds only when
  - the program exits with 0 (exit 77, "skipped: no GPU", is passed on, so CTest skips the test);
  - FILE exists and starts with the comment lines naming the device, the date and the command;
  - its header has the schema's columns, every row has as many fields as the header, and every
    row's median_ms and rate are positive numbers;
  - every NAME of --kernels is the kernel column of at least one row, exactly: the whole name
    ("cublas" is not satisfied by a row "cublaslt-best");
  - a run with rows under the roofline (roof_gbs filled) names its GPU and software ('# gpu:'
    and '# software:' lines), and every such row has a positive roof_fraction or none at all;
  - on a GPU of data/machines.csv, no row is possible only beyond that GPU: above its roof, or
    above what its arithmetic units give at the clock it ran at (per-cycle peak x SMs x clock,
    scripts/lib/machines.py); on another GPU the run says that this bound was not checked.
The benchmark's own output is printed first; each failure says what was wrong.
--data DIR reads the machines and their specs from DIR (default: the course's data/).
"""
import os
import subprocess
import sys
import tempfile

import bench_csv
import machines

REQUIRED_COLUMNS = ["lesson", "kernel", "precision", "shape", "n", "block", "repeats", "median_ms", "min_ms",
                    "max_ms", "transfers", "rate", "rate_unit", "ceiling", "ceiling_rate", "ratio", "baseline",
                    "baseline_ms", "speedup", "device", "flops", "dram_bytes", "intensity", "achieved_gflops",
                    "achieved_gbs", "roof_gbs", "roof_gflops", "roof_fraction", "arithmetic"]
SKIP = 77
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def positive(text):
    return bench_csv.number(text, 0.0) > 0


def check_possible(table, data_dir):
    """Fails on a row that the GPU it names cannot have run; says so when the GPU is unknown."""
    device = table.comments["device"]
    owner = machines.of_device(machines.read(data_dir), device)
    if owner is None:
        if "gpu" in table.comments:
            print(f"note: {device} is no machine of {data_dir}/machines.csv: rates not bounded by its peaks")
        return
    problems = machines.rate_problems(table, owner[0])
    if problems:
        fail(f"a row no {owner[0].label} can have run: {'; '.join(problems)}")


def check_csv(path, kernel_names, data_dir=DATA_DIR):
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        fail(f"the benchmark wrote no CSV file ({path})")
    table = bench_csv.read(path)
    for key in ("device", "date", "command"):
        if key not in table.comments:
            fail(f"the CSV has no '# {key}:' comment line")
    header = table.columns
    if not header:
        fail("the CSV has no header")
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        fail(f"the CSV header lacks the columns {', '.join(missing)}")
    rows = table.records
    if not rows:
        fail("the CSV has a header but no row")
    kernels = []
    roofed = False
    for number, row in enumerate(rows, start=1):
        if len(row) != len(header):
            fail(f"row {number} has {len(row)} fields, the header {len(header)}: {','.join(row)}")
        fields = dict(zip(header, row))
        for column in ("median_ms", "rate"):
            if not positive(fields[column]):
                fail(f"row {number} ({fields['kernel']}): {column} '{fields[column]}' is not a positive number")
        kernels.append(fields["kernel"])
        if fields["roof_gbs"]:
            roofed = True
            if fields["roof_fraction"] and not positive(fields["roof_fraction"]):
                fail(f"row {number} ({fields['kernel']}): roof_fraction '{fields['roof_fraction']}' is not positive")
    if roofed:
        for key in ("gpu", "software"):
            if key not in table.comments:
                fail(f"rows are placed under the roofline but the CSV has no '# {key}:' line")
    missing = table.missing_kernels(kernel_names)
    if missing:
        fail(f"no row's kernel is named {', '.join(missing)} (kernels: {', '.join(sorted(set(kernels)))})")
    check_possible(table, data_dir)
    print(f"OK: {len(rows)} rows, kernels {', '.join(sorted(set(kernels)))}")


def main():
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    data_dir = DATA_DIR
    if args[:1] == ["--data"] and len(args) > 1:
        data_dir, args = args[1], args[2:]
    if len(args) < 3 or args[0] != "--kernels":
        print(__doc__)
        return 2
    names = [name for name in args[1].split(",") if name]
    command = args[2:]
    with tempfile.TemporaryDirectory(prefix="bench-csv-") as folder:
        path = os.path.join(folder, "bench.csv")
        sys.stdout.flush()
        rc = subprocess.run(command + ["--out", path]).returncode
        if rc == SKIP:
            print("SKIPPED: the benchmark needs a GPU")
            return SKIP
        if rc != 0:
            fail(f"the benchmark exited with {rc}")
        check_csv(path, names, data_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
