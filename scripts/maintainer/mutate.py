#!/usr/bin/env python3
"""Mutation testing of the exercises: does each student's check catch the bugs students write?

    mutate.py list SOLUTION_FILE         the mutants of one file's marked regions, with their positions
    mutate.py run --build-dir B [--only REGEX] [--files REGEX] [--kind cpu|gpu] [--pending] [--jobs N]
                  [--limit-s S] [--dry-run] [--work-dir D --keep-workers] [--state FILE] [--deadline-s S]
                  [--write-state]
                  [--check-committed]    judge the mutants, write the reports
    mutate.py verify                     every report is complete, current, judged and meets the goal

The code under test is a reference solution's marked regions (between "// >>> TODO n" or
"// >>> FIX" and the matching "// <<<" line); the test suite is the student's own check,
`scripts/check` (scripts/progress check). Every mutant is built: one small change at one place
of one region (each line, each match on the line; two identical lines give a mutant each). Only
changes that make the very same program are one mutant (a statement moved past its neighbour
and that neighbour moved back past it). `run` writes the solution with the change over the
exercise file in a copy of the course whose other exercise files are solved, and runs
`scripts/progress check EXERCISE` there, with WB_STOP_AT_FIRST_WRONG=1 where the check is one
process: its first wrong case ends it, FAILED (wb::CheckTally), the whole check's verdict since
no later case can undo it, sooner. A given file (under solutions/ only, built into the
lesson's programs: GIVEN in its manifest) may mark the parts its lesson's check must guard with
"// >>> MUTATED: what" ... "// <<< MUTATED"; its mutants are written over the file itself and
judged by the check of the lesson's first exercise. A mutant is

  killed     the check said FAILED with a message (wrong element, a crash or a time limit it
             names, a CUDA error), within the check's own time limit; or, in a GPU exercise whose
             check passed, compute-sanitizer found an error (below);
  survived   the check PASSED and compute-sanitizer found nothing, or the check ended some other
             way (no verdict, or stopped from outside after the time limit plus a margin: a hang
             is a survivor);
  stillborn  the mutant does not compile (not counted);
  pending    not judged yet: a row that waits for a run where its check can run (`run --pending`);
  skipped    the check could not run here (no GPU, too few GPUs), or compute-sanitizer cannot
             judge it (below): the lesson's report is not written.

compute-sanitizer. When a GPU exercise's check passes, the small case of each program built
from the mutated file (its SANITIZE_ARGS: the "sanitize" rows of <build>/gpu-jobs.txt, with the
program's sanitizer options) runs under memcheck and under initcheck, as scripts/gpu-check.sh runs
the solutions (WORKBOOK_CHECK_TIME_SCALE=20). A finding (exit 99: an access outside an allocation
of global, shared or local memory, a read of global memory that nothing wrote, a failed CUDA call)
kills the mutant; its detail is the tool's first error line. Only a finding kills: a check that
fails under a tool without one (the tool slows it past a limit) is no verdict on the mutant.
The tools run in the copies of the first workers alone, one per GPU (a mutant whose check passed
in another copy waits for one of them): the programs come from a second build folder of such a
copy, configured with -G (device code not optimised), compiled there rather than in every copy: an
optimised build may delete an access whose value nothing uses, or one that is undefined
behaviour, and the finding with it; with -G every access the source makes is made.
A -G program is trusted only when the solved program passes under both tools in that folder
(it may not compile, need more registers than the kernel may have, or run past a time limit):
else the release build is used, where the solved program must pass under both tools, or the
lesson's survivors are skipped. Neither build shows a write or read one element past an array in registers or
local memory (it stays inside the thread's own stack), a read of shared memory that nothing
wrote (initcheck watches global memory only) or a race (racecheck belongs to the check of the
lessons that ask for it): such a mutant stays a survivor, with its reason.

GPUs. The workers build side by side; a GPU exercise's check and its sanitizer runs hold GPUs
of their own, one per rank of the exercise's checks (lesson 08's NAME.exercise-2ranks: two), so
that checks of other workers run on the other GPUs at the same time (CUDA_VISIBLE_DEVICES; the
GPUs are those of `nvidia-smi -L`, or those CUDA_VISIBLE_DEVICES names). A check shares its GPU
only with --gpu-share n (n checks at once on each GPU), and never a check that times a kernel
against a baseline (it must have the GPU to itself), one of several ranks, or a sanitizer run; a
check that ran out of time beside others is judged again on a GPU alone. Each judged mutant's
line in the output ends with the seconds its check and its tools took (of a GPU check's, those
spent building its lesson and waiting for a GPU).

The reports. One per lesson, solutions/NN-name/mutation-report.tsv (read by
scripts/lib/mutation_report.py), with a row for every mutant: its file, line, position, operator,
the changed line, outcome, detail (the first line of the check's message, or why it survived)
and reason. A row is keyed by the file, the operator and the position: the mutant's line as the
how-manieth line of code of the file's marked regions (from 0), a colon and the column of the
change on that line, and ">N" for the other line of a move or an exchange. The report keys each
file's rows by the sha256 of the code in its marked regions; comments and blank lines are left
out of both, so editing them keeps a report current. A survivor needs a reason in its last
column: "equivalent: why" (the same results for every valid input and no undefined behaviour;
a reason that speaks of undefined behaviour, of speed or of time is refused: a mutant that is
only slower stays a survivor unless a speed check kills it) or "not killed: what the check does
not see". `run` keeps the reasons of survivors it finds again; `run --pending` judges only the
mutants without a judged row (new ones, pending ones, those of a file whose regions changed) and
keeps the other rows.

`verify` rebuilds each file's mutants from the sources and fails when a report is missing or
stale (the regions changed), a mutant has no row or several, a row names no mutant, a row is
pending (unless the lesson's page states the file's share and how many wait: the placeholder's
pending_note, below), a survivor has no reason or an "equivalent" reason that the rule above refuses, a
"# summary" line differs from the one its rows give, or a file has fewer than 95% of its
non-equivalent mutants killed. A given file (no exercise) may stay below 95% only when its
lesson's page states its share from the report (page-figures.py: a name bound to
"mutation-report: file=FILE" used by a placeholder); an exercise file never may.

The report lives beside the solution because it quotes the solution's lines.
"""

import argparse
import collections
import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The course whose reports these are (the self-test points it at a small one), and the course
# whose tools this script uses.
ROOT = TOOLS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The course's one reader of the mutation reports (scripts/lib/mutation_report.py).
sys.path.insert(0, os.path.join(TOOLS, "scripts", "lib"))
import mutation_report  # noqa: E402  (after the path to it)
import exercise_list  # noqa: E402
from exercise_list import exercise_of, solution_of  # noqa: E402
from mutation_report import GOAL, KILLED, PENDING, STILLBORN, SURVIVED, share_text  # noqa: E402

OPEN = re.compile(r"^\s*// >>> (TODO [0-9A-Za-z][0-9A-Za-z.-]*|FIX|MUTATED):")
CLOSE = re.compile(r"^\s*// <<< (TODO [0-9A-Za-z][0-9A-Za-z.-]*|FIX|MUTATED)\s*$")
SKIPPED = "skipped"


def load_tool(path, name):
    """A Python tool of the course (a file whose name has hyphens) as a module."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOOLS, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- the regions ----------------------------------------------------------------------------

def marked_regions(lines):
    """[(first line index, last line index)] of the code between each pair of markers (0-based,
    inclusive; the marker lines themselves excluded)."""
    regions, start = [], None
    for number, line in enumerate(lines):
        if OPEN.match(line):
            start = number + 1
        elif CLOSE.match(line) and start is not None:
            if number > start:
                regions.append((start, number - 1))
            start = None
    return regions


def without_comment(line):
    """The line without its // (or trailing /* ...) comment and trailing spaces; string and
    character literals are kept whole."""
    return line[:scan_line(line)[1]].rstrip()


def regions_hash(path):
    """sha256 of the code of a file's marked regions, the report's key. Comments and blank lines
    are left out: they change no mutant and no outcome, so editing them keeps a report current."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    digest = hashlib.sha256()
    for first, last in marked_regions(lines):
        code = [without_comment(l) for l in lines[first:last + 1]]
        digest.update("\n".join(l for l in code if l.strip()).encode() + b"\n\0")
    return digest.hexdigest()


# ---- the mutants --------------------------------------------------------------------------

