#!/usr/bin/env python3
"""notebook-hints-test.py SOURCE_DIR: notebooks/course.ipynb reveals a hint only when asked.

Without Jupyter or a build, from the notebook's cells: the cell tagged "hints" defines hint() and
calls nothing when run (its call is a comment), and hint() / hint("coalescing") run
`scripts/progress hint LESSON` / `... LESSON.coalescing`, which counts the hint as seen; no other
cell runs `scripts/progress hint` or calls hint(); every cell that runs the table of
scripts/progress passes --no-hint (a failing exercise's table would reveal and count hint 1);
the lesson's page is shown through docs/tools/lesson-page-markdown.py, which hides the hints'
text. The same checks must fail on planted notebooks: the call uncommented, --no-hint left out.
(notebook.cpu-lesson runs every cell for lesson 01 and checks that none reveals a hint.)
"""
import ast
import json
import os
import re
import sys


def code_cells(notebook):
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", []))
            for c in notebook["cells"] if c["cell_type"] == "code"]


def commands_and_calls(source):
    """(the shell commands that sh() runs, as source text; the calls of hint()) in SOURCE, those
    inside the definition of hint() left out."""
    commands, calls = [], 0
    nodes = [ast.parse(source)]
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.FunctionDef) and node.name == "hint":
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "sh" and node.args:
                commands.append(ast.unparse(node.args[0]))
            calls += node.func.id == "hint"
        nodes.extend(ast.iter_child_nodes(node))
    return commands, calls


def problems(notebook):
    found = []
    cells = code_cells(notebook)
    hints = [source for source, tags in cells if "hints" in tags]
    if len(hints) != 1:
        return [f"{len(hints)} cells tagged 'hints', not one"]
    calls = []
    namespace = {"LESSON": "02-naive-matmul", "sh": lambda command, **options: calls.append(command)}
    exec(compile(hints[0], "hints cell", "exec"), namespace)  # noqa: S102
    if calls:
        found.append(f"running the hints cell ran {calls}")
    if not callable(namespace.get("hint")):
        return found + ["the hints cell defines no hint()"]
    calls.clear()
    namespace["hint"]()
    namespace["hint"]("coalescing")
    if calls != ["scripts/progress hint 02-naive-matmul", "scripts/progress hint 02-naive-matmul.coalescing"]:
        found.append(f"hint() and hint(\"coalescing\") ran {calls}")
    for number, (source, tags) in enumerate(cells, start=1):
        commands, calls = commands_and_calls(source)
        if calls:
            found.append(f"code cell {number} calls hint() when run: {source.splitlines()[0]}")
        for command in commands:
            if re.search(r"scripts/progress\s+hints?\b", command):
                found.append(f"code cell {number} reveals a hint when run: {command}")
            elif "scripts/progress" in command and not re.search(r"progress\s+check\b|--no-hint\b", command):
                found.append(f"code cell {number} runs the table without --no-hint: {command}")
    if not any("lesson-page-markdown.py" in source for source, _ in cells):
        found.append("no cell shows the lesson's page through docs/tools/lesson-page-markdown.py")
    return found


def planted(notebook, old, new):
    copy = json.loads(json.dumps(notebook))
    for cell in copy["cells"]:
        text = "".join(cell["source"])
        if old in text:
            cell["source"] = [text.replace(old, new, 1)]
            return copy
    raise SystemExit(f"FAIL: cannot plant: no cell holds '{old}'")


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    with open(os.path.join(argv[1], "notebooks", "course.ipynb"), encoding="utf-8") as f:
        notebook = json.load(f)
    failures = problems(notebook)
    for failure in failures:
        print("FAIL: " + failure)
    for what, old, new in (("the call uncommented", "# hint()", "hint()"),
                           ("--no-hint left out", "--no-hint ", ""),
                           ("a cell that reveals the next hint", "# hint()", "sh(f\"scripts/progress hint {LESSON}\")")):
        if not problems(planted(notebook, old, new)):
            print(f"FAIL: a planted notebook ({what}) passes")
            failures.append(what)
        else:
            print(f"ok: a planted notebook ({what}) fails")
    if failures:
        return 1
    print("OK: the notebook reveals a hint only through hint(), which no cell calls when run")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
