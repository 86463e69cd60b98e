#!/usr/bin/env python3
"""blank-stale-readings.py DATA_DIR CSV...: empty the clock and power figures NVML did not measure.

While a library kernel keeps the GPU busy, NVML may return one cached clock and one power for
every reading inside its timed runs. Such a row records a clock its own rate cannot have run at
(the rate is above what its arithmetic units give at that clock: scripts/lib/machines.py), so the
figures describe nothing. For each row of each CSV (a run of a machine of DATA_DIR/machines.csv)
whose readings are all one clock and one power (minimum equal to maximum for both) and whose rate
is above what that clock allows, this empties its sm_clock_*, power_w, power_min_w, power_max_w,
clock_events and timed_samples cells and adds a '# blanked:' line that says so (data/README.md);
the timings and power_limit_w stay as measured. Any other row is left as it is, for
verify-roofs.py to judge. scripts/gpu-check.sh runs it on its step bench's CSVs before checking
them. Prints one line per row blanked; exit 0.
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import bench_csv  # noqa: E402  (after the path to it)
import machines  # noqa: E402

BLANKED = ("sm_clock_mhz", "sm_clock_min_mhz", "sm_clock_max_mhz", "power_w", "power_min_w", "power_max_w",
           "clock_events", "timed_samples")


def readings_are_one(row):
    """True when the row's readings all gave one clock and one power."""
    pairs = [("sm_clock_min_mhz", "sm_clock_max_mhz"), ("power_min_w", "power_max_w")]
    values = [(bench_csv.number(row.get(low)), bench_csv.number(row.get(high))) for low, high in pairs]
    return all(low is not None and low == high for low, high in values)


def csv_line(record):
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerow(record)
    return text.getvalue()


def blank(path, found):
    table = bench_csv.read(path)
    owner = machines.of_device(found, table.comments.get("device", ""))
    if owner is None or not all(column in table.columns for column in BLANKED):
        return []
    above_clock = {i for i, kind, _ in machines.rate_findings(table, owner[0]) if kind == machines.ABOVE_CLOCK}
    stale = [i for i in sorted(above_clock) if readings_are_one(table.rows[i])]
    if not stale:
        return []
    columns = [table.columns.index(column) for column in BLANKED]
    kernels = sorted({table.rows[i]["kernel"] for i in stale})
    note = (f"# blanked: the {', '.join(kernels)} row's clock and power columns: every NVML reading inside its timed "
            "runs gave the same clock and power, and its rate is above what that clock allows (data/README.md); "
            "its timings are as measured\n")
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    header = next(i for i, line in enumerate(lines) if not line.startswith("#") and line.strip())
    rows_blanked = []
    data_index = -1
    for i in range(header + 1, len(lines)):
        if lines[i].startswith("#") or not lines[i].strip():
            continue
        data_index += 1
        if data_index not in stale:
            continue
        record = list(table.records[data_index])
        for column in columns:
            if column < len(record):
                record[column] = ""
        lines[i] = csv_line(record)
        rows_blanked.append(f"{path}: blanked {machines.row_name(table.rows[data_index])} ({table.rows[data_index].get('inputs', '')})")
    lines.insert(header, note)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    return rows_blanked


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(sys.argv) < 2 or not os.path.isfile(os.path.join(sys.argv[1], "machines.csv")):
        print("usage: blank-stale-readings.py DATA_DIR CSV... (DATA_DIR holds machines.csv)", file=sys.stderr)
        return 2
    found = machines.read(sys.argv[1])
    for path in sys.argv[2:]:
        for line in blank(path, found):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