def scan_line(line):
    """(mask, comment start): mask[i] is True where the character is code (not in a comment or a
    string or character literal); the comment, if any, starts at that index (else len(line))."""
    mask = [True] * len(line)
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            mask[i] = False
            if c == "\\":
                if i + 1 < len(line):
                    mask[i + 1] = False
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            mask[i] = False
        elif line.startswith("//", i) or line.startswith("/*", i):
            for j in range(i, len(line)):
                mask[j] = False
            return mask, i
        i += 1
    return mask, len(line)


def code_mask(line):
    """A list of booleans: True where the character is code (not in a // comment or a string
    or character literal)."""
    return scan_line(line)[0]


def is_code(line):
    mask = code_mask(line)
    return any(m and not ch.isspace() for m, ch in zip(mask, line))


# (operator name, regex on code, replacement): one mutant per match. The regexes look at the
# characters around an operator so that "+" does not match inside "++" or "+=".
REPLACEMENTS = [
    ("arith + to -", r"(?<=[\w)\]\s])\+(?=[\s\w(])(?!\+)", "-"),
    ("arith - to +", r"(?<=[\w)\]]\s)-(?=\s)", "+"),
    ("arith * to /", r"(?<=[\w)\]]\s)\*(?=\s)", "/"),
    ("arith / to *", r"(?<=[\w)\]]\s)/(?=\s)", "*"),
    ("arith / to %", r"(?<=[\w)\]]\s)/(?=\s)", "%"),
    ("arith % to /", r"(?<=[\w)\]]\s)%(?=\s)", "/"),
    ("compound += to -=", r"\+=", "-="),
    ("compound += to =", r"\+=", "="),
    ("compound -= to +=", r"-=", "+="),
    ("compound *= to /=", r"\*=", "/="),
    ("increment ++ to --", r"\+\+", "--"),
    ("decrement -- to ++", r"--", "++"),
    # Comparisons stand between spaces (the code is clang-formatted), unlike template brackets.
    ("compare < to <=", r"(?<=\s)<(?=\s)", "<="),
    ("compare <= to <", r"(?<=\s)<=(?=\s)", "<"),
    ("compare > to >=", r"(?<=\s)>(?=\s)", ">="),
    ("compare >= to >", r"(?<=\s)>=(?=\s)", ">"),
    ("compare == to !=", r"==", "!="),
    ("compare != to ==", r"!=", "=="),
    ("logic && to ||", r"&&", "||"),
    ("logic || to &&", r"\|\|", "&&"),
    ("shift << to >>", r"(?<![<])<<(?![<=])", ">>"),
    ("shift >> to <<", r"(?<![>])>>(?![>=])", "<<"),
    ("bit & to |", r"(?<=\s)&(?=\s)", "|"),
    ("bit ^ to |", r"(?<=\s)\^(?=\s)", "|"),
    ("negate !x", r"!(?=[\w(])(?!=)", ""),
    ("component .x to .y", r"\.x\b", ".y"),
    ("component .y to .x", r"\.y\b", ".x"),
    ("float 0.0 to 1.0", r"\b0\.0f?\b", "1.0"),
    ("bool true to false", r"\btrue\b", "false"),
    ("bool false to true", r"\bfalse\b", "true"),
    ("sync removed __syncthreads", r"__syncthreads\(\)", "(void)0"),
    ("sync removed __syncwarp", r"__syncwarp\([^)]*\)", "(void)0"),
    ("fence removed", r"__threadfence(_block|_system)?\(\)", "(void)0"),
    ("parity flipped", r"\b(\w*(parity|phase)\w*)\b(?!\s*[=(\[])", r"(\1 ^ 1)"),
]

# Pairs of names that a student may exchange: every occurrence of one becomes the other on the
# line (indices exchanged).
EXCHANGES = [("row", "col"), ("i", "j"), ("j", "k"), ("i", "k"), ("x", "y"), ("tx", "ty"), ("lane", "warp"),
             ("rows", "cols"), ("width", "height"), ("send", "recv"), ("up", "down"), ("top", "bottom"),
             ("above", "below"), ("first", "last")]

INTEGER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
SYNC_CALLS = re.compile(r"\b(cudaDeviceSynchronize|cudaStreamSynchronize|cudaEventSynchronize|cudaStreamWaitEvent|"
                        r"cudaEventRecord|__syncthreads|__syncwarp|__threadfence\w*|ncclGroupStart|ncclGroupEnd|"
                        r"ncclSend|ncclRecv|MPI_\w+|\w*wait\w*|\w*arrive\w*|\w*fence\w*|\w*commit\w*)\s*\(")
STREAM_ARG = re.compile(r"<<<([^<>]*?),\s*([\w.\[\]]+)\s*>>>")
FOR_HEADER = re.compile(r"\bfor\s*\((?:[^()]|\([^()]*\))*\)")


class Mutant:
    def __init__(self, file, line, operator, original, mutated, column=0):
        self.file, self.line, self.operator = file, line, operator  # line: 1-based
        self.original, self.mutated = original, mutated
        self.column = column  # where on the line the change is
        self.extra = {}  # other lines changed (line index -> text), for moves and swaps
        self.position = ""  # set by file_mutants: "code line:column[>other code line]"
        self.outcome, self.reason, self.detail = "", "", ""
        self.seconds = {}  # the seconds its check and its tools took (Worker.run, Worker.run_tools)

    @property
    def key(self):
        """The mutant's key in the report and the state file: file, position and operator."""
        return f"{self.file}|{self.position}|{self.operator}"

    def changes(self):
        """The lines this mutant writes, as a set: two mutants with the same set are the same program."""
        return frozenset([(self.line - 1, self.mutated), *self.extra.items()])

    def apply(self, lines):
        out = list(lines)
        out[self.line - 1] = self.mutated
        for index, text in self.extra.items():
            out[index] = text
        return out


def replace_at(line, start, end, text):
    return line[:start] + text + line[end:]


def in_code(mask, start, end):
    return all(mask[start:end])


def line_mutants(path, number, line):
    """The one-line mutants of a line of code."""
    mask = code_mask(line)
    found = []  # (operator, mutated line, column of the change)
    for name, pattern, replacement in REPLACEMENTS:
        for m in re.finditer(pattern, line):
            if not in_code(mask, m.start(), m.end()):
                continue
            found.append((name, replace_at(line, m.start(), m.end(), m.expand(replacement)), m.start()))
    for m in INTEGER.finditer(line):
        if not in_code(mask, m.start(), m.end()):
            continue
        value = int(m.group(1))
        for delta in (+1, -1):
            if value + delta >= 0:
                found.append((f"constant {value} to {value + delta}",
                              replace_at(line, m.start(), m.end(), str(value + delta)), m.start()))
    for a, b in EXCHANGES:
        names = re.compile(r"\b(%s|%s)\b" % (re.escape(a), re.escape(b)))
        hits = [m for m in names.finditer(line) if in_code(mask, m.start(), m.end())]
        if {m.group(1) for m in hits} == {a, b} or (hits and len(hits) < 3 and any(h.group(1) == a for h in hits)):
            swapped = line
            for m in reversed(hits):
                swapped = replace_at(swapped, m.start(), m.end(), b if m.group(1) == a else a)
            if swapped != line:
                found.append((f"exchange {a} and {b}", swapped, hits[0].start()))
    m = STREAM_ARG.search(line)
    if m and in_code(mask, m.start(), m.end()) and m.group(1).count(",") >= 2:
        found.append(("stream argument removed", replace_at(line, m.start(), m.end(), "<<<" + m.group(1) + ">>>"),
                      m.start()))
    code = without_comment(line).strip()  # a comment after the statement changes no mutant
    indent = line[:len(line) - len(line.lstrip())]
    if code.endswith(";") and not code.startswith(("return", "}", "{")):
        found.append(("statement deleted", indent + "// (deleted) " + line.strip(), len(indent)))
    seen, mutants = set(), []
    for name, text, column in found:
        if text != line and text not in seen:  # two changes that write the same line are one mutant
            seen.add(text)
            mutants.append(Mutant(path, number, name, line, text, column))
    return mutants


