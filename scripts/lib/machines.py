"""The machines whose runs data/ keeps (data/machines.csv), their published figures
(data/specs/), and the bound those figures put on every GPU row of a run.

    ms = machines.read("data")         # [Machine], the reference machine first
    ms[0].name, ms[0].folder           # 'h200', 'h200': data/h200/ (n ranks: data/h200x<n>/)
    ms[0].label, ms[0].device          # 'H200', 'NVIDIA H200' (the driver's name of the GPU)
    ms[0].spec("sms")                  # 132.0: a figure of its specs file, data/specs/h200.csv
    machines.reference("data")         # the Machine whose role is reference
    machines.of_folder(ms, "h100x2")   # (the h100 Machine, 2); None for another folder
    machines.of_device(ms, "2x NVIDIA H100 80GB HBM3")  # (the h100 Machine, 2 GPUs); None: unknown
    machines.rate_problems(table, machine)  # ['kernel shape block: why'] per impossible row
    machines.rate_findings(table, machine)  # [(row index, kind, why)]: kind ABOVE_CLOCK, ABOVE_ROOF ...

A row is impossible when its rate is above what the GPUs' arithmetic units can give at the clock
it ran at: per-cycle peak of its arithmetic (fp64, fp64-tensor, fp32, tf32-tensor, bf16-tensor)
x SMs x GPUs (the row's device: "2x NVIDIA H100 80GB HBM3" is two) x clock. The clock is the
highest the row records (sm_clock_max_mhz, else sm_clock_mhz) and the GPU's largest clock
(sm-clock-max) where it records none; a row without the arithmetic column (runs written before
it existed) is bounded by the fastest units of its precision. A row above its roof
(roof_fraction over ROOF_SLACK) is a problem too: a roof that a kernel beats is not a roof. Rows
of another device (a CPU baseline), of an integer type, or without declared work or a GFLOP/s
rate are not bounded.
"""
import os
import re

import bench_csv

# The units of each arithmetic column value, by the name of their per-cycle peak in the specs.
PER_CYCLE = {a: f"{a}-per-sm-cycle" for a in ("fp64", "fp64-tensor", "fp32", "tf32-tensor", "bf16-tensor")}
# A run without the arithmetic column: the fastest units its precision can use.
FASTEST_OF = {"double": "fp64-tensor", "float": "tf32-tensor", "bf16": "bf16-tensor"}
# A roof_fraction above this fails: the 5% allow for the spread between runs of the roofs' probes.
ROOF_SLACK = 1.05
# A rate this little above the bound is the CSV's rounding (six significant digits), not a fault.
ROUNDING = 1e-3
GPUS = re.compile(r"^(\d+)x (.*)$")


class Machine:
    """One row of data/machines.csv, with its specs file read."""

    def __init__(self, row, data_dir):
        self.name, self.role, self.folder = row["name"], row["role"], row["folder"]
        self.label, self.device, self.specs_file = row["label"], row["device"], row["specs"]
        self.specs = {r["name"]: bench_csv.number(r["value"])
                      for r in bench_csv.read(os.path.join(data_dir, self.specs_file)).rows}

    def spec(self, name):
        value = self.specs.get(name)
        if value is None:
            raise KeyError(f"{self.specs_file} has no figure '{name}'")
        return value


def read(data_dir):
    """The machines of DATA_DIR/machines.csv, the reference machine first."""
    rows = bench_csv.read(os.path.join(data_dir, "machines.csv")).rows
    found = [Machine(row, data_dir) for row in rows]
    references = [m for m in found if m.role == "reference"]
    if len(references) != 1:
        raise ValueError(f"{data_dir}/machines.csv names {len(references)} reference machines, not one")
    return references + [m for m in found if m.role != "reference"]


def reference(data_dir):
    return read(data_dir)[0]


def of_folder(found, folder):
    """(Machine, ranks) for data/FOLDER/ (ranks 1) or data/FOLDERx<n>/ (ranks n); None otherwise."""
    for machine in found:
        if folder == machine.folder:
            return machine, 1
        match = re.fullmatch(re.escape(machine.folder) + r"x(\d+)", folder)
        if match:
            return machine, int(match.group(1))
    return None


