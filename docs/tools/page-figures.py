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

A name bound to "mutation-report: file=FILE" gives the counts of a solution file in its lesson's
mutation report (solutions/NN-name/mutation-report.tsv, read by scripts/lib/mutation_report.py):
killed, counted (the non-equivalent mutants that compile), equivalent, stillborn, pending, share
(killed / counted), percent (the share as the report writes it, rounded down: "55.5%") and
pending_note (", 3 more not judged yet", or nothing when every mutant is judged). A given file
below the goal of 95% must have its share stated on its lesson's page so
(scripts/maintainer/mutate.py verify: stated_mutation_shares).

In the text, {{ EXPRESSION ; FORMAT }} is replaced by the value of a Python expression over
those names (columns as attributes: mono8.median_ms / 4000 * 1000), written with FORMAT: a
Python format spec (.1f, .0f, ,.0f, .0%) or sigN (N significant digits, no exponent; sig3 is
the default). A number that no CSV holds but that a page must state (a count read from the
code, a limit from NVIDIA's documentation) is written {{not-measured TEXT ; WHY}}.

What check rejects, besides a placeholder that does not render:
  - a placeholder that names no bound row or file ({{ 772.1 ; .0f }}): a typed number is
    written by hand even between braces;
  - in prose and tables, a number followed by a unit of time, rate, clock, power or proportion
    (ms, GFLOP/s, TFLOPS, GHz, MHz, W, %, per cent, x, times ...), a number on either side of
    "vs" or "versus", and a bare number in a table column whose title names a measurement;
  - register counts and shared-memory sizes ("248 registers", "registers: ptxas reports
    about 226", "48 KiB of shared memory", "N bytes of shared memory"). The compiler decides them, so they
    come only from its report (nvcc -Xptxas -v, or cuobjdump --dump-resource-usage) saved as a
    CSV under data/ whose '# command:' line ran one of those two: such a figure must be a
    placeholder that draws on a name bound to that file. A {{not-measured}} register count or
    shared-memory size, or a placeholder into any other CSV, is rejected too. Sizes the code
    fixes (a tile of 128 x 64 bf16, the argument of setmaxnreg) are stated without those words
    or through {{not-measured}} with the code's name;
  - the outcome of a run at a given case ("faults at the 256 x 768 x 512 case", "fails at
    n = 300"): which case fails is a figure of a run that data/ does not hold;
  - in transcripts of a program's output (indented code blocks, fences with no language or
    text, console or output, and code spans that quote a check's verdict: 'expected', 'wrong',
    'correct'), a number with a decimal fraction or an exponent (an error, a sum, a volume, a
    time). Write it as '...' (the transcripts are abridged) or as a placeholder; a number
    right after 'limit' or 'tolerance' is a setting of the check and stays.

Usage:
  page-figures.py render DATA_DIR OUT_DIR PAGE...   write every PAGE, figures filled in, to OUT_DIR
                                                    (same file name); exit 1 on any error
  page-figures.py check DATA_DIR PAGE...            render in memory, and also fail on any
                                                    measured-looking number written by hand
  page-figures.py self-test DATA_DIR                planted faults that check must catch
"""
import ast
import math
import os
import re
import shlex
import sys

# The course's one reader of its CSVs (scripts/lib/bench_csv.py).
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts", "lib"))
import bench_csv  # noqa: E402  (after the path to it)
import mutation_report  # noqa: E402  (the course's one reader of the mutation reports)

BLOCK = re.compile(r"<!--\s*figures\b(.*?)-->", re.S)
# The label that binds a name to a file's counts in its mutation report.
MUTATION_REPORT = "mutation-report"
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)
# A number followed by a unit of time, rate or proportion: what a measurement looks like.
# "2 x 2" and "32x32" are shapes, not ratios, so x and × count only when no number follows.
MEASURED = re.compile(
    r"(?<![\w.\-/])(\d+(?:,\d{3})*(?:\.\d+)?)\s?"
    r"(ms|µs|us|ns|s|GFLOP/s|TFLOP/s|GFLOPS|TFLOPS|GB/s|TB/s|Mcells/s|Gcells/s|GHz|MHz|kHz|W|kW|"
    r"%|per\s?cent|percent|times|(?:×|x)(?!\s?\d))(?![\w/])")
# Two figures compared: "741 vs 771", "1.05 vs 1.00".
NUMBER = r"(?<![\w.\-/])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])"
VERSUS = re.compile(rf"({NUMBER})(?=\s*(?:×|x)?\s+(?:vs\.?|versus)(?!\w))|"
                    rf"(?<![\w])(?:vs\.?|versus)\s+({NUMBER})")
# What the compiler decides: register counts and shared-memory sizes, read across line breaks.
SIZE_UNIT = r"(?:bytes|B|KiB|KB|kB|MiB)"
SHARED = rf"(?:of\s+)?(?:static\s+|dynamic\s+)?shared[\s-]+memory"
RESOURCE = re.compile(rf"({NUMBER})\s+(?:(?:more|fewer|extra)\s+)?registers\b|"
                      rf"\bregisters\b[^.;|\u2400]{{0,40}}?\b(?:reports?|uses?|needs?|takes?|spends?)\s+"
                      rf"(?:about\s+|around\s+|nearly\s+|roughly\s+)?({NUMBER})|"
                      rf"({NUMBER})\s*{SIZE_UNIT}\s+{SHARED}\b")
# Right after a placeholder: the figure it gives is a register count or a shared-memory size.
RESOURCE_AFTER = re.compile(rf"\s*(?:(?:more|fewer|extra)\s+)?registers\b|\s*{SIZE_UNIT}\s+{SHARED}\b")
# The outcome of one run at one case: "faults at the 256 x 768 x 512 case", "fails at n = 300".
SHAPE = rf"(?:n\s*=\s*)?{NUMBER}(?:\s*[x×]\s*{NUMBER})*"
OUTCOME = re.compile(rf"\b(?:fault|faults|faulted|fail|fails|failed|crash\w*|hang|hangs|hung|"
                     rf"deadlock\w*|ends|ended|stops|stopped)\b[^.;\u2400]{{0,40}}?\bat\s+"
                     rf"(?:the\s+)?({SHAPE})")
# In a transcript, a number with a fraction or an exponent is a result of the run.
RUN_NUMBER = re.compile(r"(?<![\w.])(?<!limit )(?<!tolerance )-?"
                        r"(?:\d+\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?:\.\.\.)?(?![\w.])")
VERDICT = re.compile(r"\b(?:expected|wrong|correct)\b")
TRANSCRIPT_FENCE = re.compile(r"(?:```|~~~)\s*(?:text|console|output)?\s*$")
# A compiler report: its command ran ptxas verbosely or asked cuobjdump for resource usage.
COMPILER_REPORT = re.compile(r"-Xptxas[= ]+-v\b|--resource-usage\b|-res-usage\b|"
                             r"cuobjdump\b.*--dump-resource-usage\b")
# Table columns whose cells are measurements even when the cell carries no unit.
MEASURED_HEADER = re.compile(r"GFLOP|TFLOP|GB/s|TB/s|cells/s|\bms\b|\btime\b|ratio|speedup|"
                             r"\brate\b|\bseconds\b|µs|\bover\b", re.I)
BARE_NUMBER = re.compile(r"(?<![\w.\-/])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])")


class FigureError(Exception):
    pass


class Row:
    """One CSV row; columns read as numbers where they are numbers."""

    def __init__(self, columns, where, compiler_report=False):
        self._columns = columns
        self._where = where
        self._compiler_report = compiler_report

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._columns:
            raise FigureError(f"{self._where} has no column '{name}' "
                              f"(columns: {', '.join(self._columns)})")
        value = self._columns[name]
        if value == "":
            raise FigureError(f"{self._where}: column '{name}' is empty")
        return bench_csv.number(value, value)


class CsvFile:
    """A benchmark or transcription CSV: '# key: value' header lines, then a CSV table."""

    def __init__(self, path, label):
        if not os.path.isfile(path):
            raise FigureError(f"no CSV {label} under the data folder")
        self.label = label
        table = bench_csv.read(path)
        self.header, self.rows = table.comments, table.rows
        self._compiler_report = bool(COMPILER_REPORT.search(self.header.get("command", "")))

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
        return Row(matches[0], f"{self.label} row '{wanted}'", self._compiler_report)


class MutationShare:
    """A solution file's counts in its lesson's mutation report (mutation_report.Tally)."""

    def __init__(self, selector, source_dir=SOURCE_DIR):
        if set(selector) != {"file"}:
            raise FigureError(f"{MUTATION_REPORT} takes one selector, file=solutions/NN-name/FILE")
        file = selector["file"]
        lesson = mutation_report.lesson_of(file)
        report = mutation_report.read(mutation_report.report_path(source_dir, lesson)) if lesson else None
        if report is None or file not in report.hashes:
            raise FigureError(f"no mutation report holds {file} (solutions/NN-name/{mutation_report.REPORT_NAME})")
        counts = mutation_report.tally(report.rows).get(file, mutation_report.Tally())
        self.killed, self.counted, self.equivalent = counts.killed, counts.counted, counts.equivalent
        self.stillborn, self.pending, self.share = counts.stillborn, counts.pending, counts.share
        self.percent = mutation_report.share_text(counts.share)
        self.pending_note = f", {counts.pending} more not judged yet" if counts.pending else ""
        self._compiler_report = False


def stated_mutation_shares(text):
    """The files whose mutation counts the page quotes: bound to "mutation-report: file=FILE" in
    a figures block and named by a placeholder."""
    bound = {}
    for block in BLOCK.finditer(text):
        for line in block.group(1).splitlines():
            name, sep, target = line.partition("=")
            label, _, selector = target.partition(":")
            if sep and label.strip() == MUTATION_REPORT:
                try:
                    bound[name.strip()] = parse_selector(selector).get("file")
                except (FigureError, ValueError):
                    continue
    stated = set()
    for match in PLACEHOLDER.finditer(text):
        try:
            tree = ast.parse(match.group(1).partition(";")[0].strip(), mode="eval")
        except SyntaxError:
            continue
        stated |= {bound[node.id] for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in bound}
    return stated


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
            if label == MUTATION_REPORT:
                try:
                    names[name] = MutationShare(parse_selector(selector))
                except FigureError as e:
                    raise FigureError(f"line {where}: {e}")
                continue
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
        resource = RESOURCE_AFTER.match(text, match.end())
        if body.startswith("not-measured"):
            shown, sep, why = body[len("not-measured"):].partition(";")
            if not sep or not why.strip():
                errors.append(f"line {where}: not-measured needs a reason after ';'")
            if resource:
                errors.append(f"line {where}: {{{{{body}}}}}{resource.group(0)}: a register count "
                              f"or shared-memory size comes only from a committed compiler report")
            return shown.strip()
        expression, _, spec = body.partition(";")
        try:
            used = {node.id for node in ast.walk(ast.parse(expression.strip(), mode="eval"))
                    if isinstance(node, ast.Name)} & names.keys()
        except SyntaxError:
            used = None  # eval below names the error
        if used is not None and not used:
            errors.append(f"line {where}: {{{{{body}}}}} names no row or file of the figures block: "
                          f"a number typed into a placeholder is still written by hand")
            return match.group(0)
        if used and resource and not any(names[n]._compiler_report for n in used):
            errors.append(f"line {where}: {{{{{body}}}}}{resource.group(0)}: a register count or "
                          f"shared-memory size comes only from a CSV whose '# command:' is the "
                          f"compiler's report (nvcc -Xptxas -v, cuobjdump --dump-resource-usage)")
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


def transcript_lines(text):
    """(line number, text) of what quotes a program's output: the lines of indented code blocks
    and of fences with no language (or text, console, output), and the code spans that quote a
    check's verdict; placeholders blanked out."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")
    text = BLOCK.sub(keep_lines, text)
    text = PLACEHOLDER.sub(lambda m: "\u2400" + keep_lines(m), text)
    text = re.sub(r"<!--.*?-->", keep_lines, text, flags=re.S)
    fence, source, indented, after_blank = None, False, False, True
    for where, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(("```", "~~~")):
                fence = None
            elif fence:
                yield where, line
            continue
        if stripped.startswith(("```", "~~~")):
            fence = bool(TRANSCRIPT_FENCE.fullmatch(stripped))
            continue
        if stripped.startswith(("\\code", "@code", "\\endcode", "@endcode")):
            source = stripped.startswith(("\\code", "@code"))
            continue
        if source:
            continue
        if not stripped:
            after_blank = True
            continue
        indented = len(line.expandtabs(4)) - len(line.lstrip()) >= 4 and (after_blank or indented)
        after_blank = False
        if indented:
            yield where, line
            continue
        for span in re.findall(r"`[^`]*`", line):
            if VERDICT.search(span):
                yield where, span


def hand_written_figures(text):
    """Measured-looking numbers in prose or tables that do not come from a placeholder."""
    found = []
    header = None
    prose = list(prose_lines(text))
    joined = "\n".join(line for _, line in prose)
    for m in RESOURCE.finditer(joined):
        found.append(f"line {line_of(joined, m.start())}: '{' '.join(m.group(0).split())}' "
                     f"is a register count or shared-memory size written by hand (only a "
                     f"placeholder into a committed compiler report may state it)")
    for m in OUTCOME.finditer(joined):
        found.append(f"line {line_of(joined, m.start())}: '{' '.join(m.group(0).split())}' "
                     f"names the case where a run failed, a figure of a run that data/ does not hold")
    for where, line in transcript_lines(text):
        for m in RUN_NUMBER.finditer(line):
            found.append(f"line {where}: '{m.group(0)}' in a quoted output is a figure of a run "
                         f"(write it as '...')")
    for where, line in prose:
        for m in MEASURED.finditer(line):
            found.append(f"line {where}: '{m.group(0).strip()}' is written by hand")
        for m in VERSUS.finditer(line):
            found.append(f"line {where}: '{m.group(m.lastindex)}' compared with 'vs' is written by hand")
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
              "page's <!-- figures --> block (see docs/tools/page-figures.py).")
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

SELF_TEST_REPORT = """# date: 2026-01-01 00:00 UTC
# command: nvcc -arch=sm_90 -Xptxas -v -c kernels.cu
kernel,registers,shared_bytes
tiled,40,8192
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
        ("The tiled kernel reaches {{ 772.1 ; .0f }} GFLOP/s.\n", False,
         "a placeholder that holds a typed number"),
        ("<!-- figures\nt = t.csv: kernel=tiled block=16x16\n-->\n{{ round(t.rate / 1000) }} and "
         "{{ min(t.rate, 2000) ; .0f }}\n", True, "a placeholder over a row, with functions"),
        ("The SMs ran at 1.98 GHz, the memory at 2619 MHz.\n", False, "clocks by hand"),
        ("The board drew 690 W.\n", False, "a power by hand"),
        ("cuBLAS reaches 55.1 TFLOPS.\n", False, "TFLOPS by hand"),
        ("The step reaches 97 per cent of the copy.\n", False, "per cent by hand"),
        ("The tiled kernels give 741 vs 771 GFLOP.\n", False, "a comparison with vs"),
        ("Kernel 09 uses 248 registers, one block per SM.\n", False, "a register count"),
        ("The price is registers: `-Xptxas -v` reports about 226 per thread.\n", False,
         "a register count reported by the compiler"),
        ("Three stages (207 KB of\nshared memory per block); 48 bytes of static shared memory.\n",
         False, "shared-memory sizes, one across a line break"),
        ("Each thread uses {{not-measured 248 ; the compiler's report}} registers.\n", False,
         "a register count marked not measured"),
        ("<!-- figures\nt = t.csv: kernel=tiled block=8x8\n-->\n{{ t.rate / 20 ; .0f }} registers\n",
         False, "a register count from a benchmark CSV"),
        ("<!-- figures\nr = r.csv: kernel=tiled\n-->\n{{ r.registers ; .0f }} registers and "
         "{{ r.shared_bytes / 1024 ; .0f }} KiB of shared memory per block\n", True,
         "register and shared-memory figures from a compiler report"),
        ("| memory | scope | limit |\n|---|---|---|\n| registers | one thread | 255 per thread |\n",
         True, "a documented register limit in a table"),
        ("Expected output (abridged):\n\n    C: all 16 elements correct (max abs error 2.2e-15, "
         "max rel error 3.1e-16)\n", False, "errors in a quoted output"),
        ("The exercise prints `C[0][0] = 0 (expected 1.27...); 16 of 16 wrong`.\n", False,
         "an expected value in a quoted verdict"),
        ("Expected output (abridged):\n\n    volume ... -> ... (relative drift ..., limit 1e-9) ok\n"
         "    PASSED: all 44 version runs match.\n\nSet `kTolerance = 1e-9` or `0.5`.\n", True,
         "an abridged output, a check's limit and code"),
        ("The untouched exercise faults at the 256 x 768 x 512 case.\n", False,
         "the case where a run failed"),
        ("Shapes 256 x 768 x 512 and 1024³ are checked; the loop ends at the last row.\n", True,
         "shapes and an outcome with no case"),
        (f"<!-- figures\nm = mutation-report: file={SELF_TEST_GIVEN}\n-->\n{{{{ m.killed ; d }}}} of "
         "{{ m.counted ; d }} ({{ m.percent }}) killed\n", True, "a file's share in its mutation report"),
        ("<!-- figures\nm = mutation-report: file=solutions/99-none/x.cu\n-->\n{{ m.killed ; d }}\n", False,
         "a file that no mutation report holds"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "t.csv"), "w") as f:
            f.write(SELF_TEST_CSV)
        with open(os.path.join(tmp, "r.csv"), "w") as f:
            f.write(SELF_TEST_REPORT)
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
        stated = stated_mutation_shares(f"<!-- figures\nm = mutation-report: file={SELF_TEST_GIVEN}\n"
                                        f"n = mutation-report: file=solutions/x/unused.cu\n-->\n{{{{ m.percent }}}}\n")
        if stated != {SELF_TEST_GIVEN}:
            print(f"WRONG: the files whose mutation share a page states: {stated}")
            failures += 1
        rendered, _ = render(SELF_TEST_PAGE, tmp, {})
        if rendered.strip() != "Test GPU: 2.50 ms at 8x8, 2× faster at 16x16, 50%.":
            print(f"WRONG: rendering gave '{rendered.strip()}'")
            failures += 1
    print("FAIL" if failures else "OK: the figures check catches every planted fault")
    return 1 if failures else 0


# A given file with a mutation report (solutions/13-hopper-tensor-cores/mutation-report.tsv).
SELF_TEST_GIVEN = "solutions/13-hopper-tensor-cores/kernels/persistent_ring.cuh"

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
    if argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