def region_mutants(path, lines, first, last):
    """Mutants of one region: every line's own, then synchronisations moved past the next or
    previous statement, then two loop headers exchanged (another loop order)."""
    mutants = []
    code = [n for n in range(first, last + 1) if is_code(lines[n])]
    for n in code:
        mutants += line_mutants(path, n + 1, lines[n])
    # What follows reads the code of each line, its comment left out (positions are the same).
    statement = {n: without_comment(lines[n]) for n in code}
    for position, n in enumerate(code):
        if not SYNC_CALLS.search(statement[n]) or not statement[n].strip().endswith(";"):
            continue
        for other in (code[position - 1] if position > 0 else None,
                      code[position + 1] if position + 1 < len(code) else None):
            if other is None or not statement[other].strip().endswith(";") or lines[other] == lines[n]:
                continue
            mutant = Mutant(path, n + 1, "synchronisation moved", lines[n], lines[other],
                            len(lines[n]) - len(lines[n].lstrip()))
            mutant.extra = {other: lines[n]}
            mutants.append(mutant)
    headers = [(n, m) for n in code for m in [FOR_HEADER.search(statement[n])] if m]
    for a in range(len(headers)):
        for b in range(a + 1, len(headers)):
            (na, ma), (nb, mb) = headers[a], headers[b]
            if ma.group(0) == mb.group(0):
                continue
            mutant = Mutant(path, na + 1, "loop order exchanged", lines[na],
                            replace_at(lines[na], ma.start(), ma.end(), mb.group(0)), ma.start())
            mutant.extra = {nb: replace_at(lines[nb], mb.start(), mb.end(), ma.group(0))}
            mutants.append(mutant)
    return mutants


def code_line_numbers(lines):
    """{line index: its number among the lines of code of the marked regions, from 0}: the lines
    that regions_hash reads (comments and blank lines left out), so a number changes only when
    the hash does."""
    numbers = {}
    for first, last in marked_regions(lines):
        for n in range(first, last + 1):
            if without_comment(lines[n]).strip():
                numbers[n] = len(numbers)
    return numbers


def file_mutants(path):
    """Every mutant of a solution file's marked regions, each with its position; `path` relative
    to the course. Changes that make the same program (a statement moved down past its
    neighbour, and that neighbour moved up past it) are one mutant, the first."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    numbers = code_line_numbers(lines)
    mutants, programs, keys = [], set(), set()
    for first, last in marked_regions(lines):
        for mutant in region_mutants(path, lines, first, last):
            if mutant.changes() in programs:
                continue
            programs.add(mutant.changes())
            mutant.position = f"{numbers[mutant.line - 1]}:{mutant.column}" + \
                "".join(f">{numbers[index]}" for index in sorted(mutant.extra))
            if mutant.key in keys:
                raise RuntimeError(f"two mutants with the key {mutant.key}")
            keys.add(mutant.key)
            mutants.append(mutant)
    return mutants, lines


# ---- the reports --------------------------------------------------------------------------

def report_path(lesson):
    return mutation_report.report_path(ROOT, lesson)


def mutant_text(mutant):
    """How the report shows a mutant: the changed line (and the other line it moved or swapped)."""
    text = mutant.mutated.strip()
    for index, other in sorted(mutant.extra.items()):
        text += f"  [line {index + 1}: {other.strip()}]"
    return text


def read_report(lesson):
    """The committed report of a lesson (mutation_report.Report), or None when it has none."""
    return mutation_report.read(report_path(lesson))


def row_key(row):
    return f"{row['file']}|{row['position']}|{row['operator']}"


def mutant_row(mutant):
    return {"file": mutant.file, "line": str(mutant.line), "position": mutant.position, "operator": mutant.operator,
            "mutant": mutant_text(mutant), "outcome": mutant.outcome, "detail": mutant.detail,
            "reason": mutant.reason if mutant.outcome == SURVIVED or mutant.outcome == PENDING else ""}


def current_rows(report, file):
    """{key: row} of a file's rows in a report, when its regions are still those the report was
    written for; {} for a missing report or file and for a stale one (its rows are of other code)."""
    if report is None or report.hashes.get(file) != regions_hash(os.path.join(ROOT, file)):
        return {}
    return {row_key(r): r for r in report.rows if r["file"] == file}


def write_report(lesson, judged):
    """Writes the lesson's report: the rows of the files in `judged` ({file: its mutants, each
    with its outcome, detail and reason}) and, as they were, those of the lesson's other files
    (measured by another run, e.g. on another machine) that still exist. Returns the rows."""
    old = read_report(lesson)
    old_hashes = old.hashes if old else {}
    kept = [f for f in sorted(old_hashes) if f not in judged and os.path.exists(os.path.join(ROOT, f))]
    rows = []
    for file in sorted(kept + list(judged)):  # in file order, whichever files this run judged
        rows += [mutant_row(m) for m in judged[file]] if file in judged else [r for r in old.rows if r["file"] == file]
    digests = {f: old_hashes[f] for f in kept}
    digests.update({f: regions_hash(os.path.join(ROOT, f)) for f in judged})
    lines = [f"# Mutation report of lesson {lesson}: written by scripts/maintainer/mutate.py run, one row per",
             "# mutant. The last column says why a survivor is not a missed bug (\"equivalent: ...\") or what",
             "# the check does not see (\"not killed: ...\"). Keyed by the sha256 of the code (comments",
             "# left out) in each file's marked regions:"]
    for file in sorted(digests):
        lines.append(f"# regions {file} {digests[file]}")
    tallies = mutation_report.tally(rows)
    for file in sorted(digests):
        lines.append(mutation_report.summary_line(file, tallies.get(file, mutation_report.Tally())))
    lines.append("\t".join(mutation_report.HEADER))
    for row in rows:
        lines.append("\t".join(mutation_report.escape(row[h]) for h in mutation_report.HEADER))
    with open(report_path(lesson), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return rows


# ---- running the checks -------------------------------------------------------------------

def read_exercises(build_dir):
    exercises = exercise_list.read_list(build_dir)
    if exercises is None:
        sys.exit(f"mutate: {exercise_list.list_path(build_dir)} not found: configure the course first")
    return exercises


class Gpus:
    """The machine's GPUs. hold(n) waits, in the order asked, until n GPUs can take one more
    check and gives their ids; env() is the environment that shows a program only those
    (CUDA_VISIBLE_DEVICES). A GPU runs up to `share` checks at once (--gpu-share: the checks of
    exercises that time nothing, whose programs leave most of a large GPU idle while the CPU
    computes their references); hold(n, alone=True) waits until n GPUs run nothing and holds
    them alone (a check that times its code against a baseline, the sanitizers, a check of
    several ranks). Without a GPU there is one slot and the environment is left as it is."""

    def __init__(self, ids, share=1):
        self.ids = list(ids) or [None]
        self.share = max(1, share)
        self.running = {gpu: 0 for gpu in self.ids}  # checks on each GPU
        self.alone = set()                            # GPUs held alone
        self.changed = threading.Condition()
        self.next_ticket, self.serving = 0, 0

    def takers(self, alone):
        """The GPUs that can take one more check (alone: one that runs nothing), least busy first."""
        fits = [g for g in self.ids if g not in self.alone and
                (self.running[g] == 0 if alone else self.running[g] < self.share)]
        return sorted(fits, key=lambda g: self.running[g])

    @staticmethod
    def of_machine():
        """The GPUs that CUDA_VISIBLE_DEVICES names, else those `nvidia-smi -L` lists."""
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").strip()
        if visible:
            return Gpus([v.strip() for v in visible.split(",") if v.strip()])
        try:
            listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            listing = ""
        return Gpus([str(i) for i in range(len(re.findall(r"^GPU \d+", listing, re.M)))])

    @contextlib.contextmanager
    def hold(self, count, alone=True):
        count = max(1, min(count, len(self.ids)))
        alone = alone or count > 1 or self.share == 1
        with self.changed:
            ticket = self.next_ticket
            self.next_ticket += 1
            while self.serving != ticket or len(self.takers(alone)) < count:
                self.changed.wait()
            taken = self.takers(alone)[:count]
            for gpu in taken:
                self.running[gpu] += 1
                if alone:
                    self.alone.add(gpu)
            self.serving += 1
            self.changed.notify_all()
        try:
            yield taken
        finally:
            with self.changed:
                for gpu in taken:
                    self.running[gpu] -= 1
                    self.alone.discard(gpu)
                self.changed.notify_all()

    @staticmethod
    def env(taken):
        if None in taken:
            return dict(os.environ)
        return dict(os.environ, CUDA_VISIBLE_DEVICES=",".join(taken))


def stop_at_first_wrong(env, ranks):
    """ENV with WB_STOP_AT_FIRST_WRONG=1 (wb::CheckTally: the first wrong case ends the check,
    FAILED), for a check of one process: its verdict is the whole check's, found sooner. A check of
    several ranks runs whole, so that no rank waits for one that has left."""
    return dict(env, WB_STOP_AT_FIRST_WRONG="1") if ranks == 1 else env


# How many compilers each worker runs at once: the machine's cores shared among the workers, so
# that few workers (one GPU keeps few busy) still build their first copies with every core.
BUILD_JOBS = 1

# The GPUs the workers share (made by command_run; the self-test sets its own).
GPUS = Gpus([None])

# The exercise programs whose checks time their code (exercise_list.speed_check_rows): they hold
# a GPU alone (made by command_run).
TIMED = set()


def ran_out_of_time(code, output):
    """Whether a check ended at a time limit: stopped from outside, or its own limit's verdict."""
    return code is None or "the check did not finish within" in output

