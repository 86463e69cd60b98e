#!/usr/bin/env python3
"""check-with-races.py PROGRAM CHECK_ARGS... --races RACE_ARGS...: a check that also sees races.

Runs PROGRAM CHECK_ARGS (the lesson's check). When it passes and compute-sanitizer is available,
runs PROGRAM RACE_ARGS (a small case) under its memcheck, racecheck and synccheck tools; their
first finding becomes a failure (exit 1) told in the student's words: which lines, which
accesses, the likely cause. memcheck finds an access one element past an array, which a
check's numbers often do not show. A race is a wrong answer that a check's numbers may not show: removing the
barrier that ends a tiled phase often leaves the product right on one GPU and wrong on another.
Each tool's run ends within SANITIZER_LIMIT_S seconds (a FAILED verdict naming a kernel that runs
far too long). Exit codes are the check's (77: no GPU, skipped), 1 for a finding of the tools, and
4 (SANITIZER_BROKEN) when compute-sanitizer itself failed (could not start, crashed, or ended the
run without a finding): then the races were not checked, and a test that expects a race must not
count it as found. Without compute-sanitizer a check whose numbers are right is not finished: it
exits 77 (SKIPPED), saying that races were not checked; a skip, never a pass. A check that fails
on its numbers fails (exit 1) with or without the tool; with it, the small case still runs under
the tools, and a finding of theirs is printed as the likely cause (a race can make the numbers
wrong on one GPU and leave them right on another).
"""
import os
import re
import shutil
import signal
import subprocess
import sys

# "... Write access at ... in /path/file.cu:27 ..." and the matching "and Read access at ...".
ACCESS = re.compile(r"(Read|Write) access at .*? in (\S+?):(\d+)")
SYNC = re.compile(r"(Barrier error detected[^\n]*|Invalid arguments[^\n]*)")
LOCATION = re.compile(r"(?:at|in) .*? in (\S+?):(\d+)|at \S+ in (\S+?):(\d+)")


# compute-sanitizer's exit code when it reported an error (--error-exitcode), and this script's
# exit code when the tool failed without a finding.
FINDING_EXIT = 99
# A correct solution's small case takes seconds under each tool (about 7 s for all three on lesson
# 04, the slowest); past this a kernel runs far longer than it should.
SANITIZER_LIMIT_S = 150
SANITIZER_BROKEN = 4
# The skip code of the course's tests: the check could not be completed here.
SKIPPED = 77
# The check's own verdict (wb::CheckTally::finish and the drivers print it).
VERDICT = re.compile(r"^\s*FAILED([\s:]|$)", re.MULTILINE)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_source(name, program):
    """The source file the tool names (often without its folder): the exercise's copy for an
    exercise program, the solution's for a solution program, else the path as given."""
    if os.path.isabs(name) and os.path.exists(name):
        return name
    top = "lessons" if program.endswith("-exercise") else "solutions" if program.endswith("-solution") else None
    if top:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            if os.path.basename(name) in files:
                return os.path.join(folder, os.path.basename(name))
    return name


def source_line(path, number):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()[number - 1].strip()
    except (OSError, IndexError):
        return ""


def explain_race(output, program=""):
    """The first racecheck hazard as a sentence, or None."""
    for line_number, line in enumerate(output.splitlines()):
        if "Race reported between" not in line:
            continue
        accesses = ACCESS.findall("\n".join(output.splitlines()[line_number:line_number + 3]))
        if len(accesses) < 2:
            return "compute-sanitizer racecheck: " + line.strip("= ").strip()
        (kind1, file1, line1), (kind2, file2, line2) = accesses[:2]
        name = os.path.basename(file1)
        text1 = source_line(find_source(file1, program), int(line1))
        text2 = source_line(find_source(file2, program), int(line2))
        quoted1, quoted2 = (f" ({text1})" if text1 else ""), (f" ({text2})" if text2 else "")
        return (f"race on shared memory in {name}: the {kind1.lower()} on line {line1}{quoted1} and the "
                f"{kind2.lower()} on line {line2}{quoted2}, by different threads, reach the same element with "
                f"no barrier between them. A __syncthreads() is missing: after the writes that others read, or "
                f"after the last read of shared data that the next step overwrites.")
    return None


MEMORY = re.compile(r"Invalid (__global__|__shared__|__local__) (read|write) of size (\d+) bytes")


def where_in_source(lines, program):
    """' at FILE line N (the line's text)' for the first 'in FILE:N' among a finding's lines, or ''."""
    for line in lines:
        found = re.search(r" in (\S+?):(\d+)", line)
        if found:
            text = source_line(find_source(found.group(1), program), int(found.group(2)))
            return f" at {os.path.basename(found.group(1))} line {found.group(2)}" + (f" ({text})" if text else "")
    return ""


def explain_memory(output, program=""):
    """The first memcheck finding as a sentence, or None."""
    match = MEMORY.search(output)
    if not match:
        return None
    space, kind, size = match.groups()
    where = where_in_source(output[match.end():].splitlines()[:4], program)
    memory = {"__global__": "device", "__shared__": "shared", "__local__": "local"}[space]
    return (f"out-of-bounds {kind} of {size} bytes in {memory} memory{where}: a thread reaches past the end "
            f"of an array. Check the bounds test (< or <=, which dimension) and the index arithmetic.")


