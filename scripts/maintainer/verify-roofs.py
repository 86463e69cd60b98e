#!/usr/bin/env python3
"""verify-roofs.py DATA_DIR: the committed reference runs honour their roofs.

For every CSV under DATA_DIR/h100/ with a '# roofs:' line (a GPU run placed under the roofline):
  - the streaming roof is within 10% of the device copy measured in the same run;
  - the FP64, FP32 and FP64 tensor-core roofs are within 10% of NVIDIA's published peaks
    (DATA_DIR/specs/h100.csv);
  - no row's roof_fraction is above 1.05 (a roof that a kernel beats is not a roof; the 5% allow
    for the spread between runs of the probes);
  - every kernel row of a GPU with declared work has a roof_fraction.
Exit 1 with one line per failure.
"""
import glob
import os
import sys

# The course's one reader of its CSVs (scripts/lib/bench_csv.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import bench_csv  # noqa: E402  (after the path to it)


def published(data_dir):
    rows = bench_csv.read(os.path.join(data_dir, "specs", "h100.csv")).rows
    return {row["name"]: float(row["value"]) for row in rows}


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data_dir = sys.argv[1]
    peaks = published(data_dir)
    failures, files = [], 0
    for path in sorted(glob.glob(os.path.join(data_dir, "h100", "*.csv"))):
        table = bench_csv.read(path)
        if "roofs" not in table.comments:
            continue
        files += 1
        name = os.path.relpath(path, data_dir)
        roofs = table.roofs()

        def near(what, value, reference):
            if abs(value / reference - 1.0) > 0.10:
                failures.append(f"{name}: {what} {value:.0f} is not within 10% of {reference:.0f}")

        near("stream_gbs", roofs["stream_gbs"], roofs["copy_gbs"])
        near("fp64_gflops", roofs["fp64_gflops"], peaks["fp64-peak"] * 1000)
        near("fp32_gflops", roofs["fp32_gflops"], peaks["fp32-peak"] * 1000)
        near("fp64_tensor_gflops", roofs["fp64_tensor_gflops"], peaks["fp64-tensor-peak"] * 1000)
        for row in table.rows:
            fraction = row.get("roof_fraction", "")
            if fraction and float(fraction) > 1.05:
                failures.append(f"{name}: {row['kernel']} {row['shape']} {row['block']} is at {float(fraction):.2f} "
                                f"of its roof")
            if row.get("roof_gbs") and row.get("flops") and not fraction and float(row["flops"]) > 0 \
                    and row.get("precision") in ("float", "double") and row.get("transfers") == "0":
                failures.append(f"{name}: {row['kernel']} {row['shape']} declares work but has no roof_fraction")
    if files == 0:
        failures.append(f"no CSV under {data_dir}/h100 has a '# roofs:' line")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"OK: {files} reference runs honour their roofs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
