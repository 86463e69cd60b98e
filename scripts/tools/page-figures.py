#!/usr/bin/env python3
"""page-figures.py: the figures a page quotes come from the CSVs under data/, at docs build time.

A page names the rows it quotes in a block at its top (an HTML comment, so the raw Markdown
still reads well):

    <!-- figures
    run   = h100/06-sciddicat.csv
    mono8 = h100/06-sciddicat.csv: kernel=monolithic block=8x8 transfers=0
    -->

A name bound to a file alone gives its header (run.date, run.device, run.command); a name with
a selector gives the one row whose columns equal every key=value (quote values with spaces:
block="32x8 threads, 1 output each"). A selector that matches no row or several is an error.

In the text, {{ EXPRESSION ; FORMAT }} is replaced by the value of a Python expression over
those names (columns as attributes: mono8.median_ms / 4000 * 1000), written with FORMAT: a
Python format spec (.1f, .0f, ,.0f, .0%) or sigN (N significant digits, no exponent; sig3 is
the default). A number that no CSV holds but that a page must state (a count read from the
code, a limit from NVIDIA's documentation) is written {{not-measured TEXT ; WHY}}.

Usage:
  page-figures.py render DATA_DIR OUT_DIR PAGE...   write every PAGE, figures filled in, to OUT_DIR
                                                    (same file name); exit 1 on any error
  page-figures.py check DATA_DIR PAGE...            render in memory, and also fail on any
                                                    measured-looking number written by hand
  page-figures.py self-test DATA_DIR                planted faults that check must catch
"""
import csv
import math
import os
import re
import shlex
import sys

BLOCK = re.compile(r"<!--\s*figures\b(.*?)-->", re.S)
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)
# A number followed by a unit of time, rate or proportion: what a measurement looks like.
# "2 x 2" and "32x32" are shapes, not ratios, so x and × count only when no number follows.
MEASURED = re.compile(
    r"(?<![\w.\-/])(\d+(?:,\d{3})*(?:\.\d+)?)\s?"
    r"(ms|µs|us|ns|s|GFLOP/s|TFLOP/s|GB/s|TB/s|Mcells/s|Gcells/s|%|times|"
    r"(?:×|x)(?!\s?\d))(?![\w/])")
# Table columns whose cells are measurements even when the cell carries no unit.
MEASURED_HEADER = re.compile(r"GFLOP|TFLOP|GB/s|TB/s|cells/s|\bms\b|\btime\b|ratio|speedup|"
                             r"\brate\b|\bseconds\b|µs|\bover\b", re.I)
BARE_NUMBER = re.compile(r"(?<![\w.\-/])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])")


class FigureError(Exception):
    pass


def number(text):
    try:
        return float(text)
    except ValueError:
        return text


class Row:
    """One CSV row; columns read as numbers where they are numbers."""

    def __init__(self, columns, where):
        self._columns = columns
        self._where = where

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._columns:
            raise FigureError(f"{self._where} has no column '{name}' "
                              f"(columns: {', '.join(self._columns)})")
        value = self._columns[name]
        if value == "":
            raise FigureError(f"{self._where}: column '{name}' is empty")
        return number(value)


class CsvFile:
    """A benchmark or transcription CSV: '# key: value' header lines, then a CSV table."""

    def __init__(self, path, label):
        if not os.path.isfile(path):
            raise FigureError(f"no CSV {label} under the data folder")
        self.label = label
        self.header = {}
        lines = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    key, sep, value = line[1:].partition(":")
                    if sep:
                        self.header.setdefault(key.strip(), value.strip())
                elif line.strip():
                    lines.append(line)
        self.rows = list(csv.DictReader(lines))

    def __getattr__(self, name):
        if name in ("date", "device", "command"):
            if name not in self.header:
                raise FigureError(f"{self.label} has no '# {name}:' header line")
            return self.header[name]
        raise AttributeError(name)

    def select(self, selector):
        matches = [row for row in self.rows
                   if all(row.get(key) == value for key, value in selector.items())]
        wanted = " ".join(f"{k}={v}" for k, v in selector.items())
        if len(matches) != 1:
            shown = [" ".join(f"{k}={r.get(k)}" for k in selector) for r in self.rows[:5]]
            raise FigureError(f"{self.label}: {len(matches)} rows match '{wanted}' "
                              f"(exactly one must; rows look like: {'; '.join(shown)})")
        return Row(matches[0], f"{self.label} row '{wanted}'")


