#!/usr/bin/env python3
"""hints-reachable-test.py SOURCE_DIR: every hint of every lesson page is reachable with
`scripts/progress hint`, counted against the pages.

For each lesson, the "**Hint N.**" items of its page (docs/lessons/NN-name.md) are counted; the
exercises that scripts/progress reads from the lessons (no build needed) must reach each item
exactly once, every exercise must have hints, and an exercise's hints must be numbered 1, 2, ...
in the order it reveals them (what `scripts/progress hint` prints as "Hint N of M"). Prints one
line per lesson, and FAILED with the reason for each hint left unreachable, reached twice, or
numbered out of order."""
import importlib.machinery
import importlib.util
import os
import re
import sys

if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
source = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(source, "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)


def page_items(lesson):
    """[(number, first words)] of every hint item of the lesson's page, in page order, with its
    citations of other lessons written as scripts/progress prints them ("lesson NN")."""
    with open(os.path.join(source, "docs", "lessons", lesson + ".md"), encoding="utf-8") as f:
        return [(int(m.group(1)), progress.cite_lessons(m.group(2).strip(), source))
                for m in map(progress.HINT_ITEM.match, f) if m]


failures = 0
by_lesson = {}
for exercise in progress.course_exercises(source):
    by_lesson.setdefault(exercise.lesson, []).append(exercise)
for lesson, exercises in by_lesson.items():
    items = page_items(lesson)
    reached = [0] * len(items)
    problems = []
    for exercise in exercises:
        hints = progress.hints_for(exercise)
        if not hints:
            problems.append(f"{exercise.name} has no hint")
        for order, hint in enumerate(hints, start=1):
            found = [i for i, (_, start) in enumerate(items) if hint.startswith(start)]
            if len(found) != 1:
                problems.append(f"{exercise.name}'s hint {order} matches {len(found)} items of the page")
                continue
            reached[found[0]] += 1
            if items[found[0]][0] != order:
                problems.append(f"{exercise.name}'s hint {order} is numbered {items[found[0]][0]} on the page")
    for (number, start), count in zip(items, reached):
        if count != 1:
            problems.append(f"Hint {number} ('{start[:50]}...') is reached by {count} exercises")
    print(f"{lesson}: {len(items)} hints on the page, {sum(reached)} reached by "
          f"{', '.join(e.name for e in exercises)}")
    for problem in problems:
        print(f"FAILED: {lesson}: {problem}")
    failures += len(problems)
if failures:
    print(f"FAILED: {failures} hint(s) not reachable as the page numbers them")
    sys.exit(1)
print("PASSED: every hint of every lesson page is reachable with scripts/progress hint")
