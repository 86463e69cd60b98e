#!/usr/bin/env python3
"""verify-roofs.py DATA_DIR: the committed runs of every machine are possible on its GPU.

For every machine of DATA_DIR/machines.csv, every CSV of its folders (DATA_DIR/FOLDER/ and
DATA_DIR/FOLDERx<n>/, scripts/lib/machines.py):
  - a GPU run (a '# gpu:' line) names that machine's GPU in its '# device:' line;
  - a run placed under the roofline (a '# roofs:' line): its streaming roof is at least 90% of
    the device copy measured in the same run and at most the memory's published bandwidth, its FP64, FP32 and FP64 tensor-core roofs within 10% of
    NVIDIA's published peaks (the machine's specs file), and every kernel row of a GPU with
    declared work has a roof_fraction;
  - no row is above its roof (roof_fraction at most 1.05: a roof that a kernel beats is not a
    roof; the 5% allow for the spread between runs of the probes), nor above what the GPU's
    arithmetic units can give at the clock the row ran at (per-cycle peak x SMs x GPUs x clock:
    the highest clock the row records, else the GPU's largest);
and every specs file's per-cycle peaks agree with its published peaks (peak = per-cycle peak x
SMs x the clock it is quoted at, within 0.2%).
Exit 1 with one line per failure.

verify-roofs.py --runs DATA_DIR CSV...: the same checks on fresh runs (scripts/gpu-check.sh's
OUTDIR/bench/), each a run of the machine of DATA_DIR/machines.csv whose GPU its '# device:' line
names; a run of another GPU is said to be left unchecked.

verify-roofs.py --self-test DATA_DIR: a fabricated impossible row (a rate above its clock's
bound, a row above its roof) must fail, a possible one pass, on copies of a committed run.
"""
import glob
import os
import re
import shutil
import sys
import tempfile

# The course's one reader of its CSVs and its machines (scripts/lib/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import bench_csv  # noqa: E402  (after the path to it)
import machines  # noqa: E402

# Per-cycle peak, the published peak it comes from and the clock that peak is quoted at.
DERIVED = [("fp64-per-sm-cycle", "fp64-peak", "sm-clock-max"),
           ("fp64-tensor-per-sm-cycle", "fp64-tensor-peak", "sm-clock-max"),
           ("fp32-per-sm-cycle", "fp32-peak", "sm-clock-max"),
           ("tf32-tensor-per-sm-cycle", "tf32-tensor-peak", "tensor-peak-clock"),
           ("bf16-tensor-per-sm-cycle", "bf16-tensor-peak", "tensor-peak-clock")]


def specs_problems(machine):
    problems = []
    for per_cycle, peak, clock in DERIVED:
        derived = machine.spec(per_cycle) * machine.spec("sms") * machine.spec(clock) * 1e6 / 1e12
        if abs(derived / machine.spec(peak) - 1.0) > 0.002:
            problems.append(f"{machine.specs_file}: {per_cycle} x sms x {clock} = {derived:.1f} TFLOP/s, "
                            f"not {peak} {machine.spec(peak):g}")
    return problems


def run_problems(name, table, machine, ranks):
    """The failures of one committed CSV (NAME, read as TABLE) of MACHINE."""
    problems = []
    device = table.comments.get("device", "")
    if "gpu" in table.comments and machines.of_device([machine], device) is None:
        problems.append(f"{name}: its device '{device}' is not {machine.label}'s GPU ('{machine.device}', "
                        "data/machines.csv): a run of another machine")
        return problems
    if "roofs" in table.comments:
        roofs = table.roofs()

        def near(what, value, reference):
            if abs(value / reference - 1.0) > 0.10:
                problems.append(f"{name}: {what} {value:.0f} is not within 10% of {reference:.0f}")

        # The streaming roof is the best of the run's streaming kernels: never below 90% of the
        # device copy measured beside it, never above the memory's published bandwidth (a kernel
        # that streams better than cudaMemcpy is common: an H200 stream at 110% of its copy).
        if roofs["stream_gbs"] < 0.9 * roofs["copy_gbs"]:
            problems.append(f"{name}: stream_gbs {roofs['stream_gbs']:.0f} is below 90% of the device copy "
                            f"{roofs['copy_gbs']:.0f} measured in the same run")
        bandwidth_gbs = machine.spec("memory-bandwidth") * 1000
        if roofs["stream_gbs"] > bandwidth_gbs:
            problems.append(f"{name}: stream_gbs {roofs['stream_gbs']:.0f} is above the memory's published "
                            f"bandwidth {bandwidth_gbs:.0f} GB/s")
        near("fp64_gflops", roofs["fp64_gflops"], machine.spec("fp64-peak") * 1000)
        near("fp32_gflops", roofs["fp32_gflops"], machine.spec("fp32-peak") * 1000)
        near("fp64_tensor_gflops", roofs["fp64_tensor_gflops"], machine.spec("fp64-tensor-peak") * 1000)
        for row in table.rows:
            if row.get("roof_gbs") and row.get("flops") and not row.get("roof_fraction") \
                    and float(row["flops"]) > 0 and row.get("precision") in ("float", "double") \
                    and row.get("transfers") == "0":
                problems.append(f"{name}: {row['kernel']} {row['shape']} declares work but has no roof_fraction")
    problems += [f"{name}: {problem}" for problem in machines.rate_problems(table, machine)]
    return problems


