"""Reading the course's CSVs: the benchmarks' (common/src/csv.cpp) and the others under data/.

Such a file opens with comment lines, '# key: value' (device, date, command; on a GPU also gpu,
software and roofs), then holds a plain CSV table: a header of column names, one row per line.
A line that starts with '#' is a comment wherever it stands; blank lines are skipped.

    table = bench_csv.read("data/h100/06-sciddicat.csv")  # the second machine's run (machines.py)
    table.comments["device"]    # 'NVIDIA H100 80GB HBM3': the value of the first '# device:' line
    table.columns               # ['lesson', 'kernel', ...]: the header
    table.rows[0]["median_ms"]  # '0.400304': each row a dict of column -> text
    table.records[0]            # ['02-naive-matmul-coalescing', ...]: the row's fields as written
    table.roofs()               # {'stream_gbs': 3023.65, ...}: the '# roofs:' line, {} without one
    bench_csv.number("0.4")     # 0.4; an empty cell or a word gives None (or the default given)

read() raises OSError (FileNotFoundError for a missing file), as open() does; callers that
allow a missing file check for it first. Used by scripts/progress, validate-bench-csv.py,
lint-lessons.py, verify-roofs.py, page-figures.py and machines.py (data/machines.csv and specs).
"""
import csv
import re


class BenchCsv:
    """One file: comments (dict), columns (list), records (lists of fields) and rows (dicts).
    A row with fewer fields than the header lacks the last columns in rows; records keeps every
    row as written, so a check can tell its length."""

    def __init__(self, comments, columns, records):
        self.comments = comments
        self.columns = columns
        self.records = records
        self.rows = [dict(zip(columns, record)) for record in records]

    def roofs(self):
        """{name: float} from the '# roofs: stream_gbs=... copy_gbs=...' line; {} without one."""
        return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.e+-]+)", self.comments.get("roofs", ""))}


def read(path):
    comments, lines = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                key, sep, value = line[1:].partition(":")
                if sep:
                    comments.setdefault(key.strip(), value.strip())
            elif line.strip():
                lines.append(line)
    table = list(csv.reader(lines))
    return BenchCsv(comments, table[0] if table else [], table[1:])


def number(text, default=None):
    """float(text), or `default` where the text is no number (an empty cell: not measured)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return default
