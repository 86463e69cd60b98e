"""Reading the mutation reports: solutions/NN-name/mutation-report.tsv (scripts/maintainer/mutate.py).

A report opens with comment lines: '# regions FILE SHA256' (the key of each file's rows: the
sha256 of the code in its marked regions) and '# summary FILE: ...' (its counts, as summary_line
writes them), then a header of column names (HEADER) and one row per mutant, tab-separated, with
tabs, newlines and backslashes escaped.

    report = mutation_report.read(mutation_report.report_path(root, "13-hopper-tensor-cores"))
    report.hashes      # {file: sha256}
    report.summaries   # {file: the text of its '# summary' line}
    report.rows[0]     # {'file': ..., 'position': '12:8', 'outcome': 'killed', ...}
    mutation_report.tally(report.rows)["solutions/13-.../cluster_share.cu"].share

Used by scripts/maintainer/mutate.py, which writes the reports, and docs/tools/page-figures.py,
which quotes a file's share on a lesson page.
"""
import math
import os
import re

REPORT_NAME = "mutation-report.tsv"
HEADER = ["file", "line", "position", "operator", "mutant", "outcome", "detail", "reason"]
KILLED, SURVIVED, STILLBORN, PENDING = "killed", "survived", "stillborn", "pending"
OUTCOMES = (KILLED, SURVIVED, STILLBORN, PENDING)
# The goal of every file: this share of its mutants that compile and are not equivalent killed.
GOAL = 0.95


class Report:
    def __init__(self, hashes, summaries, rows):
        self.hashes, self.summaries, self.rows = hashes, summaries, rows


class Tally:
    """One file's counts: killed and counted (judged mutants that compile and are not
    equivalent), equivalent, stillborn (do not compile), pending (not judged yet)."""

    def __init__(self):
        self.killed = self.counted = self.equivalent = self.stillborn = self.pending = 0

    @property
    def share(self):
        return self.killed / self.counted if self.counted else 1.0


def report_path(root, lesson):
    return os.path.join(root, "solutions", lesson, REPORT_NAME)


def lesson_of(file):
    """The lesson of a solution file: solutions/13-hopper-tensor-cores/kernels/x.cu -> 13-hopper-tensor-cores."""
    parts = file.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "solutions" else None


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def unescape(text):
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), text)


def read(path):
    """The report at path, or None when there is none. Columns are read by the header's names,
    so a column the header lacks is empty in every row."""
    if not os.path.exists(path):
        return None
    hashes, summaries, rows, columns = {}, {}, [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# regions "):
                _, _, file, digest = line.split(" ", 3)
                hashes[file] = digest
            elif line.startswith("# summary "):
                file = line[len("# summary "):].split(": ", 1)[0]
                summaries[file] = line
            elif line.startswith("#") or not line.strip():
                continue
            elif columns is None:
                columns = line.split("\t")
            else:
                cells = [unescape(c) for c in line.split("\t")]
                row = dict(zip(columns, cells))
                rows.append({h: row.get(h, "") for h in HEADER})
    return Report(hashes, summaries, rows)


def is_equivalent(row):
    return row["outcome"] == SURVIVED and row["reason"].startswith("equivalent:")


def tally(rows):
    """{file: Tally} of these rows."""
    totals = {}
    for row in rows:
        counts = totals.setdefault(row["file"], Tally())
        if row["outcome"] == STILLBORN:
            counts.stillborn += 1
        elif row["outcome"] == PENDING:
            counts.pending += 1
        elif is_equivalent(row):
            counts.equivalent += 1
        else:
            counts.counted += 1
            counts.killed += row["outcome"] == KILLED
    return totals


def share_text(share):
    """A share as a percentage rounded down to a tenth: 35 of 37 (94.59%) is "94.5%", never the
    "95%" that would read as the goal met."""
    return f"{math.floor(share * 1000) / 10:g}%"


def summary_line(file, counts):
    """The '# summary' line of one file's counts."""
    return (f"# summary {file}: {counts.killed} of {counts.counted} non-equivalent mutants killed "
            f"({share_text(counts.share)}), {counts.equivalent} equivalent, {counts.stillborn} do not compile, "
            f"{counts.pending} pending")