# compute-sanitizer's exit code for a finding, the tools that judge a surviving GPU mutant, and
# the time scale of the check's limits under them (scripts/gpu-check.sh's sanitizer step).
FINDING_EXIT = 99
SANITIZER_TOOLS = ("memcheck", "initcheck")
SANITIZER_TIME_SCALE = "20"
RACES = load_tool("scripts/lib/check-with-races.py", "check_with_races")  # run_bounded, sanitizer()


def first_finding(output):
    """compute-sanitizer's first error line ("Invalid __global__ write of size 4 bytes"), with the
    source line it names when it names one."""
    lines = output.splitlines()
    for number, line in enumerate(lines):
        said = re.match(r"=+ (\S.*)", line)
        if not said or re.match(r"COMPUTE-SANITIZER|ERROR SUMMARY|LEAK SUMMARY|Target application", said.group(1)):
            continue
        where = next((m for l in lines[number + 1:number + 4] for m in [re.search(r" in (\S+?):(\d+)", l)] if m), None)
        return said.group(1).strip() + (f" ({os.path.basename(where.group(1))}:{where.group(2)})" if where else "")
    return "an error without a message"


# Worker.run's answer where a GPU mutant passed its check and the tools are another worker's.
LEFT_FOR_TOOLS = "left for the tools"


class JobBoard:
    """The jobs of a run, shared by the workers: each worker's slice of the mutants to check
    (split_among), and the GPU mutants whose check passed, waiting for compute-sanitizer. Only
    the first `tool_workers` workers run the tools (one per GPU: a sanitizer run holds its GPU
    alone), so that those copies of the course, not every one, compile the -G programs and run
    the solved program under the tools first. They take those mutants before their own checks,
    and while other workers still check they wait for more rather than leave. No job is given
    after `deadline_s` (0: none) or after stop()."""

    def __init__(self, jobs, count, deadline_s=0, tool_workers=1):
        self.queues = split_among(jobs, count)
        self.for_tools = collections.deque()
        self.tool_workers = max(1, min(tool_workers, count))
        self.checkers = count - self.tool_workers  # the other workers that have not left
        self.stopped = False
        self.changed = threading.Condition()
        self.started, self.deadline_s = time.monotonic(), deadline_s

    def runs_tools(self, index):
        return index < self.tool_workers

    def past_deadline(self):
        return bool(self.deadline_s) and time.monotonic() - self.started > self.deadline_s

    def take(self, index):
        """("tools" or "check", job) for worker `index`, or None when it has nothing left to do."""
        with self.changed:
            while True:
                if self.stopped or self.past_deadline():
                    return None
                if self.runs_tools(index) and self.for_tools:
                    return "tools", self.for_tools.popleft()
                if self.queues[index]:
                    return "check", self.queues[index].popleft()
                longest = max(self.queues, key=len)
                if longest:  # a worker whose slice is done takes jobs from the end of the longest
                    return "check", longest.pop()
                if not self.runs_tools(index) or self.checkers == 0:
                    return None
                self.changed.wait(timeout=1)

    def leave_for_tools(self, job):
        with self.changed:
            self.for_tools.append(job)
            self.changed.notify_all()

    def leaving(self, index):
        """Worker `index` leaves (done, or stopped by an error)."""
        with self.changed:
            if not self.runs_tools(index):
                self.checkers -= 1
            self.changed.notify_all()

    def stop(self):
        with self.changed:
            self.stopped = True
            self.changed.notify_all()


