#!/usr/bin/env python3
"""count-written-lines.py [--check]: how much of each lesson the student writes, and how much is
given, into data/written-lines.tsv.

Counts lines of code (comments and blank lines left out, as the mutation reports count them):
  written  the code of the marked regions (// >>> TODO n ... // <<< TODO n, and FIX) of the
           reference solutions of the lesson's exercise files: what a student writes;
  given    the code a student reads beside it in lessons/NN-name/: the exercise files outside
           their regions, kernels, headers and the lesson's other sources, without the
           benchmark harness;
  harness  the drivers (*driver*.cu|cpp) and harness/ of the lesson folder: the check and the
           benchmark, read only to run them.
and the ratio given / written (the course's goal: at most 20 outside the harness).
--check writes nothing and fails (exit 1) when the committed table differs from the tree's counts
(workbook.written-lines): run this script and commit the table after changing a lesson."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import exercise_list  # noqa: E402  (after the paths to it)
import mutate  # noqa: E402  (its region markers and comment rule, so the counts match the reports')

TABLE = os.path.join(ROOT, "data", "written-lines.tsv")
CODE = re.compile(r"\.(cu|cuh|cpp|h)$")
HARNESS = re.compile(r"(^|/)(harness/|[^/]*driver[^/]*\.(cu|cpp)$)")
GOAL = 20


def code_lines(lines):
    return sum(1 for line in lines if mutate.without_comment(line).strip())


def region_lines(lines):
    """Line indexes inside TODO and FIX regions (given files' MUTATED regions are not written)."""
    inside = set()
    for first, last in mutate.marked_regions(lines):
        if not re.search(r">>> MUTATED", lines[first - 1]):
            inside.update(range(first, last + 1))
    return inside


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def count(lesson):
    """(written, given, harness) lines of code of one lesson."""
    exercises = {path.split("/", 2)[2] for path in exercise_list.exercise_files(ROOT, lesson)}
    written = given = harness = 0
    folder = os.path.join(ROOT, "lessons", lesson)
    for parent, subfolders, names in os.walk(folder):
        subfolders.sort()
        for name in sorted(names):
            relative = os.path.relpath(os.path.join(parent, name), folder).replace(os.sep, "/")
            if not CODE.search(name):
                continue
            lines = read_lines(os.path.join(parent, name))
            if HARNESS.search(relative):
                harness += code_lines(lines)
                continue
            if relative in exercises:
                solution = read_lines(os.path.join(ROOT, "solutions", lesson, relative))
                inside = region_lines(solution)
                written += code_lines([solution[i] for i in sorted(inside)])
                stub = region_lines(lines)
                lines = [line for i, line in enumerate(lines) if i not in stub]
            given += code_lines(lines)
    return written, given, harness


def counts():
    """[(lesson, written, given, harness)] of every lesson, in lesson order."""
    lessons = sorted(d for d in os.listdir(os.path.join(ROOT, "lessons")) if re.match(r"\d\d-", d))
    return [(lesson, *count(lesson)) for lesson in lessons]


def ratio(written, given):
    return given / written if written else None


def table(rows):
    lines = ["# Lines of code a student writes and reads per lesson: written by "
             "scripts/maintainer/count-written-lines.py (its --help says what each column counts).",
             "lesson\twritten\tgiven\tharness\tgiven_per_written"]
    for lesson, written, given, harness in rows:
        share = ratio(written, given)
        lines.append(f"{lesson}\t{written}\t{given}\t{harness}\t{'-' if share is None else f'{share:.1f}'}")
    return "\n".join(lines) + "\n"


def main():
    args = sys.argv[1:]
    if args in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if args not in ([], ["--check"]):
        print(__doc__)
        return 2
    rows = counts()
    text = table(rows)
    if args == ["--check"]:
        committed = open(TABLE, encoding="utf-8").read() if os.path.exists(TABLE) else ""
        if committed != text:
            print(f"FAILED: {os.path.relpath(TABLE, ROOT)} differs from the tree's counts; run "
                  "scripts/maintainer/count-written-lines.py and commit the table. The tree's:")
            print(text, end="")
            return 1
        over = [lesson for lesson, written, given, _ in rows if (ratio(written, given) or 0) > GOAL]
        print(f"OK: {os.path.relpath(TABLE, ROOT)} is current; above {GOAL} given lines per written line: "
              f"{', '.join(over) or 'none'}")
        return 0
    with open(TABLE, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(TABLE, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