def verify(data_dir):
    """(failures, runs checked) over every machine folder of DATA_DIR."""
    found = machines.read(data_dir)
    failures, runs = [], 0
    for machine in found:
        failures += specs_problems(machine)
    for folder in sorted(os.listdir(data_dir)):
        owner = machines.of_folder(found, folder)
        if owner is None or not os.path.isdir(os.path.join(data_dir, folder)):
            continue
        for path in sorted(glob.glob(os.path.join(data_dir, folder, "*.csv"))):
            runs += 1
            failures += run_problems(os.path.relpath(path, data_dir), bench_csv.read(path), *owner)
    return failures, runs


def verify_runs(data_dir, paths):
    """(failures, runs checked) of fresh CSVs, each against the machine its device names."""
    found = machines.read(data_dir)
    failures, runs = [], 0
    for path in paths:
        table = bench_csv.read(path)
        owner = machines.of_device(found, table.comments.get("device", ""))
        if owner is None:
            if "gpu" in table.comments:
                print(f"note: {path}: {table.comments.get('device')} is no machine of {data_dir}/machines.csv: "
                      "not checked against its peaks")
            continue
        runs += 1
        failures += run_problems(path, table, owner[0], owner[1])
    return failures, runs


def self_test(data_dir):
    """Fabricated rows on a copy of a committed run of the second machine (the H100, whose runs
    stay): only the possible ones may pass, and each impossible one must fail for its own cause."""
    found = machines.read(data_dir)
    second = next(m for m in found if m.role != "reference")
    source = os.path.join(data_dir, second.folder, "02-naive-matmul.csv")
    lines = open(source, encoding="utf-8").readlines()
    table = bench_csv.read(source)
    kernel = next(r for r in table.rows if r["device"] == table.comments["device"] and r["transfers"] == "0")
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, "data")
        os.makedirs(os.path.join(copy, second.folder))
        shutil.copy(os.path.join(data_dir, "machines.csv"), copy)
        shutil.copytree(os.path.join(data_dir, "specs"), os.path.join(copy, "specs"))

        def attempt(what, cause, edit, device=None, stream_copy=None):
            """The run with one row changed by EDIT (its '# device:' line by DEVICE, its streaming
            and copy roofs by STREAM_COPY) must pass (CAUSE None) or fail naming CAUSE."""
            nonlocal failures
            row = dict(kernel, roof_fraction="0.5")
            edit(row)
            columns = table.columns + [c for c in row if c not in table.columns]
            with open(os.path.join(copy, second.folder, "run.csv"), "w", encoding="utf-8") as f:
                for line in lines:
                    if line.startswith("# roofs:") and stream_copy:
                        line = re.sub(r"stream_gbs=\S+ copy_gbs=\S+", "stream_gbs=%g copy_gbs=%g" % stream_copy, line)
                    if line.startswith("#"):
                        f.write(f"# device: {device}\n" if device and line.startswith("# device:") else line)
                f.write(",".join(columns) + "\n")
                f.write(",".join(f'"{row[c]}"' if "," in row[c] else row[c] for c in columns) + "\n")
            problems, _ = verify(copy)
            right = not problems if cause is None else any(cause in problem for problem in problems)
            failures += not right
            verdict = "passes" if not problems else "fails: " + "; ".join(problems)
            print(f"{'ok' if right else 'WRONG'}: {what}: {verdict}")

        def at(rate_gflops, clock=None, arithmetic="fp64"):
            def edit(row):
                row["median_ms"] = f"{float(row['flops']) / (rate_gflops * 1e6):.6g}"
                row["rate"] = row["achieved_gflops"] = f"{rate_gflops:.6g}"
                row["arithmetic"] = arithmetic
                if clock is not None:
                    row["sm_clock_max_mhz"] = str(clock)
            return edit

        # FP64 vector: 128 flop/cycle/SM x 132 SMs, 16.9 GFLOP/s per MHz; the tensor cores twice that.
        attempt("a possible FP64 row at 1980 MHz", None, at(30000, 1980))
        attempt("FP64 vector above its peak at the GPU's largest clock", "can give at 1980 MHz", at(34000))
        attempt("FP64 vector above the bound of its recorded clock", "can give at 1200 MHz", at(30000, 1200))
        attempt("the same rate on the FP64 tensor cores at that clock", None, at(30000, 1200, "fp64-tensor"))
        attempt("double work naming no arithmetic", "no arithmetic named", at(1000, None, ""))
        attempt("a row above its roof", "of its roof", lambda row: row.update(roof_fraction="1.2",
                                                                              arithmetic="fp64-tensor"))
        # The streaming roof: above the device copy is possible, above the memory's bandwidth is not.
        attempt("a stream roof 10.5% above the device copy", None, at(30000, 1980), stream_copy=(3150, 2850))
        attempt("a stream roof above the published bandwidth", "above the memory's published bandwidth",
                at(30000, 1980), stream_copy=(3400, 3300))
        attempt("a stream roof far below the device copy", "below 90% of the device copy", at(30000, 1980),
                stream_copy=(2500, 3000))
        attempt("a GPU run of another machine", f"not {second.label}'s GPU", at(30000, 1980), device=found[0].device)
    print("FAIL" if failures else "OK: the check fails every impossible row, each for its cause, and passes the "
          "possible ones")
    return 1 if failures else 0


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        return self_test(sys.argv[2])
    if len(sys.argv) >= 3 and sys.argv[1] == "--runs":
        failures, runs = verify_runs(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 2:
        failures, runs = verify(sys.argv[1])
        if runs == 0:
            failures.append(f"no run under the machine folders of {sys.argv[1]}")
    else:
        sys.exit(__doc__)
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"OK: {runs} runs are possible on their GPUs and honour their roofs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
