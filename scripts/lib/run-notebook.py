#!/usr/bin/env python3
"""run-notebook.py NOTEBOOK [--cwd DIR] [--skip-tag TAG]... [--stop-after TAG] [--set NAME=VALUE]...
                 [--set-file NAME=PATH]...

Runs the code cells of a Jupyter notebook in order, in one Python namespace, the way a person
pressing Shift+Enter on every cell would, and stops at the first cell that raises: the course's
tests run notebooks/course.ipynb with it (no Jupyter is needed). Cells whose metadata tags
include a --skip-tag are left out (and said so); --stop-after TAG ends the run, as a pass, after
the first cell tagged TAG (a test of the cells up to it). --set NAME=VALUE and --set-file NAME=PATH put
a string (or a file's text) into the namespace before the first cell, for cells that read it
with globals().get(NAME, ...). The working directory is the notebook's folder's parent
(the course's top folder), as when the notebook is opened from a clone; --cwd DIR runs the cells
in DIR instead (a hosted Jupyter runs them in the notebook's own folder).
Exit 0 when every cell ran, 1 when one failed, 2 on bad arguments.
"""
import json
import os
import sys
import time
import traceback


def parse(argv):
    notebook, skip, values, cwd, stop = None, set(), {}, None, None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--cwd", "--skip-tag", "--stop-after", "--set", "--set-file") and i + 1 < len(argv):
            value = argv[i + 1]
            if arg == "--stop-after":
                stop = value
            elif arg == "--cwd":
                if not os.path.isdir(value):
                    print(f"error: --cwd {value}: no such folder", file=sys.stderr)
                    sys.exit(2)
                cwd = os.path.abspath(value)
            elif arg == "--skip-tag":
                skip.add(value)
            else:
                name, sep, text = value.partition("=")
                if not sep or not name.isidentifier():
                    sys.exit(f"error: {arg} needs NAME=VALUE, got '{value}'")
                if arg == "--set-file":
                    with open(text, encoding="utf-8") as f:
                        text = f.read()
                values[name] = text
            i += 2
        elif arg in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif notebook is None and not arg.startswith("--"):
            notebook = arg
            i += 1
        else:
            print(__doc__)
            sys.exit(2)
    if notebook is None:
        print(__doc__)
        sys.exit(2)
    return notebook, skip, values, cwd, stop


def main():
    notebook, skip, values, cwd, stop = parse(sys.argv[1:])
    with open(notebook, encoding="utf-8") as f:
        document = json.load(f)
    os.chdir(cwd or os.path.dirname(os.path.dirname(os.path.abspath(notebook))))
    namespace = {"__name__": "__main__"}
    namespace.update(values)
    ran = skipped = 0
    for number, cell in enumerate(document["cells"], start=1):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        tags = set(cell.get("metadata", {}).get("tags", []))
        title = source.strip().splitlines()[0] if source.strip() else "(empty)"
        if tags & skip:
            print(f"=== cell {number}: skipped ({', '.join(sorted(tags & skip))}): {title}", flush=True)
            skipped += 1
            continue
        print(f"=== cell {number}: {title}", flush=True)
        start = time.time()
        try:
            exec(compile(source, f"cell {number}", "exec"), namespace)
        except BaseException:  # a cell that raises (or calls sys.exit) stops the notebook
            traceback.print_exc()
            print(f"FAILED: cell {number} ({title}) after {time.time() - start:.0f} s; the cells after it did not run")
            return 1
        ran += 1
        if stop in tags:
            print(f"PASSED: {ran} code cells ran, {skipped} skipped, up to the first tagged {stop}")
            return 0
    print(f"PASSED: {ran} code cells ran, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