class Worker:
    """A copy of the course with every exercise file of the chosen exercises solved, and its
    own build folder, so that several mutants build and run side by side. A folder left by an
    earlier run is reused: only the files whose content changed are rewritten, so its build
    stays current (a long run can go on in a later call, on the same machine). A second build
    folder, configured with -G, is made when a GPU mutant first needs compute-sanitizer."""

    def __init__(self, folder, exercises, cmake_args, tools_build="debug"):
        self.folder, self.tree, self.build = folder, os.path.join(folder, "tree"), os.path.join(folder, "build")
        self.tools_build = tools_build  # "release": the tools judge in the release build only
        self.debug_build = os.path.join(folder, "build-debug")
        self.exercises, self.cmake_args = exercises, cmake_args
        self.ready = set()  # exercises whose solved copy passed its check in this folder
        self.prepared = False
        self.tests = None  # the names of the tests of the build folder
        self.sanitizer_builds = {}  # (programs) -> (build folder, its name) trusted for them
        self.parts = {}  # the seconds of the parts of the mutant's check so far (add_part)

    def prepare(self):
        """Copies (or refreshes) the course and configures it; run in the worker's own thread."""
        if self.prepared:
            return
        fresh = os.path.join(self.folder, "fresh")
        copy = subprocess.run(["bash", os.path.join(ROOT, "scripts", "maintainer", "copy-course.sh"), ROOT, fresh],
                              capture_output=True, text=True)
        if copy.returncode != 0:
            raise RuntimeError("cannot copy the course: " + copy.stderr)
        for exercise in self.exercises:
            for file in exercise.files:
                shutil.copyfile(os.path.join(ROOT, solution_of(file)), os.path.join(fresh, file))
        sync_by_content(fresh, self.tree)
        shutil.rmtree(fresh, ignore_errors=True)
        error = self.configure(self.build, [])
        if error:
            raise RuntimeError("configure failed:\n" + error)
        self.prepared = True

    def configure(self, build, options):
        """Configures a build folder of the copy (once); the configure's output when it failed."""
        if os.path.exists(os.path.join(build, "CMakeCache.txt")):
            return None
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        configure = subprocess.run(["cmake", "-S", self.tree, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                                    "-DWORKBOOK_MAINTAINER_TESTS=OFF", *options, *self.cmake_args],
                                   capture_output=True, text=True)
        return None if configure.returncode == 0 else configure.stdout[-2000:] + configure.stderr[-2000:]

    def checked(self, exercise):
        """The exercises that `scripts/progress check NAME` checks (exercise_list.checked_by)."""
        return exercise_list.checked_by(exercise.name, self.exercises)

    def gpus_used(self, exercise):
        """How many GPUs the exercise's checks use: one per rank of its multi-rank checks
        (NAME.exercise-2ranks), else one."""
        if self.tests is None:
            listing = subprocess.run(["ctest", "--test-dir", self.build, "-N"], capture_output=True, text=True)
            self.tests = set(re.findall(r"Test +#\d+: (\S+)", listing.stdout))
        ranks = [int(m.group(1)) for e in self.checked(exercise) for t in self.tests
                 for m in [re.fullmatch(re.escape(e.name) + r"\.exercise-(\d+)ranks", t)] if m]
        return max(ranks, default=1)

    def holds_alone(self, exercise):
        """Whether the exercise's check holds its GPUs alone even with --gpu-share: it times its
        code, or it runs several ranks (Gpus.hold)."""
        return GPUS.share == 1 or exercise.target_id in TIMED or self.gpus_used(exercise) > 1

    def check(self, exercise, limit_s, alone=False):
        """Runs the student's check; returns (exit code or None when stopped, output). A GPU
        exercise's programs are built first, side by side with the other workers, and its check
        then runs on a GPU it shares with at most GPUS.share - 1 other checks, or holds alone
        (`alone`, a check that times its code, a check of several ranks: GPUS)."""
        command = [sys.executable, os.path.join(self.tree, "scripts", "progress"), "check", exercise.name,
                   "--build-dir", self.build, "--no-bench", "--jobs", "1"]
        if exercise.kind == "gpu":
            begun = time.monotonic()
            built = self.build_lesson(exercise)
            self.add_part("build", begun)
            if built:
                gpus = self.gpus_used(exercise)
                asked = time.monotonic()
                with GPUS.hold(gpus, alone or self.holds_alone(exercise)) as taken:
                    self.add_part("GPU wait", asked)
                    return self.run_check(command + ["--no-build"], limit_s,
                                          stop_at_first_wrong(Gpus.env(taken), gpus))
        return self.run_check(command, limit_s, stop_at_first_wrong(dict(os.environ), 1))

    def add_part(self, part, begun):
        """Adds the seconds since `begun` to this mutant's part (of its check's time): where a long
        run of GPU mutants spends it, building or waiting for a GPU."""
        self.parts[part] = self.parts.get(part, 0.0) + time.monotonic() - begun

    def build_targets(self, build, targets):
        built = subprocess.run(["cmake", "--build", build, "-j", str(BUILD_JOBS), "--target", *targets],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return built.returncode == 0

    def build_lesson(self, exercise):
        """Builds the exercise programs of the exercise's lesson (what its check runs); False when
        one does not compile (the check then builds them again and reports it)."""
        return self.build_targets(self.build, [e.target_id + "-exercise" for e in self.exercises
                                               if e.lesson == exercise.lesson])

    def run_check(self, command, limit_s, env=None):
        try:
            result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    timeout=limit_s, cwd=self.tree, env=env)
            return result.returncode, result.stdout
        except subprocess.TimeoutExpired as stopped:
            subprocess.run(["pkill", "-KILL", "-f", self.build + "/bin/"], capture_output=True)
            output = stopped.stdout.decode(errors="replace") if isinstance(stopped.stdout, bytes) else (stopped.stdout or "")
            return None, output

    def baseline(self, exercise, limit_s):
        """The solved copy must pass before its mutants mean anything (this also builds it)."""
        if exercise.name in self.ready:
            return
        code, output = self.check(exercise, limit_s)
        if code != 0:
            raise RuntimeError(f"the solved course fails {exercise.name} (exit {code}):\n{output[-1500:]}")
        self.ready.add(exercise.name)

    def run(self, exercise, mutant, lines, limit_s, tools_here=True):
        """Judges a mutant by the student's check, and a GPU mutant that passes it by the tools too
        (sanitize); returns LEFT_FOR_TOOLS, its outcome unset, where the tools are another worker's
        (tools_here False: JobBoard)."""
        with self.mutated(mutant, lines):
            begun = time.monotonic()
            self.parts = {}
            code, output = self.check(exercise, limit_s)
            mutant.outcome, mutant.detail = judge(code, output)
            if exercise.kind == "gpu" and not self.holds_alone(exercise) and ran_out_of_time(code, output):
                # Beside other checks it may only have been slower: judged again on a GPU of its own.
                code, output = self.check(exercise, limit_s, alone=True)
                mutant.outcome, mutant.detail = judge(code, output)
            mutant.seconds["check"] = time.monotonic() - begun
            mutant.seconds.update((f"of which {part}", seconds) for part, seconds in self.parts.items())
            if code == 0 and exercise.kind == "gpu":
                if not tools_here:
                    mutant.outcome, mutant.detail = "", ""
                    return LEFT_FOR_TOOLS
                self.judge_by_tools(exercise, mutant, lines, limit_s)
        return mutant

    def run_tools(self, exercise, mutant, lines, limit_s):
        """compute-sanitizer on a GPU mutant whose check passed in another worker's copy."""
        with self.mutated(mutant, lines):
            self.judge_by_tools(exercise, mutant, lines, limit_s)
        return mutant

    def judge_by_tools(self, exercise, mutant, lines, limit_s):
        begun = time.monotonic()
        mutant.outcome, mutant.detail = self.sanitize(exercise, mutant, lines, limit_s)
        mutant.seconds["tools"] = time.monotonic() - begun

    @contextlib.contextmanager
    def mutated(self, mutant, lines):
        """The mutant in this copy's file for the while, the solved file back after."""
        target = os.path.join(self.tree, file_under_test(mutant))
        with open(target, "w", encoding="utf-8") as f:
            f.write("\n".join(mutant.apply(lines)))
        try:
            yield
        finally:
            shutil.copyfile(os.path.join(ROOT, mutant.file), target)

    # -- compute-sanitizer on a GPU mutant whose check passed --

    def sanitized_programs(self, exercise, mutant):
        """[(program, arguments, sanitizer options)]: the small case of every GPU program of the
        check built from the mutated file (all of them for a given file), from gpu-jobs.txt."""
        jobs, options = {}, {}
        with open(os.path.join(self.build, "gpu-jobs.txt"), encoding="utf-8") as f:
            for line in f:
                kind, _, rest = line.rstrip("\n").partition(" ")
                program, _, words = rest.partition(" ")
                if kind == "sanitize":
                    jobs[program] = words.split()
                elif kind == "sanitizer-options":
                    options[program] = words.split()
        checked = self.checked(exercise)
        built_from = [e for e in checked if file_under_test(mutant) in e.files] or checked
        return [(e.target_id + "-exercise", jobs[e.target_id + "-solution"], options.get(e.target_id + "-solution", []))
                for e in built_from if e.target_id + "-solution" in jobs]

    def run_tool(self, build, tool, program, limit_s):
        """(exit code or None when it ran past limit_s, output) of one program's small case under a tool."""
        name, arguments, options = program
        executable = os.path.join(build, "bin", name)
        if not os.path.exists(executable):
            return -1, f"{executable} was not built"
        command = [RACES.sanitizer(), "--tool", tool, "--error-exitcode", str(FINDING_EXIT), "--print-limit", "3",
                   *options, executable, *arguments]
        with GPUS.hold(1) as taken:
            env = dict(Gpus.env(taken), WORKBOOK_CHECK_TIME_SCALE=SANITIZER_TIME_SCALE)
            try:
                result = RACES.run_bounded(command, env, limit_s, cwd=build)
            except OSError as error:
                return -1, f"compute-sanitizer could not start: {error}"
        return (None, "") if result is None else (result.returncode, result.stdout)

    def clean(self, build, programs, limit_s):
        return all(self.run_tool(build, tool, p, limit_s)[0] == 0 for p in programs for tool in SANITIZER_TOOLS)

    def sanitizer_build(self, programs, mutant, lines, limit_s):
        """(build folder, its name) whose programs the tools judge: the -G build where the solved
        programs pass under both tools there, else the release build; None where they pass in
        neither. Found once per set of programs, with the solved file back in place for the while."""
        key = tuple(name for name, _, _ in programs)
        if key in self.sanitizer_builds:
            return self.sanitizer_builds[key]
        target = os.path.join(self.tree, file_under_test(mutant))
        shutil.copyfile(os.path.join(ROOT, mutant.file), target)
        try:
            debug_ok = self.tools_build == "debug" and \
                self.configure(self.debug_build, ["-DCMAKE_CUDA_FLAGS=-G"]) is None and \
                self.build_targets(self.debug_build, list(key)) and self.clean(self.debug_build, programs, limit_s)
            if debug_ok:
                chosen = (self.debug_build, "the -G build")
            elif self.build_targets(self.build, list(key)) and self.clean(self.build, programs, limit_s):
                chosen = (self.build, "the release build" + (
                    " (--tools-build release)" if self.tools_build == "release" else
                    " (the solved program fails under the tools in the -G build)"))
            else:
                chosen = None
        finally:
            with open(target, "w", encoding="utf-8") as f:
                f.write("\n".join(mutant.apply(lines)))
        self.sanitizer_builds[key] = chosen
        return chosen

    def sanitize(self, exercise, mutant, lines, limit_s):
        """(outcome, detail) of a GPU mutant whose check passed: killed by the first finding of
        memcheck or initcheck on the small case of a program built from it, else survived."""
        programs = self.sanitized_programs(exercise, mutant)
        if not programs:
            return SURVIVED, "the check passed (no program of the check has a small case for compute-sanitizer)"
        chosen = self.sanitizer_build(programs, mutant, lines, limit_s)
        if chosen is None:  # the lesson's report waits until its solved programs pass under the tools
            return SKIPPED, (f"the solved {', '.join(p[0] for p in programs)} do not pass under compute-sanitizer "
                             f"{' and '.join(SANITIZER_TOOLS)} in either build, so no survivor can be judged")
        build, name = chosen
        if not self.build_targets(build, [p[0] for p in programs]):
            return SURVIVED, f"the check passed; in {name} the mutant does not compile, so no tool ran"
        unfinished = []
        for program in programs:
            for tool in SANITIZER_TOOLS:
                code, output = self.run_tool(build, tool, program, limit_s)
                if code == FINDING_EXIT:
                    return KILLED, f"compute-sanitizer {tool}: {first_finding(output)}"[:160]
                if code != 0:
                    unfinished.append(f"{tool} on {program[0]}: {'stopped' if code is None else f'exit {code}'}")
        return SURVIVED, (f"the check passed; compute-sanitizer {' and '.join(SANITIZER_TOOLS)} found nothing "
                          f"in {name}" + (f" (no verdict: {'; '.join(unfinished)})" if unfinished else ""))[:160]


