#!/usr/bin/env python3
"""lesson-page-markdown.py LESSON | verify LESSON...: a lesson's page as plain Markdown, for the notebook.

  lesson-page-markdown.py LESSON          prints docs/lessons/LESSON.md as the hosted notebook
                                          shows it (LESSON: the folder name, 02-naive-matmul)
  lesson-page-markdown.py verify [LESSON...]  fails (exit 1) where a page so shown (every
                                          lesson's, by default) keeps a placeholder, a Doxygen
                                          command or a hint's text
  lesson-page-markdown.py self-test       a planted page, and planted leftovers verify must catch

The page's figures are filled in from the committed runs under data/ by the docs' own renderer
(page-figures.py), without Doxygen; what only Doxygen reads becomes Markdown: a cross-reference
\\ref NAME "text" its text, an anchor {#name} and \\tableofcontents nothing, a chart (\\image) a
line that names it (the notebook's charts cell draws it), a \\dot diagram a line that says it is
in the built docs. Each hint's text is left out, its number kept: in the notebook a hint is shown
only when asked for (hint(), which scripts/progress counts), as the built pages keep each one
closed until it is opened. Exit 2 when the page cannot be read or its figures not filled in.
"""
import importlib.util
import os
import re
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(TOOLS))
_spec = importlib.util.spec_from_file_location("page_figures", os.path.join(TOOLS, "page-figures.py"))
page_figures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(page_figures)

# A hint as the pages and scripts/progress write it: "**Hint 2.** ...", maybe in a numbered list.
HINT_ITEM = re.compile(r"^(\s*(?:\d+\.\s+)?)\*\*Hint (\d+)\.\*\*")
REFERENCE = re.compile(r'[\\@]ref\s+\S+\s+"([^"]*)"|[\\@]ref\s+(\w+)')
IMAGE = re.compile(r'^\s*[\\@]image\s+html\s+(\S+)(?:\s+"([^"]*)")?.*$', re.M)
DIAGRAM = re.compile(r"^\s*[\\@]dot\b.*?^\s*[\\@]enddot\b[^\n]*", re.M | re.S)
ANCHOR = re.compile(r"\s*\{#[\w-]+\}")
# What is left of Doxygen in a page that the notebook shows: none may be.
DOXYGEN_COMMAND = re.compile(r"(?<![\w\\`])[\\@](?:ref|page|subpage|mainpage|section|subsection|anchor|"
                             r"image|dot|enddot|tableofcontents|f\$|f\[|f\]|code|endcode|note|warning|see|"
                             r"htmlonly|endhtmlonly|verbatim|endverbatim|copydoc|brief|cite)\b")


def hide_hints(text):
    """Each hint's item reduced to its number and the call that reveals it (hint("PROGRAM") under a
    heading "Hints for PROGRAM"); its continuation lines (indented) left out."""
    lines, hiding, call = [], False, "hint()"
    for line in text.splitlines():
        item = HINT_ITEM.match(line)
        if line.startswith("#"):
            program = re.match(r"#+\s+Hints for ([\w-]+)", line)
            call = f'hint("{program.group(1)}")' if program else "hint()"
        if item:
            lines.append(f"{item.group(1)}**Hint {item.group(2)}.** *(hidden: `{call}` reveals the next one)*")
            hiding = True
        elif hiding and line.strip() and line.startswith((" ", "\t")):
            continue
        else:
            hiding = False
            lines.append(line)
    return "\n".join(lines) + "\n"


def to_markdown(text):
    text = DIAGRAM.sub("*(A diagram: the built documentation draws it.)*", text)
    text = IMAGE.sub(lambda m: f"*(Chart {m.group(1)}: {m.group(2) or ''}. The notebook's charts cell "
                               "draws it.)*", text)
    text = REFERENCE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = re.sub(r"^[ \t]*[\\@]tableofcontents[ \t]*\n\n?", "", text, flags=re.M)
    text = re.sub(r"\n{3,}", "\n\n", ANCHOR.sub("", text))
    return hide_hints(text)


def lesson_markdown(lesson):
    """(the page of LESSON as the notebook shows it, the renderer's errors)."""
    path = os.path.join(ROOT, "docs", "lessons", os.path.basename(lesson) + ".md")
    with open(path, encoding="utf-8") as f:
        rendered, errors = page_figures.render(f.read(), os.path.join(ROOT, "data"), {})
    return to_markdown(rendered), errors


def problems(lesson):
    """What a student would see of the source of the page: placeholders, Doxygen, hints' text."""
    text, errors = lesson_markdown(lesson)
    return [f"figures: {error}" for error in errors] + shown_source(text)


def shown_source(text):
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "{{" in line or "}}" in line:
            found.append(f"line {number}: a placeholder left: {line.strip()}")
        command = DOXYGEN_COMMAND.search(line)
        if command:
            found.append(f"line {number}: a Doxygen command {command.group(0)}: {line.strip()}")
        if re.search(r"\*\*Hint \d+\.\*\*", line) and "(hidden:" not in line:
            found.append(f"line {number}: a hint's text shown: {line.strip()}")
    return found


SELF_TEST = """# Lesson 99: a planted page {#lesson99}

\\tableofcontents

As \\ref lesson01 "lesson 01" showed, see \\ref l99_hints.

\\image html 99-planted.png "a chart"

\\dot
digraph { a -> b }
\\enddot

### Hints {#l99_hints}

1. **Hint 1.** The first answer,
   on two lines.

#### Hints for banks

1. **Hint 1.** The second answer.
"""


def self_test():
    """The planted page comes out clean, its hints hidden; planted leftovers are caught."""
    text = to_markdown(SELF_TEST)
    failures = [f"left in the planted page: {p}" for p in shown_source(text)]
    for answer in ("first answer", "on two lines", "second answer"):
        if answer in text:
            failures.append(f"a hint's text is shown: '{answer}'")
    for wanted in ("As lesson 01 showed, see l99_hints.", 'hint("banks")', "99-planted.png: a chart"):
        if wanted not in text:
            failures.append(f"missing from the planted page: '{wanted}'")
    for leftover in ("\\subpage hosted", "@ref lesson02", "{{ r.rate ; .0f }}", "**Hint 2.** shown"):
        if not shown_source(leftover + "\n"):
            failures.append(f"not caught: '{leftover}'")
    for failure in failures:
        print("FAIL: " + failure)
    print("OK: the self-test's planted page and leftovers" if not failures else "")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["self-test"]:
        return self_test()
    if argv[1:2] in (["-h"], ["--help"]) or len(argv) < 2:
        print(__doc__)
        return 0 if argv[1:2] in (["-h"], ["--help"]) else 2
    if argv[1] == "verify":
        failed = 0
        lessons = argv[2:] or sorted(name[:-3] for name in os.listdir(os.path.join(ROOT, "docs", "lessons"))
                                     if name.endswith(".md"))
        for lesson in lessons:
            for problem in problems(lesson):
                print(f"FAIL: docs/lessons/{lesson}.md as the notebook shows it: {problem}")
                failed += 1
        if failed:
            return 1
        print(f"OK: {len(lessons)} lesson page(s) shown with their figures, no placeholder, no Doxygen "
              "command, no hint's text")
        return 0
    try:
        text, errors = lesson_markdown(argv[1])
    except OSError as error:
        print(f"error: no page for lesson '{argv[1]}': {error.strerror}", file=sys.stderr)
        return 2
    if errors:
        for error in errors:
            print(f"error: docs/lessons/{argv[1]}.md: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
