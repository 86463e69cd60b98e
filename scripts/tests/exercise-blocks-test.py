#!/usr/bin/env python3
"""exercise-blocks-test.py SOURCE_DIR | --self-test: every exercise's page says what the student
writes, how long it should take, and what the check tries against it.

For each lesson, its page (docs/lessons/NN-name.md) must hold one block per exercise that
scripts/progress reads from the lessons (no build needed): three list items in a row, "- **You
write:**", "- **Time:**" (an estimate in minutes or hours) and "- **The check tries:**". Prints
one line per lesson, and FAILED with the reason for each block missing, incomplete or out of
order. --self-test proves that each kind of problem is found, on pages written wrong on purpose."""
import importlib.machinery
import importlib.util
import os
import re
import sys

if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)

BLOCK = ("You write", "Time", "The check tries")
LABELLED_ITEM = re.compile(r"^- \*\*([^*]+):\*\*\s*(.*)")
ESTIMATE = re.compile(r"\b(minutes?|hours?)\b")


def list_items(text):
    """[(label or None, text)] of a page's top-level list items in page order, each with its
    continuation lines; (None, "") where a line that is not part of a list ends the list."""
    items, in_list = [], False
    for line in text.splitlines():
        labelled = LABELLED_ITEM.match(line)
        if labelled or line.startswith("- "):
            items.append([labelled.group(1), labelled.group(2)] if labelled else [None, line[2:]])
            in_list = True
        elif in_list and line.startswith("  "):
            items[-1][1] += " " + line.strip()  # the item goes on
        elif in_list:
            items.append([None, ""])  # the list ends here
            in_list = False
    return [tuple(item) for item in items]


def blocks(items):
    """(count of complete blocks, [problems]) of one page's items."""
    count, problems = 0, []
    for index, (label, _) in enumerate(items):
        if label != BLOCK[0]:
            if label in BLOCK[1:] and (index == 0 or items[index - 1][0] != BLOCK[BLOCK.index(label) - 1]):
                problems.append(f"a '{label}' item that does not follow '{BLOCK[BLOCK.index(label) - 1]}'")
            continue
        following = items[index:index + len(BLOCK)]
        labels = tuple(l for l, _ in following)
        if labels != BLOCK:
            problems.append(f"a 'You write' item followed by {[l for l in labels[1:]]}, not 'Time' and 'The check tries'")
            continue
        if not following[0][1].strip():
            problems.append("a 'You write' item that says nothing")
        if not ESTIMATE.search(following[1][1]):
            problems.append(f"a 'Time' item without an estimate in minutes or hours: '{following[1][1][:60]}'")
        count += 1
    return count, problems


def self_test():
    """Pages written wrong on purpose, each with the problem the test must report."""
    good = "- **You write:** the kernel.\n- **Time:** one hour.\n- **The check tries:** sizes 1 to 9.\n"
    cases = [
        ("- **You write:** the kernel.\n- **The check tries:** sizes 1 to 9.\n", 0, "followed by"),
        ("- **You write:** the kernel.\n- **Time:** soon.\n- **The check tries:** sizes.\n", 1, "without an estimate"),
        ("- **Time:** one hour.\n- **You write:** it.\n- **The check tries:** sizes.\n", 0, "does not follow"),
        ("- **You write:** the kernel.\n\n- **Time:** one hour.\n- **The check tries:** x.\n", 0, "followed by"),
        ("- **You write:**\n- **Time:** one hour.\n- **The check tries:** sizes.\n", 1, "says nothing"),
        (good + "text\n" + good, 2, None),
        ("- **You write:** the\n  kernel.\n- **Time:** one to\n  two hours.\n- **The check tries:** x.\n", 1, None),
    ]
    wrong = 0
    for text, expected_count, expected_problem in cases:
        count, problems = blocks(list_items(text))
        found = expected_problem is None and not problems or \
            expected_problem is not None and any(expected_problem in p for p in problems)
        if count != expected_count or not found:
            wrong += 1
            print(f"FAILED: self-test: {text!r}: {count} blocks (expected {expected_count}), problems {problems}")
    if wrong:
        sys.exit(1)
    print(f"PASSED: self-test: the {len(cases)} pages written wrong on purpose give the expected problems")
    sys.exit(0)


if sys.argv[1] == "--self-test":
    self_test()
source = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(source, "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)
failures = 0
by_lesson = {}
for exercise in progress.course_exercises(source):
    by_lesson.setdefault(exercise.lesson, []).append(exercise)
for lesson, exercises in by_lesson.items():
    with open(os.path.join(source, "docs", "lessons", lesson + ".md"), encoding="utf-8") as f:
        count, problems = blocks(list_items(f.read()))
    if count != len(exercises):
        problems.append(f"{count} blocks (You write, Time, The check tries) for {len(exercises)} exercises: "
                        f"{', '.join(e.name for e in exercises)}")
    print(f"{lesson}: {count} blocks for {len(exercises)} exercises")
    for problem in problems:
        print(f"FAILED: {lesson}: {problem}")
    failures += len(problems)
if failures:
    print(f"FAILED: {failures} problem(s) in the exercise blocks of the pages")
    sys.exit(1)
print("PASSED: every exercise's page says what the student writes, how long it takes and what the check tries")