def sync_by_content(source, dest):
    """Makes dest hold source's files, rewriting only those whose content differs (their
    modification times, and so the build, stay as they are otherwise)."""
    for folder, _, files in os.walk(source):
        relative = os.path.relpath(folder, source)
        os.makedirs(os.path.join(dest, relative), exist_ok=True)
        for name in files:
            a, b = os.path.join(folder, name), os.path.join(dest, relative, name)
            with open(a, "rb") as f:
                content = f.read()
            if os.path.exists(b):
                with open(b, "rb") as f:
                    if f.read() == content:
                        continue
            shutil.copy2(a, b)


def file_under_test(mutant):
    """Where a mutant goes: over the exercise file, or over a given file (no exercise) itself."""
    exercise_file = exercise_of(mutant.file)
    return exercise_file if os.path.exists(os.path.join(ROOT, exercise_file)) else mutant.file


def without_warnings(lines):
    """The lines of `scripts/progress check`'s output less its blocks of compiler warnings (a
    header "    N compiler warning(s) in your code ..." and the warnings indented under it): shown
    under a verdict, they are never what the check says is wrong."""
    kept, in_block = [], False
    for line in lines:
        if re.match(r"^    \d+ compiler warnings? in your code\b", line):
            in_block = True
        elif not (in_block and line.startswith("      ")):
            in_block = False
            kept.append(line)
    return kept


def judge(code, output):
    """(outcome, one line of detail) from the exit code of `scripts/progress check` and its output:
    "NAME: FAILED" followed by the check's own explanation, indented (a wrong element, a crash,
    the time limit, a CUDA error)."""
    if code is None:
        return SURVIVED, "no verdict: stopped from outside after the time limit (a hang)"
    if "FAILED: it does not compile" in output:
        return STILLBORN, "does not compile"
    if code == 77:
        return SKIPPED, "the check could not run here"
    lines = without_warnings(output.splitlines())
    verdict = next((i for i, l in enumerate(lines) if re.match(r"^\S+: FAILED", l)), None)
    if code == 1 and verdict is not None:
        detail = [l.strip() for l in lines[verdict + 1:] if l.startswith("    ") and l.strip()]
        # The check's explanation may follow lines of the versions that passed before it.
        telling = [l for l in detail if not re.search(r"\ball \d+ elements correct\b", l)]
        if detail:
            return KILLED, (telling or detail)[0][:160]
        return SURVIVED, "FAILED without a message"
    if code == 0:
        return SURVIVED, "the check passed"
    return SURVIVED, f"exit {code} without a verdict"


def state_key(mutant):
    """A mutant's key in the state file: its file's marked regions and the change itself."""
    return regions_hash(os.path.join(ROOT, mutant.file)) + "|" + mutant.key


def read_state(path):
    """{state key: (outcome, detail)} of the mutants judged by earlier runs (a JSON line each)."""
    judged = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                    judged[entry["key"]] = (entry["outcome"], entry["detail"])
                except (ValueError, KeyError):
                    continue  # a line cut short when a run was stopped
    return judged


def compare_with_report(lesson, files, mutants):
    """1 (and the differences, printed) when these mutants' outcomes are not the ones the
    committed report holds for these files; 0 when they all agree."""
    report = read_report(lesson)
    committed = {}
    differences = []
    for file in files:
        rows = current_rows(report, file)
        if not rows:
            differences.append(f"{file}: the committed report is missing or stale")
        committed.update({key: row["outcome"] for key, row in rows.items()})
    for m in mutants:
        expected = committed.pop(m.key, None)
        if expected != m.outcome:
            differences.append(f"{m.file}:{m.line} {m.operator}: {mutant_text(m)[:70]}: {m.outcome} here, "
                               f"{expected or 'not in the report'} in the report ({m.detail[:80]})")
    differences += [f"{key}: in the report, not a mutant any more" for key in committed]
    for line in differences:
        print("  DIFFERS: " + line)
    print(f"mutate: {lesson}: {len(mutants)} mutants, {'outcomes as committed' if not differences else f'{len(differences)} differences from the committed report'}")
    return 1 if differences else 0


