#!/usr/bin/env python3
"""course-url.py sync|verify|self-test SOURCE_DIR: the course's address is one setting, course.json.

  sync SOURCE_DIR       writes the setting's address into README.md's clone command (a page on a
                        repository host is shown as it is, so README holds the address itself) and
                        into notebooks/course.ipynb (scripts/maintainer/make-notebook.py)
  verify SOURCE_DIR     fails (exit 1) where a page or the notebook types the address, or a stand-in
                        for it, instead of reading the setting: the pages under docs/ write
                        {{course url}} (docs/tools/page-figures.py renders it); README.md's clone
                        command and the notebook's COURSE_URL hold the setting's address, and no
                        other line of theirs holds it or another address of the course
  self-test SOURCE_DIR  plants each of those faults in a copy and expects verify to name it

An instructor changes the address in course.json, then runs `course-url.py sync .` and commits
the three files (docs/instructors.md).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import course_setting  # noqa: E402  (after the path to it)

README = "README.md"
NOTEBOOK = os.path.join("notebooks", "course.ipynb")
# README's clone command: `git clone ADDRESS cuda-workbook`.
README_CLONE = re.compile(r"(`git clone )([^`]+?)( cuda-workbook)")
NOTEBOOK_SETTING = re.compile(r'^COURSE_URL = "([^"]*)"', re.M)
# Stand-ins for the address, and addresses of the course typed by hand.
STAND_INS = re.compile(r"<(?:the )?course'?s? (?:URL|address)>|YOUR-NAME|<your fork>|"
                       r"\bhttps?://\S*cuda-workbook\S*|git@\S*cuda-workbook", re.I)


def pages(source):
    return sorted(glob.glob(os.path.join(source, "docs", "*.md")) +
                  glob.glob(os.path.join(source, "docs", "lessons", "*.md")))


def typed(text, url, allowed):
    """'line N: ...' for each line of TEXT that types the address or a stand-in for it; ALLOWED
    are the offsets of the one place where the file holds the setting's address."""
    problems = []
    for match in list(STAND_INS.finditer(text)) + [m for m in re.finditer(re.escape(url), text)]:
        if match.start() in allowed or any(a <= match.start() < a + len(url) for a in allowed):
            continue
        number = text.count("\n", 0, match.start()) + 1
        problems.append(f"line {number}: '{match.group(0)}'")
    return sorted(set(problems), key=lambda p: int(p.split(":")[0][5:]))


def verify(source):
    try:
        url = course_setting.repository_url(source)
    except course_setting.SettingError as error:
        print(f"FAIL: {error}")
        return 1
    problems = []
    for page in pages(source):
        with open(page, encoding="utf-8") as f:
            for problem in typed(f.read(), url, ()):
                problems.append(f"{os.path.relpath(page, source)}: {problem}: write {{{{course url}}}}")
    with open(os.path.join(source, README), encoding="utf-8") as f:
        readme = f.read()
    clones = list(README_CLONE.finditer(readme))
    if len(clones) != 1 or clones[0].group(2) != url:
        problems.append(f"{README}: its clone command `git clone ADDRESS cuda-workbook` (found "
                        f"{len(clones)}) must hold course.json's address {url}: run "
                        f"scripts/maintainer/course-url.py sync .")
    allowed = {clones[0].start(2)} if clones else set()
    problems += [f"{README}: {p}: the address is course.json's" for p in typed(readme, url, allowed)]
    with open(os.path.join(source, NOTEBOOK), encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    code = "\n".join("".join(cell["source"]) for cell in cells)
    settings = list(NOTEBOOK_SETTING.finditer(code))
    if len(settings) != 1 or settings[0].group(1) != url:
        problems.append(f"{NOTEBOOK}: its COURSE_URL (found {len(settings)}) must be course.json's address "
                        f"{url}: run scripts/maintainer/course-url.py sync .")
    allowed = {settings[0].start(1)} if settings else set()
    problems += [f"{NOTEBOOK}: cells {p}: the address is course.json's" for p in typed(code, url, allowed)]
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        return 1
    print(f"OK: README.md, the notebook and {len(pages(source))} pages read the course's address from "
          f"course.json ({url})")
    return 0


def sync(source):
    url = course_setting.repository_url(source)
    path = os.path.join(source, README)
    with open(path, encoding="utf-8") as f:
        readme = f.read()
    written = README_CLONE.sub(lambda m: m.group(1) + url + m.group(3), readme)
    if written != readme:
        with open(path, "w", encoding="utf-8") as f:
            f.write(written)
        print(f"wrote {README}")
    return subprocess.call([sys.executable, os.path.join(source, "scripts", "maintainer", "make-notebook.py")])


def self_test(source):
    """Each planted fault must fail verify, naming the file; the tree as it is must pass."""
    url = course_setting.repository_url(source)
    plants = {
        "a page types the address": ("docs/mainpage.md", "{{course url}}", url),
        "a page types a stand-in": ("docs/mainpage.md", "{{course url}}", "<the course's URL>"),
        "README's clone drifts": (README, url, "https://github.com/YOUR-NAME/cuda-workbook"),
        "README types it twice": (README, "## Two commands", f"See {url}.\n\n## Two commands"),
        "the notebook's COURSE_URL drifts": (NOTEBOOK, url, "https://example.org/other/cuda-workbook.git"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for name in ("course.json", README, NOTEBOOK, "docs"):
            origin, target = os.path.join(source, name), os.path.join(work, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            (shutil.copytree if os.path.isdir(origin) else shutil.copy)(origin, target)
        if verify(work) != 0:
            print("FAIL: the course as it is does not pass verify")
            return 1
        for what, (relative, old, new) in plants.items():
            path = os.path.join(work, relative)
            with open(path, encoding="utf-8") as f:
                original = f.read()
            if old not in original:
                print(f"FAIL: cannot plant '{what}': {relative} has no '{old}'")
                failures += 1
                continue
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(old, new, 1))
            output = subprocess.run([sys.executable, __file__, "verify", work], capture_output=True, text=True)
            if output.returncode != 1 or f"FAIL: {relative}" not in output.stdout:
                print(f"FAIL: verify missed '{what}' (exit {output.returncode}):\n{output.stdout}")
                failures += 1
            else:
                print(f"ok: verify fails on '{what}'")
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
    return 1 if failures else 0


def main(argv):
    commands = {"sync": sync, "verify": verify, "self-test": self_test}
    if len(argv) != 3 or argv[1] not in commands or not os.path.isdir(argv[2]):
        print(__doc__)
        return 0 if argv[1:2] in (["-h"], ["--help"]) else 2
    return commands[argv[1]](os.path.abspath(argv[2]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
