#!/usr/bin/env python3
"""page-figures.py: the figures a page quotes come from the CSVs under data/, at docs build time.

A page names the rows it quotes in a block at its top (an HTML comment, so the raw Markdown
still reads well):

    <!-- figures
    run   = 06-sciddicat.csv
    mono8 = 06-sciddicat.csv: kernel=monolithic block=8x8 transfers=0
    old8  = h100/06-sciddicat.csv: kernel=monolithic block=8x8 transfers=0
    peak  = specs.csv: name=fp64-peak
    -->

Which file a binding reads (data/machines.csv names the machines): a file name alone
(06-sciddicat.csv, or x2/08-sciddicat-multigpu.csv for a run of two ranks) is the reference
machine's run, data/h200/06-sciddicat.csv; specs.csv is the reference machine's published
figures (data/specs/h200.csv); a path with its folder (h100/06-sciddicat.csv,
specs/h100.csv, source002/sciddicat-report.csv) names that file, so that a page can quote the
second machine beside the reference. Where the reference machine has no such run yet, a file
name alone reads the second machine's (h100/), and the build says so in a note.

A passage that quotes figures the committed runs may not hold yet (the reference machine's
clock and power columns, empty in runs that predate them) is written

    <!-- if-measured r7.sm_clock_mhz rcub.power_w -->
    ... the passage, with its placeholders ...
    <!-- else -->
    ... what the page says until then (optional) ...
    <!-- end if-measured -->

and rendered only when every NAME.COLUMN it lists is bound to a row whose column is filled; else
the text after "else" is (a note on stderr says which passage was left out, and why), and the
passage's placeholders are not evaluated. Every name it lists must be bound to a row.

A name bound to a file alone gives its header (run.date, run.device, run.command) and where
it lies (run.file: "h200/06-sciddicat.csv"; run.machine: "H200", the label of the machine whose
folder holds it, "" for another file); a name with a selector gives the one row whose columns
equal every key=value (quote values with spaces: block="32x8 threads, 1 output each"). A
selector that matches no row or several is an error.

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
import machines  # noqa: E402

BLOCK = re.compile(r"<!--\s*figures\b(.*?)-->", re.S)
# A passage shown only when the figures it lists are measured, with what stands in until then.
IF_MEASURED = re.compile(r"<!--\s*if-measured\b(.*?)-->(.*?)(?:<!--\s*else\s*-->(.*?))?"
                         r"<!--\s*end\s+if-measured\s*-->", re.S)
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
    """A benchmark or transcription CSV: '# key: value' header lines, then a CSV table. LABEL is
    the binding's name of it, FILE its path under the data folder, MACHINE the label of the
    machine whose folder holds it ("" for another file)."""

    def __init__(self, path, label, file=None, machine=""):
        if not os.path.isfile(path):
            raise FigureError(f"no CSV {label} under the data folder")
        self.label, self.file, self.machine = label, file or label, machine
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


# A binding's file with no machine folder: a run of the reference machine (x<n>/: of n ranks).
MACHINE_RUN = re.compile(r"(?:x(\d+)/)?([^/]+\.csv)")


def machine_file(data_dir, label):
    """(path under DATA_DIR, machine label) of the file a binding's LABEL names: specs.csv and a
    file name alone (or x<n>/NAME) are the reference machine's, or the second machine's run where
    the reference machine has none yet (said in a note); any other label is that path. Without
    DATA_DIR/machines.csv every label is its path."""
    if not os.path.isfile(os.path.join(data_dir, "machines.csv")):
        return label, ""
    found = machines.read(data_dir)
    if label == "specs.csv":
        return found[0].specs_file, found[0].label
    match = MACHINE_RUN.fullmatch(label)
    if not match:
        owner = machines.of_folder(found, label.split("/")[0]) if "/" in label else None
        return label, owner[0].label if owner else ""
    ranks = f"x{match.group(1)}" if match.group(1) else ""
    candidates = [(f"{m.folder}{ranks}/{match.group(2)}", m.label) for m in found]
    for file, machine in candidates:
        if os.path.isfile(os.path.join(data_dir, file)):
            if file != candidates[0][0]:
                print(f"note: {label}: no {candidates[0][0]} yet: the figures come from {file}", file=sys.stderr)
            return file, machine
    return candidates[0]


def open_binding(data_dir, label):
    """The CsvFile a binding's LABEL reads (machine_file says which)."""
    file, machine = machine_file(data_dir, label)
    return CsvFile(os.path.join(data_dir, file), label if file == label else f"{label} ({file})", file, machine)



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
                files[label] = open_binding(data_dir, label)
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


def unmeasured(block, names):
    """The NAME.COLUMN requirements of an if-measured BLOCK (its match) that are not filled;
    raises FigureError for one that names no bound row."""
    missing = []
    for requirement in block.group(1).split():
        name, _, column = requirement.partition(".")
        if not isinstance(names.get(name), Row) or not column:
            raise FigureError(f"if-measured {requirement}: not NAME.COLUMN with NAME bound to a row")
        if not names[name]._columns.get(column):
            missing.append(requirement)
    return missing