def of_device(found, device):
    """(Machine, GPUs) for a run's device name ('NVIDIA H200', '2x NVIDIA H100 80GB HBM3'); None
    for a device no machine has."""
    match = GPUS.match(device)
    gpus, name = (int(match.group(1)), match.group(2)) if match else (1, device)
    for machine in found:
        if name == machine.device:
            return machine, gpus
    return None


def row_clock(row, machine):
    """(MHz, where it comes from): the highest clock the row records, else the GPU's largest."""
    for column in ("sm_clock_max_mhz", "sm_clock_mhz"):
        clock = bench_csv.number(row.get(column))
        if clock is not None and clock > 0:
            return clock, column
    return machine.spec("sm-clock-max"), f"no clock recorded: the GPU's largest, {machine.specs_file} sm-clock-max"


def row_rate_gflops(row):
    """The row's GFLOP/s: its declared flops over its median time, or its rate in GFLOP/s."""
    rates = []
    flops, median_ms = bench_csv.number(row.get("flops")), bench_csv.number(row.get("median_ms"))
    if flops and flops > 0 and median_ms and median_ms > 0:
        rates.append(flops / (median_ms * 1e-3) / 1e9)
    if row.get("rate_unit") == "GFLOP/s" and bench_csv.number(row.get("rate")):
        rates.append(bench_csv.number(row.get("rate")))
    return max(rates) if rates else None


def row_name(row):
    return " ".join(row.get(c, "") for c in ("kernel", "shape", "block") if row.get(c, "") not in ("", "-"))


# What rate_findings finds in a row: above its roof, work with no arithmetic named, an arithmetic
# with no per-cycle peak, a rate above what its clock allows.
ABOVE_ROOF = "above-roof"
NO_ARITHMETIC = "no-arithmetic"
UNKNOWN_ARITHMETIC = "unknown-arithmetic"
ABOVE_CLOCK = "above-clock"


def rate_findings(table, machine):
    """(row index, kind, line) for each row of TABLE (a run of MACHINE) whose rate is above what
    its arithmetic units allow at its clock (ABOVE_CLOCK), or that lacks the arithmetic its work
    needs, or whose roof_fraction is above ROOF_SLACK."""
    findings = []
    sms = machine.spec("sms")
    has_arithmetic = "arithmetic" in table.columns
    for index, row in enumerate(table.rows):
        device = of_device([machine], row.get("device", ""))
        if device is None:
            continue  # another device: a CPU baseline
        gpus = device[1]
        fraction = bench_csv.number(row.get("roof_fraction"))
        if fraction is not None and fraction > ROOF_SLACK:
            findings.append((index, ABOVE_ROOF, f"{row_name(row)}: at {fraction:.2f} of its roof (a roof that a "
                             "kernel beats is not a roof)"))
        rate = row_rate_gflops(row)
        if rate is None:
            continue
        arithmetic = row.get("arithmetic", "") if has_arithmetic else FASTEST_OF.get(row.get("precision"), "")
        if not arithmetic:
            if has_arithmetic and row.get("precision") in FASTEST_OF:
                findings.append((index, NO_ARITHMETIC, f"{row_name(row)}: {row['precision']} work with no "
                                 "arithmetic named: which units bound it is unknown"))
            continue
        if arithmetic not in PER_CYCLE:
            findings.append((index, UNKNOWN_ARITHMETIC, f"{row_name(row)}: arithmetic '{arithmetic}' has no "
                             f"per-cycle peak (one of {', '.join(PER_CYCLE)})"))
            continue
        per_cycle = machine.spec(PER_CYCLE[arithmetic])
        clock, source = row_clock(row, machine)
        bound = per_cycle * sms * gpus * clock / 1000.0  # GFLOP/s
        if rate > bound * (1 + ROUNDING):
            findings.append((index, ABOVE_CLOCK, f"{row_name(row)}: {rate:.0f} GFLOP/s is more than {arithmetic} "
                             f"can give at {clock:g} MHz: {per_cycle:g} flop/cycle x {sms:g} SMs x {gpus} GPU(s) = "
                             f"{bound:.0f} GFLOP/s (clock: {source})"))
    return findings


def rate_problems(table, machine):
    """One line per row of TABLE (a run of MACHINE) that rate_findings finds."""
    return [line for _, _, line in rate_findings(table, machine)]
