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

A page quotes another lesson's runs by that lesson's name: NN-NAME in place of its number
(NN-sciddicat.csv, h100/NN-sciddicat.csv, NN-tiled-matmul-sweep.csv) names the file of the
lesson whose folder is lessons/NN-NAME (the longest such name, where two would fit), so that
renumbering the lesson changes no page that quotes it.

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
A name bound to `code PATH: NAME` is the number that the file PATH of the repository gives the
constant NAME (`constexpr int NAME = 4;`, `NAME{1.6}`, `#define NAME 64`, `NAME = 2 * kOther`:
a literal, or an arithmetic expression of literals and other constants of the same file): the
sizes and settings of the code, read from the code, never typed.

A name bound to "mutation-report: file=FILE" gives the counts of a solution file in its lesson's
mutation report (solutions/NN-name/mutation-report.tsv, read by scripts/lib/mutation_report.py):
killed, counted (the non-equivalent mutants that compile), equivalent, stillborn, pending, share
(killed / counted), percent (the share as the report writes it, rounded down: "55.5%") and
pending_note (", 3 more not judged yet", or nothing when every mutant is judged). A given file
below the goal of 95% must have its share stated on its lesson's page so
(scripts/maintainer/mutate.py verify: stated_mutation_shares).

In the text, {{ EXPRESSION ; FORMAT }} is replaced by the value of a Python expression over
those names (columns as attributes: mono8.median_ms / steps * 1000), written with FORMAT: a
Python format spec (.1f, .0f, ,.0f, .0%), sigN (N significant digits, no exponent; sig3 is the
default), s (text as it is) or times (a ratio in words: "half", "a third", "twice", "three
times"; the nearest simple fraction or multiple, or a percentage or "1.7 times" where none is
close). Besides min, max, abs, round, ceil, floor, log2, all, any, sum and len, an expression
may call rows(file, key=value, ...) (every row that matches, in the file's order),
row(file, key=value, ...) (exactly one) and busy_ms(rows) (the time covered by the rows'
[start_ms, end_ms] intervals, each moment counted once: an engine's busy time in a timeline).

Another lesson is cited by its name, without its number: {{lesson NAME}} (or {{Lesson NAME}} to
begin a sentence) is a cross-reference to the lesson whose folder is lessons/NN-NAME, the one
its manifest lives in, written \\ref lessonNN "lesson NN" (the anchor of its page). A section of
that page is cited as {{lesson NAME#SECTION}}: its anchor is {#lNN_SECTION} (each page prefixes
its anchors with its lesson's number), so the citation names SECTION alone and is written
\\ref lNN_SECTION "lesson NN"; the page docs/lessons/NN-NAME.md must hold that anchor. The
number comes from the folder, so that renumbering the lesson changes no page that cites it.
Where a command to type names a lesson's program or target, {{folder NAME}} is that lesson's
folder name, number included, from the same folder: `scripts/profile {{folder toward-cublas}}-solution`
is rendered `scripts/profile 07-toward-cublas-solution`.

The course's git address is {{course url}}, read from course.json at the top of the course
(scripts/lib/course_setting.py), so that a page never types it: `git clone {{course url}}`.

A number that is neither measured nor the code's (a limit from NVIDIA's documentation) is
written {{not-measured TEXT ; WHY}}, where WHY names the published document. TEXT may not look
like a measurement, and a constant of the code is bound in the figures block instead.

What check rejects, besides a placeholder that does not render:
  - a placeholder whose value does not come from the data: one that names no bound row, file
    or constant ({{ 772.1 ; .0f }}); one whose value stays the same when every number and text
    of the data it draws on changes ({{ t.rate * 0 + 1000 }}); a number typed into the
    expression, other than 0 and 1, an exponent, the digits of round(), a threshold inside a
    comparison, and a power of ten or of two that multiplies or divides (a unit: / 1e6,
    * 1024); a number inside a string of the expression (a selector's value of rows() and row()
    aside, and a kernel's, version's or step's number); a FORMAT other than those above;
  - a {{not-measured}} whose TEXT looks like a measurement, or whose WHY names no published
    document, or names a constant or file of the code (bind it instead);
  - in prose, tables and image captions, a number followed by a unit of time, rate, clock,
    power, energy, data volume (kB, MB, GB, TB: binary sizes such as KiB are the code's),
    proportion or arithmetic intensity (ms, µs, cycles, GB/s, GiB/s, any .../s, TFLOPS, GHz, W,
    J, °C, %, per cent, x, times, fold, flops per byte ...), also across a line break, a number
    on either side of "vs" or "versus", and a bare number in a table column whose title names
    a measurement;
  - in prose, tables and captions, a ratio written in words where it compares: "twice as
    fast", "half its speed", "about a third", "less than half", "three times the rate",
    "tenfold", "two orders of magnitude". Render it ({{ a.rate / b.rate ; times }}), or state
    the counts themselves;
  - in code spans, a number followed by a unit of time, rate, clock, power or proportion
    (`5 ms`): a code span quotes code, not a measurement;
  - register counts and shared-memory sizes ("248 registers", "registers: ptxas reports
    about 226", "48 KiB of shared memory", "N bytes of shared memory"). The compiler decides
    them, so they come only from its report (nvcc -Xptxas -v, or cuobjdump
    --dump-resource-usage) saved as a CSV under data/ whose '# command:' line ran one of those
    two: such a figure must be a
    placeholder that draws on a name bound to that file, or to a constant of the code that
    sets it (a ring of stages sized by the code). A {{not-measured}} register count or
    shared-memory size, or a placeholder into any other CSV, is rejected too;
  - the outcome of a run at a given case ("faults at the 256 x 768 x 512 case", "fails at
    n = 300"): which case fails is a figure of a run that data/ does not hold;
  - in transcripts of a program's output (indented code blocks, fences with no language or
    text, console or output, and code spans that quote a check's verdict: 'expected', 'wrong',
    'correct'), a number with a decimal fraction or an exponent (an error, a sum, a volume, a
    time), and a number with a unit of time or rate. Write it as '...' (the transcripts are
    abridged) or as a placeholder; a number right after 'limit' or 'tolerance' is a setting of
    the check and stays.

Usage:
  page-figures.py render DATA_DIR OUT_DIR PAGE...   write every PAGE, figures filled in, to OUT_DIR
                                                    (same file name); exit 1 on any error
  page-figures.py check DATA_DIR PAGE...            render in memory, and also fail on any
                                                    measured-looking number written by hand
  page-figures.py self-test DATA_DIR                planted faults that check must catch
"""
import ast
import functools
import math
import os
import re
import shlex
import sys
import zlib

# The course's one reader of its CSVs (scripts/lib/bench_csv.py).
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts", "lib"))
import bench_csv  # noqa: E402  (after the path to it)
import course_setting  # noqa: E402  (the course's address, course.json)
import exercise_list  # noqa: E402  (the lessons' folders, found by their names)
import machines  # noqa: E402
import mutation_report  # noqa: E402  (the course's one reader of the mutation reports)

BLOCK = re.compile(r"<!--\s*figures\b(.*?)-->", re.S)
# The label that binds a name to a file's counts in its mutation report.
MUTATION_REPORT = "mutation-report"
# A passage shown only when the figures it lists are measured, with what stands in until then.
IF_MEASURED = re.compile(r"<!--\s*if-measured\b(.*?)-->(.*?)(?:<!--\s*else\s*-->(.*?))?"
                         r"<!--\s*end\s+if-measured\s*-->", re.S)
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)
NUMBER = r"(?<![\w.\-/])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])"
# What a measurement looks like: a number followed by a unit of time, rate, clock, power,
# energy, data volume, proportion or arithmetic intensity, on one line or across a line break.
# "2 x 2" and "32x32" are shapes, not ratios, so x and × count only when no number follows.
UNIT = (r"ms|µs|μs|us|ns|ps|s|sec|seconds?|minutes?|min|hours?|cycles?|clocks?|clock\s+cycles|"
        r"[A-Za-zµμ]*/s|per\s+second|[kMGTP]?FLOPS|[kMG]?Hz|[km]?W|[kM]?J|Wh|°C|"
        r"[kKMGTP]B|%|‰|per\s?cent|percent|times|fold|(?:×|x)(?!\s?\d)|"
        r"flops?\s*(?:/|per)\s*byte|FLOP/B")
MEASURED = re.compile(rf"(?<![\w.\-/])(\d+(?:,\d{{3}})*(?:\.\d+)?)(?:[ \t]?|[ \t]*\n[ \t]*)"
                      rf"(?:-\s?)?({UNIT})(?![\w/])")
# Two figures compared: "741 vs 771", "1.05 vs 1.00".
VERSUS = re.compile(rf"({NUMBER})(?=\s*(?:×|x)?\s+(?:vs\.?|versus)(?!\w))|"
                    rf"(?<![\w])(?:vs\.?|versus)\s+({NUMBER})")
# A ratio in words where it compares: "twice as fast", "less than half", "a third fewer".
RATIO_WORD = (r"(?:twice|thrice|half|(?:a|one|two|three)\s+(?:third|quarter|fifth|tenth)s?|"
              r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
              r"thirty|forty|fifty|(?:a\s+)?hundred|(?:a\s+)?thousand)\s+times)")
QUALIFIER = (r"(?:about|roughly|nearly|almost|around|over|under|only|just|barely|some|by|up\s+to|"
             r"at\s+most|at\s+least|(?:far\s+|much\s+)?(?:less|more|fewer)\s+than|close\s+to|"
             r"well\s+(?:under|over|above|below))")
COMPARED = (r"(?:as\s+\w+|faster|slower|longer|shorter|more|fewer|less|larger|smaller|higher|"
            r"lower|bigger|too\s+\w+|that\b|its\s+\w+|their\s+\w+|the\s+(?:[\w'-]+\s+)?"
            r"(?:speed|rate|time|bandwidth|throughput|work|cost|traffic|bytes|cycles|energy|"
            r"power|performance|flops|peak|latency|atomics|loads|stores|instructions|requests|"
            r"multiply-adds|arrivals|L2|copy)\b)")
SPELLED = re.compile(rf"\b{QUALIFIER}\s+{RATIO_WORD}\b|\b{RATIO_WORD}\s+{COMPARED}|"
                     rf"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|thousand|"
                     rf"several|many)-?fold\b|\borders?\s+of\s+magnitude\b", re.I)
# A product's name holds sizes that are not figures: "NVIDIA H100 80GB HBM3".
PRODUCT = re.compile(r"\b[A-Z]{1,2}\d{2,4}\w*\s+\d+GB\b")
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
# In a code span or a transcript, a number with a unit of time, rate, clock, power or proportion.
SPAN_MEASURED = re.compile(r"(?<![\w.\-/])(\d+(?:\.\d+)?)\s?(ms|µs|μs|us|ns|s|[A-Za-z]*/s|"
                           r"[kMG]?Hz|[k]?W|%|per\s?cent|(?:×|x)(?!\s?\d))(?![\w/])")
# Right after a placeholder of the code's constants alone: a rate, a clock or a power, which the
# code does not set (a measured figure put into the code would otherwise read as the code's).
RATE_AFTER = re.compile(r"\s*(?:[A-Za-zµμ]*/s|per\s+second|[kMGTP]?FLOPS|[kMG]?Hz|[km]?W)"
                        r"(?![\w/])")
VERDICT = re.compile(r"\b(?:expected|wrong|correct)\b")
TRANSCRIPT_FENCE = re.compile(r"(?:```|~~~)\s*(?:text|console|output)?\s*$")
# A compiler report: its command ran ptxas verbosely or asked cuobjdump for resource usage.
COMPILER_REPORT = re.compile(r"-Xptxas[= ]+-v\b|--resource-usage\b|-res-usage\b|"
                             r"cuobjdump\b.*--dump-resource-usage\b")
# Table columns whose cells are measurements even when the cell carries no unit.
MEASURED_HEADER = re.compile(r"GFLOP|TFLOP|GB/s|TB/s|cells/s|\bms\b|\btime\b|ratio|speedup|"
                             r"\brate\b|\bseconds\b|µs|\bover\b", re.I)
BARE_NUMBER = re.compile(r"(?<![\w.\-/])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])")
# The formats a placeholder may use: none of them can add digits of their own.
FORMAT = re.compile(r"sig\d|s|g|times|,?\.\d+[fg%]|,?\.?\d*g|,d|d")
# A published document, the one source a {{not-measured}} figure may have; and what names code.
DOCUMENT = re.compile(r"\b(?:Guide|whitepaper|white paper|datasheet|data sheet|ISA|Manual|"
                      r"documentation|specification|paper)\b", re.I)
CODE_NAME = re.compile(r"\bk[A-Z]\w*|\b[\w.-]+/[\w./-]+\.(?:cu|cuh|h|hpp|cpp|py|txt|cmake|sh)\b|"
                       r"\b\w+\.(?:cu|cuh|h|hpp|cpp|py)\b|\b(?:code|driver|harness|benchmark)\b")
# A constant of the code: `NAME = ...;`, `NAME{...}` in a declaration, `#define NAME ...`. NAME may
# be qualified as the code writes it (info.check_seconds).
CODE_DEFINITION = (r"(?:#\s*define\s+{name}\s+(?P<define>[^\n]+)|"
                   r"(?<![\w.>:]){name}\s*(?:=(?!=)|\{{)\s*(?P<value>[^;,}}\n]+))")
# A string of an expression may name a kernel, version, step or lesson by its number.
NAMED_NUMBER = re.compile(r"\b(?:kernels?|versions?|steps?|lessons?|parts?|TODO)\s+\d+"
                          r"(?:\s*(?:to|and|,)\s*\d+)*", re.I)
PRINTF = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")
# A cross-reference to another lesson by its name: {{lesson profiling}}, {{Lesson profiling}}, and
# to a section of its page: {{lesson tiled-matmul#occupancy}} (the anchor lNN_occupancy).
LESSON_REFERENCE = re.compile(r"([Ll]esson)\s+([\w-]+)(?:#(\w+))?")
# A lesson's folder name, for the programs and targets a command names: {{folder tiled-matmul}}.
LESSON_FOLDER = re.compile(r"folder\s+([\w-]+)")
# The course's git address, from course.json: {{course url}}.
COURSE_URL = re.compile(r"course\s+url")


class FigureError(Exception):
    pass


def rotate_digits(text):
    """The same text with every digit changed: what a string of other data would read."""
    return text.translate(str.maketrans("0123456789", "3456789012"))


def jitter(key, seed=0):
    """A factor between 1.25 and 4.25 that depends on the key and the seed: data that differ
    everywhere, and by enough that a rounded value moves too."""
    return 1.25 + (zlib.crc32(f"{seed}:{key}".encode()) % 1000) * 0.003


class Row:
    """One CSV row; columns read as numbers where they are numbers. A perturbed row gives every
    number times a factor of its own and every text with its digits changed: check() evaluates
    each placeholder on such rows too, and a value that does not change came from no data."""

    def __init__(self, columns, where, compiler_report=False, seed=None):
        self._columns = columns
        self._where = where
        self._compiler_report = compiler_report
        self._seed = seed

    def _perturb(self, seed):
        return Row(self._columns, self._where, self._compiler_report, seed)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._columns:
            raise FigureError(f"{self._where} has no column '{name}' "
                              f"(columns: {', '.join(self._columns)})")
        value = self._columns[name]
        if value == "":
            raise FigureError(f"{self._where}: column '{name}' is empty")
        value = bench_csv.number(value, value)
        if self._seed is not None:
            key = f"{self._where}:{name}"
            value = rotate_digits(value) if isinstance(value, str) else \
                value * jitter(key, self._seed)
        return value


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

    def matching(self, selector):
        """The Rows whose columns equal every key=value of the selector, in the file's order."""
        wanted = " ".join(f"{k}={v}" for k, v in selector.items())
        return [Row(row, f"{self.label} row '{wanted}'", self._compiler_report) for row in self.rows
                if all(row.get(key) == value for key, value in selector.items())]

    def select(self, selector):
        matches = self.matching(selector)
        wanted = " ".join(f"{k}={v}" for k, v in selector.items())
        if len(matches) != 1:
            shown = [" ".join(f"{k}={r.get(k)}" for k in selector) for r in self.rows[:5]]
            raise FigureError(f"{self.label}: {len(matches)} rows match '{wanted}' "
                              f"(exactly one must; rows look like: {'; '.join(shown)})")
        return matches[0]


class PerturbedFile:
    """A file's header with its digits changed, and its rows perturbed (see Row)."""

    def __init__(self, file, seed):
        self._file = file
        self._seed = seed
        self._compiler_report = file._compiler_report

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return rotate_digits(getattr(self._file, name))

    def matching(self, selector):
        return [row._perturb(self._seed) for row in self._file.matching(selector)]


class Constant:
    """A constant of the code, read from its file: a number in expressions."""

    _compiler_report = False

    def __init__(self, value, where):
        self.value = value
        self.where = where


def code_constant(root, path, name, seen=()):
    """The number the file `path` (relative to the repository root) gives the constant `name`."""
    where = f"code {path}: {name}"
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        raise FigureError(f"{where}: no such file in the repository")
    if name in seen:
        raise FigureError(f"{where}: defined through itself")
    with open(full, encoding="utf-8") as f:
        text = f.read()
    found = set()
    for m in re.finditer(CODE_DEFINITION.format(name=re.escape(name)), text):
        found.add((m.group("define") or m.group("value")).strip())
    if not found:
        raise FigureError(f"{where}: the file defines no constant '{name}' "
                          f"('{name} = 4;', '{name}{{4}}' or '#define {name} 4')")
    lookup = lambda other: code_constant(root, path, other, seen + (name,))
    values = {constant_expression(expression, lookup, where) for expression in found}
    if len(values) != 1:
        raise FigureError(f"{where}: defined with different values ({', '.join(sorted(found))})")
    return values.pop()


SIZEOF = {"double": 8, "float": 4, "int": 4, "unsigned": 4, "long long": 8, "long": 8, "short": 2,
          "char": 1, "__nv_bfloat16": 2, "__half": 2, "uint16_t": 2, "uint32_t": 4, "uint64_t": 8,
          "int32_t": 4, "int64_t": 8, "uint8_t": 1}


def constant_expression(text, lookup, where):
    """The value of a C++ constant expression: literals (digit separators and suffixes allowed),
    other constants of the same file, sizeof of a basic type, static_cast, + - * / % << and
    parentheses."""
    cleaned = re.sub(r"(?<=\d)'(?=\d)", "", text.strip())
    cleaned = re.sub(r"\b(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)(?:[uU]?[lL]{0,2}|[fF])\b", r"\1", cleaned)
    cleaned = re.sub(r"\bstatic_cast<[\w: ]+>", "", cleaned)
    cleaned = re.sub(r"(?<![\w:])(?:std::)?(?:size_t|int|long|unsigned|double|float|u?int(?:32|64)_t)"
                     r"\s*(?=\()", "", cleaned)
    for type_, size in SIZEOF.items():
        cleaned = re.sub(rf"\bsizeof\(\s*{type_}\s*\)", str(size), cleaned)
    try:
        tree = ast.parse(cleaned, mode="eval")
    except SyntaxError:
        raise FigureError(f"{where}: '{text.strip()}' is no constant expression")

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name):
            return lookup(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = value(node.left), value(node.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.Div: lambda: a // b if isinstance(a, int) and isinstance(b, int) else a / b,
                   ast.Mod: lambda: a % b, ast.LShift: lambda: a << b}
            if type(node.op) in ops:
                return ops[type(node.op)]()
        raise FigureError(f"{where}: '{text.strip()}' is no constant expression")

    return value(tree.body)


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


def lesson_file(label, code_root=SOURCE_DIR):
    """A binding's LABEL with a file named NN-NAME... (a lesson's run named by the lesson's name)
    given that lesson's number, from its folder lessons/NN-NAME; any other LABEL as it is."""
    folder, slash, base = label.rpartition("/")
    if not base.startswith("NN-"):
        return label
    named = [lesson for lesson in exercise_list.lesson_folders(code_root)
             if base[3:] == lesson[3:] or base[3:].startswith((lesson[3:] + "-", lesson[3:] + "."))]
    if not named:
        raise FigureError(f"{label}: no lesson's name (a folder lessons/NN-NAME/) begins the file's name "
                          f"after NN-")
    return f"{folder}{slash}{max(named, key=len)[:2]}{base[2:]}"


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


def read_bindings(text, data_dir, files, code_root=SOURCE_DIR):
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
            if target.startswith("code "):
                path, _, constant = target[len("code "):].partition(":")
                try:
                    value = code_constant(code_root, path.strip(), constant.strip())
                    names[name] = Constant(value, target)
                except FigureError as e:
                    raise FigureError(f"line {where}: {e}")
                continue
            label, _, selector = target.partition(":")
            label = label.strip()
            if label == MUTATION_REPORT:
                try:
                    names[name] = MutationShare(parse_selector(selector))
                except FigureError as e:
                    raise FigureError(f"line {where}: {e}")
                continue
            try:
                label = lesson_file(label, code_root)
            except FigureError as e:
                raise FigureError(f"line {where}: {e}")
            if label not in files:
                files[label] = open_binding(data_dir, label)
            try:
                names[name] = files[label].select(parse_selector(selector)) if selector.strip() \
                    else files[label]
            except FigureError as e:
                raise FigureError(f"line {where}: {e}")
    return names


RATIO_WORDS = [(1 / 5, "a fifth"), (1 / 4, "a quarter"), (1 / 3, "a third"), (2 / 5, "two fifths"),
               (1 / 2, "half"), (3 / 5, "three fifths"), (2 / 3, "two thirds"),
               (3 / 4, "three quarters"), (4 / 5, "four fifths"), (1, "the same as"),
               (3 / 2, "one and a half times"), (2, "twice")]
RATIO_WORDS += [(n, f"{word} times") for n, word in
                zip(range(3, 13), "three four five six seven eight nine ten eleven twelve".split())]


def ratio_in_words(value):
    """The nearest simple fraction or multiple in words; a percentage or 'N.N times' where none
    is within 15%."""
    if value <= 0:
        raise FigureError(f"a ratio of {value} has no words")
    factor, words = min(RATIO_WORDS, key=lambda item: abs(math.log(value / item[0])))
    if abs(math.log(value / factor)) <= math.log(1.15):
        return words
    return f"{value:.0%}" if value < 1 else f"{value:.1f} times"


def format_value(value, spec):
    spec = spec.strip() or "sig3"
    if not FORMAT.fullmatch(spec):
        raise FigureError(f"format '{spec}' is none of .Nf, .N%, ,.Nf, g, sigN, s and times")
    if isinstance(value, str):
        return value
    if isinstance(value, int) and spec == "sig3":
        return str(value)  # a count or a constant of the code, as it is
    if spec == "times":
        return ratio_in_words(value)
    if spec == "s":
        return str(value)
    m = re.fullmatch(r"sig(\d)", spec)
    if m:
        digits = int(m.group(1))
        if value == 0:
            return "0"
        decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(value)))))
        return f"{value:.{decimals}f}"
    return format(value, spec)


def busy_ms(rows):
    """The time during which at least one of the rows' [start_ms, end_ms] intervals runs."""
    busy, reached = 0.0, -math.inf
    for start, end in sorted((r.start_ms, r.end_ms) for r in rows):
        if end > max(start, reached):
            busy += end - max(start, reached)
        reached = max(reached, end)
    return busy


def matching_rows(file, **selector):
    if not hasattr(file, "matching"):
        raise FigureError("rows() and row() take a name bound to a whole file")
    return file.matching({key: str(value) for key, value in selector.items()})


def one_row(file, **selector):
    matches = matching_rows(file, **selector)
    if len(matches) != 1:
        wanted = " ".join(f"{k}={v}" for k, v in selector.items())
        raise FigureError(f"{len(matches)} rows match '{wanted}' (exactly one must)")
    return matches[0]


SAFE = {"min": min, "max": max, "abs": abs, "round": round, "ceil": math.ceil, "floor": math.floor,
        "log2": math.log2, "all": all, "any": any, "sum": sum, "len": len,
        "rows": matching_rows, "row": one_row, "busy_ms": busy_ms}
SELECTING = {"rows", "row"}


def unit_scale(value):
    """A power of ten or of two: the factor of a unit (1e6, 1024), not a figure."""
    if value <= 0:
        return False
    return any(abs(exponent - round(exponent)) < 1e-9
               for exponent in (math.log10(value), math.log2(value)))


def typed_in_expression(tree):
    """The numbers and numbers in strings that an expression types instead of reading them."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def under(node, kinds):
        while node in parents:
            node = parents[node]
            if isinstance(node, kinds):
                return True
        return False

    typed = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool) or node.value is None:
            continue
        parent = parents.get(node)
        while isinstance(parent, ast.UnaryOp):
            parent = parents.get(parent)
        if isinstance(node.value, str):
            if isinstance(parent, ast.keyword) and isinstance(parents.get(parent), ast.Call) and \
                    getattr(parents[parent].func, "id", None) in SELECTING:
                continue  # a selector's value: which row, not a figure
            words = NAMED_NUMBER.sub("", PRINTF.sub("", node.value))
            if re.search(r"(?<![A-Za-z_])\d", words):
                typed.append(repr(node.value))
            continue
        value = node.value
        if value in (0, 1) or under(node, ast.Compare):
            continue
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and parent.right is node:
            continue  # an exponent: a square, a cube
        if isinstance(parent, ast.Call) and getattr(parent.func, "id", None) == "round" and \
                len(parent.args) == 2 and parent.args[1] is node:
            continue
        if unit_scale(abs(value)) and isinstance(parent, ast.BinOp) and \
                isinstance(parent.op, (ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)):
            continue
        typed.append(repr(value))
    return typed


PERTURBATIONS = 3  # data perturbed this many ways: a value that moves in none of them is typed


def evaluation_env(names, seed=None):
    """The names an expression sees (as its globals, so that generator expressions see them too,
    and no builtins): the data as they are, or perturbed with `seed`."""
    env = dict(SAFE, __builtins__={})
    for name, bound in names.items():
        if isinstance(bound, Constant):
            env[name] = bound.value if seed is None else bound.value * jitter(bound.where, seed)
        elif seed is not None:
            env[name] = bound._perturb(seed) if isinstance(bound, Row) else PerturbedFile(bound, seed)
        else:
            env[name] = bound
    return env


def drawn_from_data(expression, value, names):
    """False when the value stays the same on perturbed data: it was typed, not read."""
    if not isinstance(value, (int, float, str)) or isinstance(value, bool):
        return True
    if isinstance(value, str) and not re.search(r"\d", value):
        return True  # words chosen by the data: no figure
    for seed in range(PERTURBATIONS):
        try:
            other = eval(expression, evaluation_env(names, seed))  # noqa: S307
        except Exception:  # the perturbed data took another branch that failed: it depends on them
            return True
        if isinstance(value, str) or isinstance(other, str):
            if value != other:
                return True
        elif abs(other - value) > 1e-9 * max(abs(value), 1e-300):
            return True
    return False


@functools.lru_cache(maxsize=None)
def lesson_folder(name, code_root=SOURCE_DIR):
    """The folder NN-NAME of the lesson named NAME (lessons/NN-NAME/, its manifest), looked up once
    for all the places that cite it."""
    if re.match(r"\d", name):
        raise FigureError("name the lesson without its number ({{lesson profiling}}, "
                          "{{folder profiling}}), so that renumbering it changes no page")
    folders = exercise_list.lesson_folders(code_root, name)
    if len(folders) != 1:
        raise FigureError(f"{len(folders)} lessons named '{name}' (a folder lessons/NN-{name}/ with its "
                          f"CMakeLists.txt)")
    return folders[0]


def lesson_reference(word, name, section=None, code_root=SOURCE_DIR):
    """\\ref lessonNN "WORD NN" for the lesson whose folder is lessons/NN-NAME (its manifest), or
    \\ref lNN_SECTION "WORD NN" for the section of its page whose anchor is {#lNN_SECTION}."""
    folder = lesson_folder(name, code_root)
    number = folder[:2]
    if section is None:
        return f'\\ref lesson{number} "{word} {number}"'
    if re.match(r"l\d\d_", section):
        raise FigureError(f"name the section without its lesson's number ({{{{lesson {name}#"
                          f"{section[4:]}}}}}): the number comes from the lesson's folder")
    anchor = f"l{number}_{section}"
    page = os.path.join(code_root, "docs", "lessons", folder + ".md")
    try:
        with open(page, encoding="utf-8") as f:
            anchored = "{#" + anchor + "}" in f.read()
    except OSError:
        anchored = False
    if not anchored:
        raise FigureError(f"docs/lessons/{folder}.md has no section {{#{anchor}}}")
    return f'\\ref {anchor} "{word} {number}"'

def not_measured(body, where, resource, errors):
    shown, sep, why = body[len("not-measured"):].partition(";")
    shown, why = shown.strip(), why.strip()
    if not sep or not why:
        errors.append(f"line {where}: not-measured needs a reason after ';'")
    elif CODE_NAME.search(why):
        errors.append(f"line {where}: {{{{{body}}}}}: a constant of the code is bound in the "
                      f"figures block ('name = code PATH: NAME') and rendered from there")
    elif not DOCUMENT.search(why):
        errors.append(f"line {where}: {{{{{body}}}}}: not-measured names the published document "
                      f"it comes from (a guide, a whitepaper, a datasheet, the PTX ISA)")
    if MEASURED.search(shown) or VERSUS.search(shown) or SPELLED.search(shown):
        errors.append(f"line {where}: {{{{{body}}}}} looks like a measurement: it comes from a CSV "
                      f"under data/ (published peaks from data/specs/)")
    if resource:
        errors.append(f"line {where}: {{{{{body}}}}}{resource.group(0)}: a register count "
                      f"or shared-memory size comes only from a committed compiler report")
    return shown


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


def render(text, data_dir, files, code_root=SOURCE_DIR, strict=False):
    """The page with figures filled in, and the list of errors ('line N: why'). `strict` (check)
    also evaluates every placeholder on perturbed data, and rejects numbers typed into it."""
    errors = []
    try:
        names = read_bindings(text, data_dir, files, code_root)
    except FigureError as e:
        return text, [str(e)]
    left_out, shown = choose_passages(text, names, errors)

    def fill(match):
        body = match.group(1).strip()
        where = line_of(text, match.start())
        if any(start <= match.start() < end for start, end in left_out):
            return match.group(0)  # a passage not shown: its figures are not evaluated
        resource = RESOURCE_AFTER.match(text, match.end())
        if body.startswith("not-measured"):
            return not_measured(body, where, resource, errors)
        if COURSE_URL.fullmatch(body):
            try:
                return course_setting.repository_url(code_root)
            except course_setting.SettingError as e:
                errors.append(f"line {where}: {{{{{body}}}}}: {e}")
                return match.group(0)
        reference = LESSON_REFERENCE.fullmatch(body)
        folder = LESSON_FOLDER.fullmatch(body)
        if reference or folder:
            try:
                if folder:
                    return lesson_folder(folder.group(1), code_root)
                return lesson_reference(*reference.groups(), code_root=code_root)
            except FigureError as e:
                errors.append(f"line {where}: {{{{{body}}}}}: {e}")
                return match.group(0)
        expression, _, spec = body.partition(";")
        expression = expression.strip()
        try:
            tree = ast.parse(expression, mode="eval")
        except SyntaxError:
            tree = None  # eval below names the error
        used = None if tree is None else \
            {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} & names.keys()
        if used is not None and not used:
            errors.append(f"line {where}: {{{{{body}}}}} names no row, file or constant of the figures "
                          f"block: a number typed into a placeholder is still written by hand")
            return match.group(0)
        if used and resource and not any(names[n]._compiler_report or isinstance(names[n], Constant)
                                         for n in used):
            errors.append(f"line {where}: {{{{{body}}}}}{resource.group(0)}: a register count or "
                          f"shared-memory size comes only from a CSV whose '# command:' is the "
                          f"compiler's report (nvcc -Xptxas -v, cuobjdump --dump-resource-usage)")
        rate = RATE_AFTER.match(text, match.end())
        if used and rate and all(isinstance(names[n], Constant) for n in used):
            errors.append(f"line {where}: {{{{{body}}}}}{rate.group(0)}: a rate, clock or power "
                          f"comes from a committed run or data/specs/, not from the code")
        if strict and tree is not None:
            typed = typed_in_expression(tree)
            if typed:
                errors.append(f"line {where}: {{{{{body}}}}} types {', '.join(typed)}: a number of "
                              f"the code is bound as 'name = code PATH: NAME', a figure comes from a CSV")
        try:
            value = eval(expression, evaluation_env(names))  # noqa: S307
            if strict and not drawn_from_data(expression, value, names):
                errors.append(f"line {where}: {{{{{body}}}}} gives the same value whatever the data "
                              f"say: it is typed, not read from them")
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


def blank_figures(text):
    """The text with the figures block and comments emptied and each placeholder turned into one
    mark (line breaks kept, so that line numbers stay those of the page)."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")
    text = BLOCK.sub(keep_lines, text)
    text = PLACEHOLDER.sub(lambda m: "\u2400" + keep_lines(m), text)
    text = PRODUCT.sub(lambda m: m.group(0).split()[0], text)
    return re.sub(r"<!--.*?-->", keep_lines, text, flags=re.S)


def prose_lines(text):
    """(line number, text) of the lines a reader sees as prose, tables and image captions: code
    blocks, code spans (also across lines), comments, figure placeholders and link targets
    blanked out."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")
    lines, in_code = [], False
    for line in blank_figures(text).splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_code = not in_code
            line = ""
        elif stripped.startswith(("\\code", "@code")):
            in_code, line = True, ""
        elif stripped.startswith(("\\endcode", "@endcode")):
            in_code, line = False, ""
        elif stripped.startswith(("\\image", "@image")) and not in_code:
            line = " ".join(re.findall(r'"([^"]*)"', line))  # the caption is read as prose
        elif in_code or stripped.startswith(("\\include", "\\snippet")):
            line = ""
        lines.append(line)
    text = re.sub(r"`[^`]*`", keep_lines, "\n".join(lines))
    for number_, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"\]\([^)]*\)", "]", line)
        line = re.sub(r"https?://\S+", "", line)
        yield number_, line


def indented_block(line):
    """A line of an indented code block: four spaces or more that are no list item's."""
    stripped = line.strip()
    return len(line.expandtabs(4)) - len(line.lstrip()) >= 4 and not stripped.startswith(("-", "|")) \
        and not re.match(r"\s*\d+\.", line)


def code_spans(text):
    """(line number, text) of the code spans in prose (not those in code blocks)."""
    lines, in_code = [], False
    for line in blank_figures(text).splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~", "\\code", "@code", "\\endcode", "@endcode")):
            in_code = not in_code if stripped.startswith(("```", "~~~")) else \
                stripped.startswith(("\\code", "@code"))
            line = ""
        elif in_code or indented_block(line):
            line = ""
        lines.append(line)
    joined = "\n".join(lines)
    for m in re.finditer(r"`([^`]*)`", joined):
        yield line_of(joined, m.start()), m.group(1)


def transcript_lines(text):
    """(line number, text) of what quotes a program's output: the lines of indented code blocks
    and of fences with no language (or text, console, output), and the code spans that quote a
    check's verdict; placeholders blanked out."""
    fence, source, indented, after_blank = None, False, False, True
    for where, line in enumerate(blank_figures(text).splitlines(), 1):
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
    """Measured-looking numbers in prose, tables, captions and code spans that do not come from
    a placeholder, and ratios written in words."""
    found = []
    header = None
    prose = list(prose_lines(text))
    joined = "\n".join(line for _, line in prose)
    at = lambda m: f"line {line_of(joined, m.start())}: '{' '.join(m.group(0).split())}'"
    for m in RESOURCE.finditer(joined):
        found.append(f"{at(m)} is a register count or shared-memory size written by hand (only a "
                     f"placeholder into a committed compiler report may state it)")
    for m in OUTCOME.finditer(joined):
        found.append(f"{at(m)} names the case where a run failed, a figure of a run that data/ "
                     f"does not hold")
    for m in MEASURED.finditer(joined):
        found.append(f"{at(m)} is written by hand")
    for m in SPELLED.finditer(joined):
        found.append(f"{at(m)} is a ratio written by hand: render it ({{{{ a / b ; times }}}}) or "
                     f"state the counts")
    for where, span in code_spans(text):
        for m in SPAN_MEASURED.finditer(span):
            found.append(f"line {where}: '{m.group(0)}' in a code span is a measured figure "
                         f"written by hand")
    for where, line in transcript_lines(text):
        for m in RUN_NUMBER.finditer(line):
            found.append(f"line {where}: '{m.group(0)}' in a quoted output is a figure of a run "
                         f"(write it as '...')")
        for m in SPAN_MEASURED.finditer(line):
            found.append(f"line {where}: '{m.group(0)}' in a quoted output is a figure of a run "
                         f"(write it as '...')")
    for where, line in prose:
        for m in VERSUS.finditer(line):
            found.append(f"line {where}: '{m.group(m.lastindex)}' compared with 'vs' is written "
                         f"by hand")
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
        _, errors = render(text, data_dir, files, strict=True)
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
kernel,block,median_ms,min_ms,max_ms,rate
tiled,8x8,2.5,2.4,2.6,800
tiled,16x16,1.25,1.2,1.3,1600
"""

SELF_TEST_REPORT = """# date: 2026-01-01 00:00 UTC
# command: nvcc -arch=sm_90 -Xptxas -v -c kernels.cu
kernel,registers,shared_bytes
tiled,40,8192
"""

SELF_TEST_TIMELINE = """# device: Test GPU
# date: 2026-01-01 00:00 UTC
# command: bench --timeline timeline.csv
stream,chunk,operation,start_ms,end_ms
0,0,d2h,1.0,2.0
1,1,d2h,1.5,3.0
0,2,d2h,4.0,5.0
"""

# A file with a mutation report (solutions/13-hopper-tensor-cores/mutation-report.tsv).
SELF_TEST_GIVEN = "solutions/13-hopper-tensor-cores/kernels/cluster_share.cu"

SELF_TEST_CODE = """// The constants a page may quote.
constexpr int kStages = 4;
constexpr int kStageBytes{49152};
constexpr int kRingBytes = kStages * kStageBytes;
constexpr double kCostLimit = 1.6;
constexpr int kRingDoubles = kRingBytes / static_cast<int>(sizeof(double));
constexpr std::size_t kWorkspaceBytes = std::size_t(64) << 20;
#define TILE_WIDTH 32
"""

# (page text, should pass, what it shows); "t" is a row of t.csv, "a" the other one.
ROWS = ("<!-- figures\nrun = t.csv\nt = t.csv: kernel=tiled block=16x16\n"
        "a = t.csv: kernel=tiled block=8x8\n-->\n")
CODE = ("<!-- figures\nt = t.csv: kernel=tiled block=16x16\nstages = code src/ring.cuh: kStages\n"
        "ring = code src/ring.cuh: kRingBytes\nlimit = code src/ring.cuh: kCostLimit\n"
        "doubles = code src/ring.cuh: kRingDoubles\nworkspace = code src/ring.cuh: kWorkspaceBytes\n"
        "tile = code src/ring.cuh: TILE_WIDTH\n-->\n")
SELF_TEST_CASES = [
    (ROWS + "{{ t.rate ; .0f }} GFLOP/s\n", True, "a placeholder"),
    ("The tiled kernel reaches 1600 GFLOP/s.\n", False, "a rate typed by hand"),
    ("| tile | GFLOP/s |\n|---|---|\n| 16 x 16 | 1600 |\n", False, "a table cell by hand"),
    ("<!-- figures\nt = t.csv: kernel=tiled\n-->\n{{ t.rate }}\n", False, "an ambiguous row"),
    ("<!-- figures\nt = t.csv: kernel=naive\n-->\n{{ t.rate }}\n", False, "a missing row"),
    ("<!-- figures\nt = gone.csv: kernel=tiled\n-->\n{{ t.rate }}\n", False, "a missing CSV"),
    ("<!-- figures\nt = t.csv: kernel=tiled block=8x8\n-->\n{{ t.speed }}\n", False,
     "a missing column"),
    ("{{not-measured 2048 }} threads per SM\n", False, "not-measured without a reason"),
    ("Took 12.5 ms, 3.2× faster, 42 % of the peak.\n", False, "three figures by hand"),
    ("A message `error: 741\nvs 771` quoted across two lines, 2 x 2 blocks.\n", True,
     "a code span over two lines, a shape"),
    ("The formula of lesson 02, times the tile; 1,000 times more.\n", False,
     "a list comma is no number, a thousands separator is"),
    ("The tiled kernel reaches {{ 772.1 ; .0f }} GFLOP/s.\n", False,
     "a placeholder that holds a typed number"),
    (ROWS + "{{ round(t.rate / 1000) }} and {{ min(t.rate, a.rate) ; .0f }}\n", True,
     "a placeholder over rows, with functions"),
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
    (ROWS + "{{ t.rate / 20 ; .0f }} registers\n", False, "a register count from a benchmark CSV"),
    ("<!-- figures\nr = r.csv: kernel=tiled\n-->\n{{ r.registers ; .0f }} registers and "
     "{{ r.shared_bytes / 1024 ; .0f }} KiB of shared memory per block\n", True,
     "register and shared-memory figures from a compiler report"),
    (CODE + "The ring takes {{ ring / 1024 ; .0f }} KiB of shared memory in "
     "{{ stages ; .0f }} stages.\n",
     True, "a shared-memory size that the code sets, read from the code"),
    ("| memory | scope | limit |\n|---|---|---|\n| registers | one thread | 255 per thread |\n",
     True, "a documented register limit in a table"),
    ("Expected output (abridged):\n\n    C: all 16 elements correct (max abs error 2.2e-15, "
     "max rel error 3.1e-16)\n", False, "errors in a quoted output"),
    ("Expected output (abridged):\n\n    tiled: 12 ms, 800 GFLOP/s\n", False,
     "a time in a quoted output"),
    ("The exercise prints `C[0][0] = 0 (expected 1.27...); 16 of 16 wrong`.\n", False,
     "an expected value in a quoted verdict"),
    ("Expected output (abridged):\n\n    volume ... -> ... (relative drift ..., limit 1e-9) ok\n"
     "    PASSED: all 44 version runs match.\n\nSet `kTolerance = 1e-9` or `0.5`.\n", True,
     "an abridged output, a check's limit and code"),
    ("The untouched exercise faults at the 256 x 768 x 512 case.\n", False,
     "the case where a run failed"),
    ("Shapes 256 x 768 x 512 and 1024³ are checked; the loop ends at the last row.\n", True,
     "shapes and an outcome with no case"),
    # Numbers typed into a placeholder.
    (ROWS + "{{ t.rate * 0 + 772 ; .0f }} GFLOP/s\n", False, "a number added inside a placeholder"),
    (ROWS + "{{ t.rate / t.rate * 1024 ; .0f }} GFLOP/s\n", False,
     "a placeholder whose value does not depend on its row"),
    (ROWS + "{{ t.rate + 100 ; .0f }} GFLOP/s\n", False, "a typed offset inside a placeholder"),
    (ROWS + "{{ t.rate ; 772 }} GFLOP/s\n", False, "a format that is a number"),
    (ROWS + "{{ t.rate / 1000 ; .1f }} TFLOP/s in {{ t.median_ms * 1e3 ; .0f }} µs, "
     "{{ 1 - a.median_ms / t.median_ms ; .0% }} and {{ (t.median_ms / a.median_ms) ** 3 ; .2f }}\n",
     True, "units, 1 - x and an exponent inside placeholders"),
    (CODE + "{{ t.median_ms / stages ; .3f }} ms per stage; at most {{ limit ; .1f }} times; "
     "{{ tile ; .0f }} x {{ tile ; .0f }} tiles of {{ doubles * 8 / ring ; .0f }}, "
     "{{ workspace / 2 ** 20 ; .0f }} MiB\n", True,
     "constants read from the code"),
    (CODE + "The ring moves {{ ring / 1024 ; .0f }} GB/s.\n", False, "a rate read from the code"),
    ("<!-- figures\nn = code src/ring.cuh: kMissing\n-->\n{{ n }}\n", False,
     "a constant the code does not define"),
    ("<!-- figures\nn = code src/gone.cuh: kStages\n-->\n{{ n }}\n", False,
     "a constant of a file that does not exist"),
    # Numbers inside the strings of an expression.
    (ROWS + "{{ t.kernel + \" reaches 772 GFLOP/s\" ; s }}\n", False, "a rate in a string"),
    (ROWS + "{{ \"%.0f%% of 772\" % (100 * a.rate / t.rate) ; s }}\n", False,
     "a number in a format string"),
    (ROWS + "{{ \"parity\" if a.min_ms <= t.max_ms else \"%.0f%% of kernel 04's rate\" % "
     "(100 * a.rate / t.rate) ; s }}, {{ row(run, kernel=\"tiled\", block=\"8x8\").rate ; .0f }}\n",
     True, "words chosen by the data, a kernel's number and a selector"),
    # Not measured: only a published document, never a measurement nor a constant of the code.
    ("{{not-measured 772 ; whatever}} blocks\n", False, "not-measured with no document"),
    ("{{not-measured 1600 GFLOP/s ; NVIDIA's whitepaper}}\n", False, "a rate marked not measured"),
    ("{{not-measured 20 ; kHoldMs in driver.cu}} runs\n", False,
     "a constant of the code marked not measured"),
    ("{{not-measured 2048 ; CUDA C++ Programming Guide, compute capability 9.0}} threads per SM\n",
     True, "a limit from NVIDIA's documentation"),
    # Image captions.
    ("\\image html t.png \"The tiled kernel reaches 1600 GFLOP/s\"\n", False, "a rate in a caption"),
    ("\\image html t.png \"GFLOP/s against the tile width: the reference run and yours\"\n", True,
     "a caption with a unit and no figure"),
    # Units the list left out.
    ("The copy moves 2.6 GiB/s and 40 Gelements/s.\n", False, "rates in units of their own"),
    ("A load takes 340 cycles, the run 2 min.\n", False, "cycles and minutes"),
    ("The run used 200 J and read 3.2 GB from DRAM.\n", False, "energy and a measured volume"),
    ("The kernel does 16 flops per byte.\n", False, "an arithmetic intensity"),
    ("The kernel took 12.5\nms, the other 1.5\n   times as long.\n", False,
     "figures across a line break"),
    ("A 48 KiB stage, a 128 MiB matrix, 2 bytes per element.\n", True, "sizes of the code"),
    # Ratios in words.
    ("The kernel runs at less than half its speed.\n", False, "less than half"),
    ("That costs about a third of the speed.\n", False, "about a third"),
    ("Yours must be twice as fast; cuBLAS is three times the rate.\n", False, "twice as fast"),
    ("A tenfold gain, two orders of magnitude.\n", False, "tenfold, orders of magnitude"),
    ("Each half of B lands in both blocks; the input is read twice because a block cannot wait.\n",
     True, "half and twice that compare nothing"),
    (ROWS + "The 8 x 8 tile takes {{ a.median_ms / t.median_ms ; times }} the time.\n", True,
     "a ratio rendered in words"),
    # Code spans.
    ("The check prints `5 ms`, `1.6x` and `2x faster`.\n", False, "measured figures in code spans"),
    ("Run `--repeat 5 --max-seconds 300 --block 32x8`; "
     "`cudaEventElapsedTime(&ms, start, stop)`.\n", True,
     "code in code spans"),
    # A file's share in its mutation report.
    (f"<!-- figures\nm = mutation-report: file={SELF_TEST_GIVEN}\n-->\n{{{{ m.killed ; d }}}} of "
     "{{ m.counted ; d }} ({{ m.percent }}) killed\n", True, "a file's share in its mutation report"),
    ("<!-- figures\nm = mutation-report: file=solutions/99-none/x.cu\n-->\n{{ m.killed ; d }}\n", False,
     "a file that no mutation report holds"),
    # Another lesson, cited by its name (lessons/07-example/, its page with the anchor l07_banks).
    ("{{Lesson example}} measures it; see {{lesson example}}.\n", True, "a lesson cited by its name"),
    ("See {{lesson missing}}.\n", False, "a lesson that no folder holds"),
    ("See {{lesson 07-example}}.\n", False, "a lesson cited by its number"),
    ("See {{lesson example#banks}}, part 2.\n", True, "a section of a lesson's page"),
    ("See {{lesson example#occupancy}}.\n", False, "a section that the lesson's page does not hold"),
    ("See {{lesson example#l07_banks}}.\n", False, "a section named with its lesson's number"),
    ("Run `scripts/profile {{folder example}}-banks-exercise --bench`.\n", True,
     "a lesson's program named by the lesson's name"),
    ("Run `{{folder missing}}-exercise`.\n", False, "the program of a lesson that no folder holds"),
    ("Run `{{folder 07-example}}-exercise`.\n", False, "a lesson's folder named with its number"),
    ("<!-- figures\nt = NN-example.csv: kernel=tiled block=8x8\nr = NN-example-more.csv\n-->\n"
     "{{ t.rate ; .0f }} GFLOP/s, {{ r.date }}\n", True, "another lesson's runs, named by the lesson's name"),
    ("<!-- figures\nt = NN-missing.csv: kernel=tiled block=8x8\n-->\n{{ t.rate ; .0f }} GFLOP/s\n", False,
     "a run of a lesson that no folder holds"),
]



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
tl = tl.csv
stages = code src/ring.cuh: kStages
ring = code src/ring.cuh: kRingBytes
-->
{{ run.device }}: {{ a.median_ms ; .2f }} ms at {{ a.block }}, {{ a.median_ms / b.median_ms ; .0f }}× \
faster at {{ b.block }}, {{ b.median_ms / a.median_ms ; .0% }}, {{ a.median_ms / b.median_ms ; times }}, \
{{ b.median_ms / a.median_ms ; times }}; {{ busy_ms(rows(tl, operation="d2h")) ; .1f }} ms busy; \
{{ ring / 1024 ; .0f }} KiB in {{ stages }} stages; {{lesson example}}, {{Lesson example#banks}}; \
`{{folder example}}-exercise`."""
SELF_TEST_RENDERED = ("Test GPU: 2.50 ms at 8x8, 2× faster at 16x16, 50%, twice, half; 3.0 ms busy; "
                      "192 KiB in 4 stages; \\ref lesson07 \"lesson 07\", \\ref l07_banks \"Lesson 07\"; "
                      "`07-example-exercise`.")


def self_test(data_dir):
    import tempfile
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "src"))
        os.makedirs(os.path.join(tmp, "lessons", "07-example"))
        os.makedirs(os.path.join(tmp, "docs", "lessons"))
        for name, text in (("t.csv", SELF_TEST_CSV), ("r.csv", SELF_TEST_REPORT),
                           ("tl.csv", SELF_TEST_TIMELINE), ("src/ring.cuh", SELF_TEST_CODE),
                           ("07-example.csv", SELF_TEST_CSV), ("07-example-more.csv", SELF_TEST_CSV),
                           ("lessons/07-example/CMakeLists.txt", "workbook_lesson_manifest()\n"),
                           ("docs/lessons/07-example.md", "# Lesson 07 {#lesson07}\n## Banks {#l07_banks}\n")):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        for text, should_pass, what in SELF_TEST_CASES:
            _, errors = render(text, tmp, {}, code_root=tmp, strict=True)
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
        rendered, errors = render(SELF_TEST_PAGE, tmp, {}, code_root=tmp, strict=True)
        if rendered.strip() != SELF_TEST_RENDERED or errors:
            print(f"WRONG: rendering gave '{rendered.strip()}' ({'; '.join(errors)})")
            failures += 1
    failures += self_test_machines()
    print("FAIL" if failures else "OK: the figures check catches every planted fault")
    return 1 if failures else 0


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