def explain_sync(output, program=""):
    """The first synccheck error as a sentence, or None."""
    match = SYNC.search(output)
    if not match:
        return None
    where = where_in_source(output.splitlines()[output[:match.start()].count("\n"):][:6], program)
    return (f"barrier misuse{where}: {match.group(1).strip()}. A __syncthreads() must be reached by every thread "
            "of the block: not inside a branch that some threads skip, and not after an early return.")


def sanitizer():
    """compute-sanitizer on PATH, else in the CUDA toolkit's bin/ ($CUDA_HOME, or /usr/local/cuda)."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    default = os.path.join(os.environ.get("CUDA_HOME") or "/usr/local/cuda", "bin", "compute-sanitizer")
    return default if os.access(default, os.X_OK) else None


def sanitizer_limit_s():
    """Seconds one sanitizer run of the small case may take: SANITIZER_LIMIT_S, times
    WORKBOOK_CHECK_TIME_SCALE when that is set to a positive number (as for the check)."""
    try:
        scale = float(os.environ.get("WORKBOOK_CHECK_TIME_SCALE", "1"))
    except ValueError:
        scale = 1.0
    return SANITIZER_LIMIT_S * (scale if 0 < scale < 1e6 else 1.0)


def run_bounded(command, env, limit_s, cwd=None):
    """Runs command (its output captured; in the folder cwd when given); None when it ran past
    limit_s, after stopping it and everything it started (compute-sanitizer and the program
    under it)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                               start_new_session=True, cwd=cwd)
    try:
        output, _ = process.communicate(timeout=limit_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None
    return subprocess.CompletedProcess(command, process.returncode, output)


def main():
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(args) == 3 and args[0] == "--explain":  # --explain SAMPLE PROGRAM: parse a saved report
        with open(args[1], encoding="utf-8") as f:
            text = f.read()
        print(explain_race(text, args[2]) or explain_sync(text, args[2]) or "no finding")
        return 0
    if "--races" not in args or args.index("--races") < 1:
        print(__doc__)
        return 2
    split = args.index("--races")
    program, check_args, race_args = args[0], args[1:split], args[split + 1:]
    sys.stdout.flush()
    rc = subprocess.run([program] + check_args).returncode
    if rc not in (0, 1):
        return rc
    tool = sanitizer()
    if rc == 1:
        # Wrong numbers: a race often makes them wrong on one GPU and right on another, so the
        # tools still look at the small case, and their finding names the likely cause.
        if tool is not None:
            sys.stdout.flush()
            _, message, finding = run_tools(tool, program, race_args)
            if finding:
                print(f"{message} (the likely cause of the wrong numbers above)")
        return 1
    if tool is None:
        print("SKIP: the numbers are right, but compute-sanitizer was not found (it comes with the CUDA toolkit, "
              "in its bin/ folder: put that on PATH), so races and barrier errors were NOT checked")
        return SKIPPED
    code, message, _ = run_tools(tool, program, race_args)
    if message:
        print(message)
    return code


def run_tools(tool, program, race_args):
    """Runs the small case under memcheck, racecheck and synccheck, and returns (exit code, the
    verdict line or "", whether a tool found a hazard)."""
    # Under the sanitizer the program runs many times slower: its check's time limit grows with it.
    slowed = dict(os.environ, WORKBOOK_CHECK_TIME_SCALE=os.environ.get("WORKBOOK_CHECK_TIME_SCALE", "20"))
    limit_s = sanitizer_limit_s()
    # Wrong results under one tool, with no finding of it (a race that the tool's slower run
    # turns into wrong numbers), wait for the other tools: a finding of theirs names the cause.
    wrong_under = None
    for name, explain in (("memcheck", explain_memory), ("racecheck", explain_race), ("synccheck", explain_sync)):
        try:
            result = run_bounded([tool, "--tool", name, "--error-exitcode", str(FINDING_EXIT),
                                  "--print-limit", "3", program] + race_args, slowed, limit_s)
        except OSError as error:
            return (SANITIZER_BROKEN, f"ERROR: compute-sanitizer {name} could not start ({error}): races were NOT "
                    "checked", False)
        if result is None:
            return 1, (f"FAILED: the small case ({' '.join(race_args)}) did not finish under compute-sanitizer {name} "
                       f"within {limit_s:.0f} s, where a correct solution needs a few seconds. Likely causes: a loop "
                       "that runs far too many times (a bound multiplied where it should be divided) or never ends, "
                       "or a kernel that never finishes."), False
        if result.returncode == 0:
            print(f"{name}: no hazard on the small case ({' '.join(race_args)})")
            continue
        last = " | ".join(result.stdout.splitlines()[-3:])
        reason = explain(result.stdout, program)
        if reason is None and result.returncode == FINDING_EXIT:  # a finding this script cannot word
            reason = f"{name} reported an error: {last}"
        if reason is None and result.returncode == 1 and VERDICT.search(result.stdout):
            wrong_under = wrong_under or f"the check failed under {name} on the small case: {last}"
            continue
        if reason is None and result.returncode == SKIPPED:
            return SKIPPED, f"SKIP: the small case found no usable GPU under {name}", False
        if reason is None:  # the tool itself failed: no finding, and nothing checked
            return (SANITIZER_BROKEN, f"ERROR: the run under compute-sanitizer {name} failed "
                    f"(exit {result.returncode}) without a finding, so races were NOT checked: {last}", False)
        return 1, f"FAILED: {reason}", True
    if wrong_under:
        return 1, f"FAILED: {wrong_under}", False
    return 0, "", False


if __name__ == "__main__":
    sys.exit(main())