def parse_selector(text):
    selector = {}
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if not sep:
            raise FigureError(f"'{word}' is not key=value")
        selector[key] = value
    return selector


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def read_bindings(text, data_dir, files):
    names = {}
    for block in BLOCK.finditer(text):
        for i, line in enumerate(block.group(1).splitlines()):
            line = line.strip()
            if not line:
                continue
            where = line_of(text, block.start()) + i
            name, sep, target = line.partition("=")
            name, target = name.strip(), target.strip()
            if not sep or not name.isidentifier():
                raise FigureError(f"line {where}: '{line}' is not 'name = file.csv[: key=value ...]'")
            label, _, selector = target.partition(":")
            label = label.strip()
            if label not in files:
                files[label] = CsvFile(os.path.join(data_dir, label), label)
            try:
                names[name] = files[label].select(parse_selector(selector)) if selector.strip() \
                    else files[label]
            except FigureError as e:
                raise FigureError(f"line {where}: {e}")
    return names


def format_value(value, spec):
    spec = spec.strip() or "sig3"
    if isinstance(value, str):
        return value
    m = re.fullmatch(r"sig(\d)", spec)
    if m:
        digits = int(m.group(1))
        if value == 0:
            return "0"
        decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(value)))))
        return f"{value:.{decimals}f}"
    return format(value, spec)


def render(text, data_dir, files):
    """The page with figures filled in, and the list of errors ('line N: why')."""
    errors = []
    try:
        names = read_bindings(text, data_dir, files)
    except FigureError as e:
        return text, [str(e)]
    safe = {"min": min, "max": max, "abs": abs, "round": round}

    def fill(match):
        body = match.group(1).strip()
        where = line_of(text, match.start())
        if body.startswith("not-measured"):
            shown, sep, why = body[len("not-measured"):].partition(";")
            if not sep or not why.strip():
                errors.append(f"line {where}: not-measured needs a reason after ';'")
            return shown.strip()
        expression, _, spec = body.partition(";")
        try:
            value = eval(expression, {"__builtins__": {}}, dict(safe, **names))  # noqa: S307
            return format_value(value, spec)
        except FigureError as e:
            errors.append(f"line {where}: {{{{{body}}}}}: {e}")
        except Exception as e:  # a typo in a page must name the page and the line
            errors.append(f"line {where}: {{{{{body}}}}}: {type(e).__name__}: {e}")
        return match.group(0)

    out = PLACEHOLDER.sub(fill, text)
    out = BLOCK.sub("", out)
    return out, errors