def choose_passages(text, names, errors):
    """For the if-measured passages of TEXT: the spans left out (a passage or its stand-in) and,
    for each, whether the passage itself is shown."""
    left_out, shown = [], []
    for block in IF_MEASURED.finditer(text):
        where = line_of(text, block.start())
        try:
            missing = unmeasured(block, names)
            if missing:
                print(f"note: line {where}: a passage left out until {', '.join(missing)} "
                      "are measured", file=sys.stderr)
        except FigureError as e:
            errors.append(f"line {where}: {e}")
            missing = [str(e)]
        if missing:
            left_out.append(block.span(2))
        elif block.group(3) is not None:
            left_out.append(block.span(3))
        shown.append(not missing)
    return left_out, shown


def render(text, data_dir, files):
    """The page with figures filled in, and the list of errors ('line N: why')."""
    errors = []
    try:
        names = read_bindings(text, data_dir, files)
    except FigureError as e:
        return text, [str(e)]
    safe = {"min": min, "max": max, "abs": abs, "round": round}
    left_out, shown = choose_passages(text, names, errors)

    def fill(match):
        body = match.group(1).strip()
        where = line_of(text, match.start())
        if any(start <= match.start() < end for start, end in left_out):
            return match.group(0)  # a passage not shown: its figures are not evaluated
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
    passages = iter(shown)
    out = IF_MEASURED.sub(lambda block: block.group(2) if next(passages) else block.group(3) or "", out)
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
        rendered, _ = render(SELF_TEST_PAGE, tmp, {})
        if rendered.strip() != "Test GPU: 2.50 ms at 8x8, 2× faster at 16x16, 50%.":
            print(f"WRONG: rendering gave '{rendered.strip()}'")
            failures += 1
    failures += self_test_machines()
    print("FAIL" if failures else "OK: the figures check catches every planted fault")
    return 1 if failures else 0


MACHINES_CSV = """name,role,folder,specs,label,device
new,reference,new,specs/new.csv,New,New GPU
old,second,old,specs/old.csv,Old,Old GPU
"""
MACHINE_RUN_CSV = """# device: {device}
kernel,rate,sm_clock_mhz
tiled,{rate},{clock}
"""
MACHINE_PAGE = """<!-- figures
run = m.csv
t = m.csv: kernel=tiled
o = old/m.csv: kernel=tiled
peak = specs.csv: name=fp64-peak
-->
{{ run.machine }} {{ run.file }}: {{ t.rate ; .0f }}, old {{ o.rate ; .0f }}, peak {{ peak.value ; .0f }}.\
<!-- if-measured t.sm_clock_mhz --> At {{ t.sm_clock_mhz ; .0f }} MHz.<!-- else --> Clock not yet.\
<!-- end if-measured -->"""


def self_test_machines():
    """Which file a binding reads (data/machines.csv), and the if-measured passages: each case a
    data folder and the page it must render to; 0 when every case renders right."""
    import tempfile
    cases = [
        # (reference machine's run: clock or None, or no run; the page rendered, what it shows)
        ("1900", "New new/m.csv: 2000, old 1000, peak 34. At 1900 MHz.",
         "the reference machine's run by default"),
        ("", "New new/m.csv: 2000, old 1000, peak 34. Clock not yet.",
         "a passage left out for an empty clock"),
        (None, "Old old/m.csv: 1000, old 1000, peak 34. At 1500 MHz.",
         "the second machine's run, none of the other"),
    ]
    failures = 0
    for clock, expected, what in cases:
        with tempfile.TemporaryDirectory() as data:
            for folder in ("new", "old", "specs"):
                os.makedirs(os.path.join(data, folder))
            with open(os.path.join(data, "machines.csv"), "w") as f:
                f.write(MACHINES_CSV)
            for name, peak in (("new", 34), ("old", 30)):
                with open(os.path.join(data, "specs", name + ".csv"), "w") as f:
                    f.write(f"name,value\nfp64-peak,{peak}\nsms,1\n")
            with open(os.path.join(data, "old", "m.csv"), "w") as f:
                f.write(MACHINE_RUN_CSV.format(device="Old GPU", rate=1000, clock=1500))
            if clock is not None:
                with open(os.path.join(data, "new", "m.csv"), "w") as f:
                    f.write(MACHINE_RUN_CSV.format(device="New GPU", rate=2000, clock=clock))
            rendered, errors = render(MACHINE_PAGE, data, {})
            right = not errors and rendered.strip() == expected
            failures += not right
            print(f"{'ok' if right else 'WRONG'}: {what}: '{rendered.strip()}' {'; '.join(errors)}")
            if clock == "1900":
                _, errors = render("<!-- figures\nrun = m.csv\n-->\n<!-- if-measured run.rate -->x"
                                   "<!-- end if-measured -->", data, {})
                right = any("not NAME.COLUMN with NAME bound to a row" in e for e in errors)
                failures += not right
                print(f"{'ok' if right else 'WRONG'}: a passage that lists a file, not a row, fails: {errors}")
    return failures


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