def split_among(jobs, count):
    """Contiguous slices of the job list (grouped by exercise), one per worker: each worker
    builds few exercises. A worker whose slice is done takes jobs from the end of the longest."""
    size = -(-len(jobs) // count) if jobs else 0
    return [collections.deque(jobs[i * size:(i + 1) * size]) for i in range(count)]


def carried_reasons(report, file, mutants):
    """{mutant key: reason} of the file's rows that give one: by key in a current report; in a
    stale one only where the row also shows the same change (the positions may have moved)."""
    if report is None:
        return {}
    rows = current_rows(report, file)
    if rows:
        return {key: row["reason"] for key, row in rows.items() if row["reason"]}
    shown = {(row_key(r), r["mutant"]): r["reason"] for r in report.rows if r["file"] == file and r["reason"]}
    return {m.key: shown[(m.key, mutant_text(m))] for m in mutants if (m.key, mutant_text(m)) in shown}


def take_judged_rows(mutants, rows):
    """Gives each mutant the outcome, detail and reason of its judged row (rows: {key: row} of a
    current report); returns the mutants that have none (no row, or a pending one)."""
    unjudged = []
    for mutant in mutants:
        row = rows.get(mutant.key)
        if row and row["outcome"] != PENDING:
            mutant.outcome, mutant.detail, mutant.reason = row["outcome"], row["detail"], row["reason"]
        else:
            unjudged.append(mutant)
    return unjudged


def keep_unjudged_pending(mutants, rows):
    """After a run stopped at its deadline: each mutant it did not judge keeps its committed
    pending row (rows: {key: row} of a current report) or, without one, becomes pending "not
    judged yet". Returns how many are still pending."""
    left = [m for m in mutants if not m.outcome]
    for mutant in left:
        row = rows.get(mutant.key)
        mutant.outcome = PENDING
        mutant.detail, mutant.reason = (row["detail"], row["reason"]) if row else ("not judged yet", "")
    return len(left)


def command_run(args):
    global GPUS, BUILD_JOBS
    exercises = [e for e in read_exercises(args.build_dir)
                 if re.search(args.only, e.name) and (not args.kind or e.kind == args.kind)]
    if not exercises:
        sys.exit(f"mutate: no exercise matches '{args.only}'")
    if args.pending and args.check_committed:
        sys.exit("mutate: --check-committed runs every mutant again: leave out --pending")
    jobs = []  # (exercise, mutant, lines)
    mutants_of = {}  # {lesson: {file: mutants}}
    reasons = {}  # {mutant key: the reason its committed row gives}
    committed = {}  # {mutant key: its row in the committed report, where that is current}
    given, lessons_seen = given_files(), set()
    for exercise in exercises:
        # A lesson's given files go with its first exercise, whose check runs every program.
        extra = given.get(exercise.lesson, []) if exercise.lesson not in lessons_seen else []
        lessons_seen.add(exercise.lesson)
        report = read_report(exercise.lesson)
        for solution in [solution_of(f) for f in exercise.files] + extra:
            if not re.search(args.files, solution):
                continue
            mutants, lines = file_mutants(solution)
            mutants_of.setdefault(exercise.lesson, {})[solution] = mutants
            rows = current_rows(report, solution)
            committed.update(rows)
            reasons.update(carried_reasons(report, solution, mutants))
            todo = take_judged_rows(mutants, rows) if args.pending else mutants
            jobs += [(exercise, m, lines) for m in todo]
    judged = read_state(args.state)
    pending = []
    for job in jobs:
        earlier = judged.get(state_key(job[1]))
        if earlier and earlier[0] != SKIPPED:
            job[1].outcome, job[1].detail = earlier
        else:
            pending.append(job)
    counted = sum(len(m) for files in mutants_of.values() for m in files.values())
    print(f"mutate: {counted} mutants of {sum(len(files) for files in mutants_of.values())} files, "
          f"{len(jobs)} to judge{' (--pending)' if args.pending else ''}, "
          f"{len(jobs) - len(pending)} of them judged by an earlier run", flush=True)
    if args.write_state:
        if not (args.pending and args.state):
            sys.exit("mutate: --write-state needs --pending and --state")
        pending = []  # judge nothing: the lessons left unfinished keep their other mutants pending
    if args.dry_run:
        for exercise, mutant, _ in jobs:
            print(f"  {mutant.file}:{mutant.line} [{mutant.position}] {mutant.operator}: {mutant_text(mutant)}")
        return 0
    if any(e.kind == "gpu" for e, _, _ in pending) and RACES.sanitizer() is None:
        sys.exit("mutate: compute-sanitizer not found: the GPU mutants that pass their check cannot be judged")
    cmake_args = list(args.cmake_arg or [])
    data = next((d for d in (os.path.join(ROOT, ".data"), os.path.join(ROOT, "..", "shared", "data"))
                 if os.path.isdir(d)), None)
    if data and not any(a.startswith("-DWORKBOOK_SHARED_DATA=") for a in cmake_args):
        cmake_args.append("-DWORKBOOK_SHARED_DATA=" + os.path.abspath(data))
    keep = args.work_dir is not None and args.keep_workers
    work = os.path.abspath(args.work_dir) if keep else tempfile.mkdtemp(prefix="mutate-", dir=args.work_dir)
    os.makedirs(work, exist_ok=True)
    started = time.monotonic()
    count = max(1, min(args.jobs, len(pending)))
    BUILD_JOBS = max(1, (os.cpu_count() or 1) // count)
    GPUS = Gpus(Gpus.of_machine().ids, args.gpu_share)
    TIMED.update(row[0] for row in exercise_list.speed_check_rows(args.build_dir))
    if any(e.kind == "gpu" for e, _, _ in pending):
        print(f"mutate: GPUs {', '.join(g for g in GPUS.ids if g is not None) or 'none found'}"
              f"{f', up to {GPUS.share} checks at once on each' if GPUS.share > 1 else ''}", flush=True)
    # Every exercise of the course solved in the copies: checking a lesson by name checks all of
    # its exercises (scripts/check 03-tiled-matmul includes 03-tiled-matmul.banks).
    solved = read_exercises(args.build_dir)
    workers = [Worker(os.path.join(work, f"w{i:02d}"), solved, cmake_args, args.tools_build) for i in range(count)]
    board = JobBoard(pending, count, args.deadline_s, tool_workers=len(GPUS.ids))
    lock = threading.Lock()
    errors, done = [], [0]
    state = open(args.state, "a", encoding="utf-8") if args.state else None

    def judged(mutant):
        with lock:
            done[0] += 1
            if state and mutant.outcome != SKIPPED:
                state.write(json.dumps({"key": state_key(mutant), "outcome": mutant.outcome,
                                        "detail": mutant.detail}) + "\n")
                state.flush()
            if mutant.outcome != STILLBORN:
                # The seconds of each part: where a long run spent its time.
                print(f"  [{done[0]}/{len(pending)} {time.monotonic() - started:.0f}s] {mutant.outcome:9} "
                      f"{mutant.file}:{mutant.line} {mutant.operator}: {mutant_text(mutant)[:60]}  "
                      f"({mutant.detail[:70]}) [{', '.join(f'{k} {v:.0f} s' for k, v in mutant.seconds.items())}]",
                      flush=True)

    def work_loop(index):
        worker = workers[index]
        try:
            worker.prepare()
            while True:
                job = board.take(index)
                if job is None:
                    return
                part, (exercise, mutant, lines) = job
                if part == "tools":
                    judged(worker.run_tools(exercise, mutant, lines, args.limit_s))
                    continue
                worker.baseline(exercise, args.build_limit_s)
                if worker.run(exercise, mutant, lines, args.limit_s, tools_here=board.runs_tools(index)) == LEFT_FOR_TOOLS:
                    board.leave_for_tools((exercise, mutant, lines))
                    continue
                judged(mutant)
        except Exception as error:  # a broken copy: stop every worker, write nothing
            with lock:
                errors.append(f"{worker.folder}: {error}")
            board.stop()
        finally:
            board.leaving(index)

    threads = [threading.Thread(target=work_loop, args=(i,)) for i in range(count if pending else 0)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if state:
        state.close()
    if errors:
        print("mutate: stopped, no report written:\n" + "\n".join(errors))
        return 1
    status, unfinished, skipped = 0, [], []
    for lesson, files in sorted(mutants_of.items()):
        mutants = [m for file in files.values() for m in file]
        if any(m.outcome == SKIPPED for m in mutants):
            skipped.append(lesson)
            continue
        if any(not m.outcome for m in mutants):
            unfinished.append(lesson)
            # With --pending, what this run judged is written and the rest stays pending, so that a
            # run cut short by its deadline keeps its verdicts in the report too.
            if not args.pending or args.check_committed:
                continue
            keep_unjudged_pending(mutants, committed)
        if args.check_committed:
            status |= compare_with_report(lesson, list(files), mutants)
            continue
        for m in mutants:
            if m.outcome != PENDING:
                m.reason = reasons.get(m.key, "") if m.outcome == SURVIVED else ""
        rows = write_report(lesson, files)
        print(f"mutate: {os.path.relpath(report_path(lesson), ROOT)}")
        tallies = mutation_report.tally(rows)
        for file in sorted(files):
            counts = tallies[file]
            print(f"  {file}: {counts.killed} of {counts.counted} killed, {counts.equivalent} equivalent, "
                  f"{counts.stillborn} do not compile")
        report = read_report(lesson)
        problems = [p for file in sorted(files) for p in verify_file(lesson, file, report)]
        for problem in problems:
            print("  " + problem)
        status |= 1 if problems else 0
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"mutate: {time.monotonic() - started:.0f} s")
    for lesson in skipped:
        why = next(m.detail for file in mutants_of[lesson].values() for m in file if m.outcome == SKIPPED)
        print(f"mutate: {lesson}: no report: a check could not run here ({why})")
    if unfinished:
        print(f"mutate: {'written from --state' if args.write_state else 'deadline reached'}; not finished: "
              f"{', '.join(unfinished)} (run again with the same --state to go on)")
        return 3
    return 77 if skipped and not status else status


# ---- verifying the committed reports --------------------------------------------------------

# What an "equivalent" reason may not rest on: undefined behaviour (never equivalent, whatever a
# compiler makes of it), speed or time (a mutant that is only slower is not equivalent), or the
# sizes that the lesson happens to run (another valid input may tell the mutant apart).
NOT_EQUIVALENT = re.compile(r"\bundefined\b|\bslow(er)?\b|\bfast(er)?\b|\blater\b|\bspeed\b|\btimes?\b|\btiming\b|"
                            r"\bat the (lesson|program|benchmark|check)'s sizes\b", re.I)


def rerun_command(lesson, file, pending=False):
    pattern = re.sub(r"([.+])", r"[\1]", file)  # a path as a regex: its dots are dots
    return (f"python3 scripts/maintainer/mutate.py run --build-dir BUILD{' --pending' if pending else ''} "
            f"--only '^{lesson}' --files '^{pattern}$'")


def page_states_share(lesson, file):
    """True when the lesson's page quotes the file's share through a placeholder over its report."""
    page = os.path.join(ROOT, "docs", "lessons", lesson + ".md")
    if not os.path.exists(page):
        return False
    with open(page, encoding="utf-8") as f:
        return file in page_figures().stated_mutation_shares(f.read())


@functools.lru_cache(maxsize=None)
def page_figures():
    """docs/tools/page-figures.py, loaded once: verify asks it about every file whose rows are
    pending or below the goal (the page itself is read each time: it may change between calls)."""
    return load_tool("docs/tools/page-figures.py", "page_figures")


def verify_file(lesson, file, report):
    """Problems of one file's rows, as lines."""
    if report is None or file not in report.hashes:
        return [f"{lesson}: {file} has no rows in solutions/{lesson}/{mutation_report.REPORT_NAME}: run "
                f"{rerun_command(lesson, file)}"]
    if report.hashes[file] != regions_hash(os.path.join(ROOT, file)):
        return [f"{lesson}: the report of {file} is stale (its marked regions changed): run "
                f"{rerun_command(lesson, file, pending=True)}"]
    problems = []
    mutants, _ = file_mutants(file)
    rows = [r for r in report.rows if r["file"] == file]
    found = collections.Counter(row_key(r) for r in rows)
    missing = [m for m in mutants if not found[m.key]]
    known = {m.key for m in mutants}
    extra = [r for r in rows if row_key(r) not in known]
    if missing:
        problems.append(f"{lesson}: {file}: {len(missing)} mutants have no row (the first: line {missing[0].line} "
                        f"[{missing[0].position}] {missing[0].operator}: {mutant_text(missing[0])[:60]}): run "
                        f"{rerun_command(lesson, file, pending=True)}")
    if extra:
        problems.append(f"{lesson}: {file}: {len(extra)} rows name no mutant (the first: line {extra[0]['line']} "
                        f"[{extra[0]['position']}] {extra[0]['operator']}): run {rerun_command(lesson, file, True)}")
    problems += [f"{lesson}: {file}: {count} rows for the mutant {key.split('|', 1)[1]}"
                 for key, count in sorted(found.items()) if count > 1]
    waiting = [r for r in rows if r["outcome"] == PENDING]
    if waiting:
        pending = (f"{lesson}: {file}: pending: {len(waiting)} mutants not judged yet: run "
                   f"{rerun_command(lesson, file, pending=True)} where its check can run (GPU lessons: "
                   f"scripts/gpu-check.sh, step mutants, GPU_CHECK_MUTANT_PENDING=1)")
        # Until they are judged, the reader is told: the page states the share of the judged ones
        # and how many are not (the placeholder's pending_note); else the report is incomplete.
        if page_states_share(lesson, file):
            print(f"PENDING, stated on docs/lessons/{lesson}.md: {pending}")
        else:
            problems.append(pending + f", or state the share on docs/lessons/{lesson}.md (a name bound to "
                                      f"\"mutation-report: file={file}\" in a placeholder with its pending_note)")
    for row in rows:
        where = f"{lesson}: {file}:{row['line']} {row['operator']}: {row['mutant'][:60]}"
        if row["outcome"] not in mutation_report.OUTCOMES:
            problems.append(f"{where}: the outcome '{row['outcome']}' is none of {', '.join(mutation_report.OUTCOMES)}")
        elif row["outcome"] == SURVIVED and not row["reason"].startswith(("equivalent: ", "not killed: ")):
            problems.append(f"{where}: a survivor needs a reason, \"equivalent: why\" or \"not killed: what the "
                            f"check does not see\"")
        elif mutation_report.is_equivalent(row) and NOT_EQUIVALENT.search(row["reason"]):
            problems.append(f"{where}: an equivalent mutant has the same results for every valid input and no "
                            f"undefined behaviour, whatever its speed: '{NOT_EQUIVALENT.search(row['reason']).group(0)}' "
                            f"in its reason says otherwise; make it \"not killed: ...\" (or kill it)")
    counts = mutation_report.tally(rows).get(file, mutation_report.Tally())
    expected = mutation_report.summary_line(file, counts)
    if report.summaries.get(file) != expected:
        problems.append(f"{lesson}: {file}: the summary line is not the one its rows give:\n"
                        f"      report: {report.summaries.get(file, '(none)')}\n      rows:   {expected}")
    if counts.counted and counts.share < GOAL:
        below = (f"{lesson}: {file}: below the goal: {counts.killed} of {counts.counted} non-equivalent mutants "
                 f"killed ({share_text(counts.share)} < {GOAL:.0%})")
        if not os.path.exists(os.path.join(ROOT, exercise_of(file))) and page_states_share(lesson, file):
            print(f"BELOW GOAL, stated on docs/lessons/{lesson}.md: {below}")
        elif os.path.exists(os.path.join(ROOT, exercise_of(file))):
            problems.append(below + ": strengthen the check")
        else:
            problems.append(below + f": strengthen the check, or state the share on docs/lessons/{lesson}.md "
                                    f"(a name bound to \"mutation-report: file={file}\" in a placeholder)")
    return problems


def verify_lesson(lesson):
    """Problems of one lesson's report, as lines (empty: complete, current, judged, at the goal)."""
    report = read_report(lesson)
    files = exercise_files().get(lesson, [])
    problems = []
    for file in files:
        problems += verify_file(lesson, file, report)
    if report:
        for file in sorted(set(report.hashes) | {r["file"] for r in report.rows} | set(report.summaries)):
            if file not in files:
                problems.append(f"{lesson}: the report names {file}, which has no marked regions here "
                                f"(or is not in the report's regions)")
    return problems


def given_files(root=None):
    """{lesson: [given files with marked regions]}: files under solutions/ that have no exercise
    file beside them in lessons/ (MUTATED regions)."""
    root = root or ROOT
    found = {}
    solutions_dir = os.path.join(root, "solutions")
    for lesson in sorted(os.listdir(solutions_dir)):
        for folder, _, files in os.walk(os.path.join(solutions_dir, lesson)):
            for name in sorted(files):
                relative = os.path.relpath(os.path.join(folder, name), root)
                if not name.endswith((".cu", ".cuh", ".cpp", ".h")) or \
                        os.path.exists(os.path.join(root, exercise_of(relative))):
                    continue
                with open(os.path.join(root, relative), encoding="utf-8") as f:
                    if marked_regions(f.read().split("\n")):
                        found.setdefault(lesson, []).append(relative)
    return found


def exercise_files(root=None):
    """{lesson: [solution files with marked regions]} for every exercise file of the course
    (scripts/lib/exercise_list.py), and every given file with marked regions."""
    root = root or ROOT
    found = {}
    for relative in exercise_list.exercise_files(root):
        if not relative.endswith((".cu", ".cuh", ".cpp", ".h")):
            continue
        solution = solution_of(relative)
        with open(os.path.join(root, solution), encoding="utf-8") as f:
            if marked_regions(f.read().split("\n")):
                found.setdefault(relative.split("/")[1], []).append(solution)
    for lesson, files in given_files(root).items():
        found.setdefault(lesson, []).extend(files)
    return found


def command_verify(args):
    problems, files = [], 0
    for lesson, lesson_files in exercise_files().items():
        problems += verify_lesson(lesson)
        report = read_report(lesson)
        tallies = mutation_report.tally(report.rows) if report else {}
        for file in lesson_files:
            files += 1
            counts = tallies.get(file, mutation_report.Tally())
            print(f"{file}: {counts.killed} of {counts.counted} killed ({share_text(counts.share)}), "
                  f"{counts.equivalent} equivalent, {counts.stillborn} do not compile, {counts.pending} pending")
    for problem in problems:
        print("FAIL: " + problem)
    print(f"mutation reports: {files} files, {len(problems)} problems")
    return 1 if problems else 0


def command_list(args):
    mutants, _ = file_mutants(os.path.relpath(os.path.abspath(args.file), ROOT))
    for m in mutants:
        print(f"{m.file}:{m.line}\t{m.position}\t{m.operator}\t{mutant_text(m)}")
    print(f"{len(mutants)} mutants")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list")
    listing.add_argument("file")
    run = sub.add_parser("run")
    run.add_argument("--build-dir", required=True, help="a configured course (for its list of exercises)")
    run.add_argument("--only", default=".", help="exercises whose name matches this regex")
    run.add_argument("--files", default=".",
                     help="only the mutants of the solution files whose path matches this regex (the report "
                          "keeps the other files' rows)")
    run.add_argument("--pending", action="store_true",
                     help="only the mutants without a judged row in the committed report (none, pending, or "
                          "their file's regions changed); the report keeps the other rows")
    run.add_argument("--jobs", type=int, default=max(1, min(8, os.cpu_count() or 1)))
    run.add_argument("--gpu-share", type=int, default=1,
                     help="checks one GPU runs at once for exercises that time nothing (default 1); a check "
                          "that ran out of time beside others is judged again alone")
    run.add_argument("--limit-s", type=float, default=900,
                     help="stop a check (or a sanitizer run) from outside after this long (beyond its own time "
                          "limit): a survivor")
    run.add_argument("--build-limit-s", type=float, default=3600)
    run.add_argument("--tools-build", choices=("debug", "release"), default="debug",
                     help="where compute-sanitizer judges a GPU mutant that passed its check: the -G build "
                          "(default; the release build where the solved program fails under the tools there), "
                          "or the release build only (a lesson whose -G build takes too long to judge in time)")
    run.add_argument("--work-dir", default=None, help="where the copies go (default: the temporary folder)")
    run.add_argument("--cmake-arg", action="append", help="extra configure option of the copies")
    run.add_argument("--keep-workers", action="store_true",
                     help="keep the copies in --work-dir and reuse them in a later run (their builds stay)")
    run.add_argument("--state", help="a file of the mutants judged so far (JSON lines): a later run skips them")
    run.add_argument("--deadline-s", type=float, default=0,
                     help="start no mutant after this many seconds; unfinished lessons get no report (exit 3)")
    run.add_argument("--kind", choices=["cpu", "gpu"], help="only the exercises of this kind")
    run.add_argument("--check-committed", action="store_true",
                     help="write no report: fail when an outcome differs from the committed report")
    run.add_argument("--dry-run", action="store_true", help="list the mutants to judge only")
    run.add_argument("--write-state", action="store_true",
                     help="with --pending and --state: judge nothing, write the reports from the verdicts of "
                          "--state (e.g. brought back from the GPU machine); the rest stays pending")
    sub.add_parser("verify")
    args = parser.parse_args()
    return {"list": command_list, "run": command_run, "verify": command_verify}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
