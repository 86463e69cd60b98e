"""Reading the CSV that `ncu --csv` prints (Nsight Compute), for scripts/profile and
scripts/maintainer/counters-table.py: one row per kernel launch and metric."""
import csv
import io
import re


def kernel_name(full):
    """'void (anonymous namespace)::transpose_kernel<float, 32>(const T1 *, ...)' ->
    'transpose_kernel<float, 32>': no return type, no parameters, no anonymous namespace
    (ncu writes it '<unnamed>' or '(anonymous namespace)'; the second must go before the
    parameters are cut at the first parenthesis)."""
    name = full.replace("(anonymous namespace)::", "").replace("<unnamed>::", "")
    name = re.sub(r"^void ", "", name)
    return re.sub(r"\(.*$", "", name)


def metric_rows(text):
    """The metric rows of ncu's CSV output, as dicts keyed by ncu's column names, with the
    number in 'value' (None when the cell is not a number). Other lines (==PROF== messages,
    the program's own output) are ignored."""
    lines = [line for line in text.splitlines() if line.startswith('"')]
    rows = []
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        try:
            row["value"] = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            row["value"] = None
        rows.append(row)
    return rows
