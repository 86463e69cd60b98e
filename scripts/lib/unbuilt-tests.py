#!/usr/bin/env python3
"""unbuilt-tests.py BUILD_DIR [REGEX]: the CTest tests of BUILD_DIR (those whose name REGEX
matches, when given) that name a program of the build that was not built, as one regular
expression for `ctest -E` (empty when there is none).

A build of some targets only (scripts/gpu-check.sh with GPU_CHECK_TARGETS) leaves the other
programs out; their tests would fail for a missing file, not for anything they check. A test
counts as unbuilt when an argument of its command is a path under BUILD_DIR/bin,
BUILD_DIR/lessons or BUILD_DIR/common (where the build puts its programs) that does not exist and
has no file extension, when the listing gives it no command at all (what CTest does when the
program named by a target was not built), or when it is the stand-in that gtest_discover_tests() adds for a test
program it found unbuilt (named TARGET_NOT_BUILT). The expression has no parentheses: CMake
3.25's regular expressions accept at most nine groups. With WB_CTEST_LISTING=FILE the listing is
read from FILE (the JSON of `ctest --show-only=json-v1`) instead of running ctest: the script's
own test uses it.
"""
import json
import os
import re
import subprocess
import sys


def ctest_listing(build_dir):
    saved = os.environ.get("WB_CTEST_LISTING")
    if saved:
        with open(saved, encoding="utf-8") as listing:
            return json.load(listing)
    listing = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, capture_output=True, text=True,
                             check=True)
    return json.loads(listing.stdout)


def unbuilt_tests(build_dir, selected):
    build_dir = os.path.realpath(build_dir)
    program_dirs = tuple(os.path.join(build_dir, folder) + os.sep for folder in ("bin", "lessons", "common"))
    names = []
    for test in ctest_listing(build_dir).get("tests", []):
        if not selected.search(test["name"]):
            continue
        if test["name"].endswith("_NOT_BUILT") or "command" not in test:
            names.append(test["name"])
            continue
        for argument in test.get("command", []):
            path = os.path.realpath(argument) if os.path.isabs(argument) else ""
            if path.startswith(program_dirs) and not os.path.splitext(path)[1] and not os.path.exists(path):
                names.append(test["name"])
                break
    return names


def ctest_literal(name):
    """`name` as a CTest regular expression that matches it alone."""
    return "^" + re.sub(r"([.+*?^$\[\]{}|\\])", r"\\\1", name) + "$"


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    if not os.path.isdir(sys.argv[1]):
        print(f"unbuilt-tests.py: no build directory {sys.argv[1]}", file=sys.stderr)
        return 2
    selected = re.compile(sys.argv[2] if len(sys.argv) == 3 else "")
    print("|".join(ctest_literal(name) for name in unbuilt_tests(sys.argv[1], selected)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