def prose_lines(text):
    """(line number, text) of the lines a reader sees as prose or tables: code blocks, code
    spans (also across lines), comments, figure placeholders and link targets blanked out."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")
    text = BLOCK.sub(keep_lines, text)
    text = PLACEHOLDER.sub(lambda m: "\u2400" + keep_lines(m), text)
    text = re.sub(r"<!--.*?-->", keep_lines, text, flags=re.S)
    lines, in_code = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_code = not in_code
            line = ""
        elif stripped.startswith(("\\code", "@code")):
            in_code, line = True, ""
        elif stripped.startswith(("\\endcode", "@endcode")):
            in_code, line = False, ""
        elif in_code or stripped.startswith(("\\image", "\\include", "\\snippet", "@image")):
            line = ""
        lines.append(line)
    text = re.sub(r"`[^`]*`", keep_lines, "\n".join(lines))
    for number_, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"\]\([^)]*\)", "]", line)
        line = re.sub(r"https?://\S+", "", line)
        yield number_, line


def hand_written_figures(text):
    """Measured-looking numbers in prose or tables that do not come from a placeholder."""
    found = []
    header = None
    for where, line in prose_lines(text):
        for m in MEASURED.finditer(line):
            found.append(f"line {where}: '{m.group(0).strip()}' is written by hand")
        if line.lstrip().startswith("|"):
            cells = line.strip().strip("|").split("|")
            if header is None:
                header = cells
                continue
            if all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in cells):
                continue
            for title, cell in zip(header, cells):
                if not MEASURED_HEADER.search(title):
                    continue
                for m in BARE_NUMBER.finditer(cell):
                    if not MEASURED.search(cell[m.start():]):
                        found.append(f"line {where}: '{m.group(0)}' in column "
                                     f"'{title.strip()}' is written by hand")
        else:
            header = None
    return found


def check_pages(data_dir, pages):
    files, failures = {}, 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        _, errors = render(text, data_dir, files)
        errors += hand_written_figures(text)
        for error in errors:
            print(f"{page}: {error}")
        failures += len(errors)
    if failures:
        print(f"FAIL: {failures} figure(s) on the pages do not come from a CSV under {data_dir}")
        print("Quote a measured figure as {{ name.column ; format }} with 'name' bound in the "
              "page's <!-- figures --> block (see scripts/tools/page-figures.py).")
        return 1
    print(f"OK: every figure on {len(pages)} page(s) comes from a CSV under {data_dir}")
    return 0


def render_pages(data_dir, out_dir, pages):
    os.makedirs(out_dir, exist_ok=True)
    files, status = {}, 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text, errors = render(f.read(), data_dir, files)
        for error in errors:
            print(f"{page}: {error}", file=sys.stderr)
            status = 1
        target = os.path.join(out_dir, os.path.basename(page))
        old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
        if old != text:  # leave unchanged pages alone so Doxygen's inputs keep their dates
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
    return status


SELF_TEST_CSV = """# device: Test GPU
# date: 2026-01-01 00:00 UTC
# command: bench --out test.csv
kernel,block,median_ms,rate
tiled,8x8,2.5,800
tiled,16x16,1.25,1600
"""


def self_test(data_dir):
    import tempfile
    cases = [
        # (page text, should pass, what it shows)
        ("<!-- figures\nt = t.csv: kernel=tiled block=16x16\n-->\n{{ t.rate ; .0f }} GFLOP/s\n",
         True, "a placeholder"),
        ("The tiled kernel reaches 1600 GFLOP/s.\n", False, "a rate typed by hand"),
        ("| tile | GFLOP/s |\n|---|---|\n| 16 x 16 | 1600 |\n", False, "a table cell by hand"),
        ("<!-- figures\nt = t.csv: kernel=tiled\n-->\n{{ t.rate }}\n", False, "an ambiguous row"),
        ("<!-- figures\nt = t.csv: kernel=naive\n-->\n{{ t.rate }}\n", False, "a missing row"),
        ("<!-- figures\nt = gone.csv: kernel=tiled\n-->\n{{ t.rate }}\n", False, "a missing CSV"),
        ("<!-- figures\nt = t.csv: kernel=tiled block=8x8\n-->\n{{ t.speed }}\n", False,
         "a missing column"),
        ("{{not-measured 8× }} more work\n", False, "not-measured without a reason"),
        ("{{not-measured 8× ; two k-steps per instruction}} more work, 2 x 2 blocks, `5 ms`\n",
         True, "a stated count, a shape and code"),
        ("Took 12.5 ms, 3.2× faster, 42 % of the peak.\n", False, "three figures by hand"),
        ("A message `error: no answer within\n10 s` quoted across two lines.\n", True,
         "a code span over two lines"),
        ("The formula of lesson 02, times the tile; 1,000 times more.\n", False,
         "a list comma is no number, a thousands separator is"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "t.csv"), "w") as f:
            f.write(SELF_TEST_CSV)
        for i, (text, should_pass, what) in enumerate(cases):
            page = os.path.join(tmp, f"page{i}.md")
            with open(page, "w") as f:
                f.write(text)
            _, errors = render(text, tmp, {})
            errors += hand_written_figures(text)
            passed = not errors
            verdict = "ok" if passed == should_pass else "WRONG"
            failures += passed != should_pass
            print(f"{verdict}: {what}: {'passes' if passed else 'fails'} ({'; '.join(errors)})")
        rendered, _ = render(SELF_TEST_PAGE, tmp, {})
        if rendered.strip() != "Test GPU: 2.50 ms at 8x8, 2× faster at 16x16, 50%.":
            print(f"WRONG: rendering gave '{rendered.strip()}'")
            failures += 1
    print("FAIL" if failures else "OK: the figures check catches every planted fault")
    return 1 if failures else 0


SELF_TEST_PAGE = """<!-- figures
run = t.csv
a = t.csv: kernel=tiled block=8x8
b = t.csv: kernel=tiled "block=16x16"
-->
{{ run.device }}: {{ a.median_ms ; .2f }} ms at {{ a.block }}, {{ a.median_ms / b.median_ms ; .0f }}× \
faster at {{ b.block }}, {{ b.median_ms / a.median_ms ; .0% }}."""


def main(argv):
    if len(argv) >= 3 and argv[1] == "render":
        return render_pages(argv[2], argv[3], argv[4:])
    if len(argv) >= 3 and argv[1] == "check":
        return check_pages(argv[2], argv[3:])
    if len(argv) == 3 and argv[1] == "self-test":
        return self_test(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
