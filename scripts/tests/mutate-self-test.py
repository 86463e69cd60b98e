#!/usr/bin/env python3
"""mutate-self-test.py: scripts/maintainer/mutate.py finds the regions, makes the mutants students
write (each line and each position its own mutant), judges a check's output as the student would
read it, judges a GPU survivor with compute-sanitizer (a fake one here), finds stale reports,
rounds shares down, fails `verify` on every report that is not complete, current, judged and at
the goal, and runs each GPU check on GPUs of its own."""
import importlib.util
import os
import stat
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("mutate", os.path.join(ROOT, "scripts", "maintainer", "mutate.py"))
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what)


SAMPLE = """// header
int f(const int* a, int n) {
    // >>> TODO 1: the sum
    int sum = 0;  // a comment with i < n
    for (int i = 0; i < n; ++i) sum += a[i * 2 + 1];
    __syncthreads();
    return sum;
    // <<< TODO 1
}
static_cast<long>(x) < y;
"""
lines = SAMPLE.split("\n")
expect(mutate.marked_regions(lines) == [(3, 6)], "the region is the lines between the markers")
mutants = mutate.region_mutants("solutions/x/f.cu", lines, 3, 6)
texts = {(m.operator, m.mutated.strip()) for m in mutants}
expect(("increment ++ to --", "for (int i = 0; i < n; --i) sum += a[i * 2 + 1];") in texts, "++ becomes --")
expect(("compare < to <=", "for (int i = 0; i <= n; ++i) sum += a[i * 2 + 1];") in texts, "an off-by-one bound")
expect(("constant 1 to 2", "for (int i = 0; i < n; ++i) sum += a[i * 2 + 2];") in texts, "a constant off by one")
expect(("sync removed __syncthreads", "(void)0;") in texts, "a barrier removed")
expect(any(op == "statement deleted" for op, _ in texts), "a statement deleted")
expect(not any("a comment with" in m.mutated and m.line == 5 and "<=" in m.mutated.split("//")[1] for m in mutants),
       "comments are not mutated")
expect(not any(m.line > 7 for m in mutants), "nothing outside the region is mutated")
template = mutate.line_mutants("f", 1, "    long x = static_cast<long>(i) * n;")
expect(not any(m.operator.startswith("compare") for m in template), "template brackets are not comparisons")

expect(mutate.without_comment('    s = "//"; // note') == '    s = "//";', "a // inside a string is not a comment")
expect(mutate.without_comment("x = 1;  /* why */") == "x = 1;", "a trailing /* comment */ is left out")

judge = mutate.judge
expect(judge(1, "01-x: FAILED\n    C[0][0] = nan (expected 1)\n")[0] == "killed", "a wrong element kills")
expect(judge(1, "01-x: FAILED\n")[0] == "survived", "FAILED without a message survives")
warned = "    1 compiler warning in your code (not errors):\n      lessons/01-x/a.cpp:9:9: warning: unused variable\n"
expect(judge(1, "01-x: FAILED\n" + warned)[0] == "survived", "a compiler warning is no message of the check")
expect(judge(1, "01-x: FAILED\n    C[0][0] = nan (expected 1)\n" + warned) ==
       ("killed", "C[0][0] = nan (expected 1)"), "a warning under the check's message leaves the message")
expect(judge(0, "01-x: PASSED\n")[0] == "survived", "a pass survives")
expect(judge(None, "")[0] == "survived", "a hang stopped from outside survives")
expect(judge(1, "01-x: FAILED: it does not compile\n    error: x\n")[0] == "stillborn", "a build error is stillborn")
expect(judge(77, "01-x: SKIPPED\n")[0] == "skipped", "a skip is not a kill")
expect(judge(1, "01-x: FAILED\n    v1 sums: all 8 elements correct\n    FAILED: the check did not finish within 120 s\n")[1].startswith("FAILED: the check did not finish"),
       "the detail is the explanation, not a version that passed before it")

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "f.cu")
    with open(path, "w") as f:
        f.write(SAMPLE)
    before = mutate.regions_hash(path)
    with open(path, "w") as f:
        f.write(SAMPLE.replace("static_cast<long>(x) < y;", "changed outside;"))
    expect(mutate.regions_hash(path) == before, "a change outside the regions keeps the report current")
    with open(path, "w") as f:
        f.write(SAMPLE.replace("a[i * 2 + 1]", "a[i * 2]"))
    expect(mutate.regions_hash(path) != before, "a change inside a region makes the report stale")
    with open(path, "w") as f:
        f.write(SAMPLE.replace("// a comment with i < n", "// another comment").replace("    __syncthreads();",
                                                                                      "\n    __syncthreads();"))
    expect(mutate.regions_hash(path) == before, "a comment or a blank line changed in a region keeps the report current")

tally = mutate.mutation_report.tally
rows = [{"file": "f", "outcome": "killed", "reason": ""}] * 19 + [{"file": "f", "outcome": "survived", "reason": ""}]
expect((tally(rows)["f"].killed, tally(rows)["f"].counted) == (19, 20), "an unexplained survivor counts against the goal")
rows[-1] = {"file": "f", "outcome": "survived", "reason": "equivalent: same order"}
expect((tally(rows)["f"].counted, tally(rows)["f"].equivalent) == (19, 1), "an equivalent survivor is not counted")
rows[-1] = {"file": "f", "outcome": "pending", "reason": "not killed: x"}
expect((tally(rows)["f"].counted, tally(rows)["f"].pending) == (19, 1), "a pending mutant is not counted yet")

# Two identical lines: a mutant of each, at its own position; comments and blank lines move no position.
TWICE = """void g(int* a) {
    // >>> TODO 1: twice
    a[0] += 1;
    a[1] = 0;
    a[0] += 1;
    // <<< TODO 1
}
"""
with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "solutions", "99-x"))
    path = os.path.join(root, "solutions", "99-x", "g.cu")
    with open(path, "w") as f:
        f.write(TWICE)
    saved_root, mutate.ROOT = mutate.ROOT, root
    try:
        twice, _ = mutate.file_mutants("solutions/99-x/g.cu")
        minus = [m for m in twice if m.operator == "compound += to -="]
        expect([m.line for m in minus] == [3, 5] and minus[0].key != minus[1].key,
               "two identical lines give a mutant each, with keys of their own")
        with open(path, "w") as f:
            f.write(TWICE.replace("    a[1] = 0;", "    // a comment\n\n    a[1] = 0;  // why"))
        moved, _ = mutate.file_mutants("solutions/99-x/g.cu")
        expect([m.key for m in moved] == [m.key for m in twice] and moved[-1].line == twice[-1].line + 2,
               "a comment or a blank line moves a mutant's line, not its key")
    finally:
        mutate.ROOT = saved_root
swap = mutate.region_mutants("f", ["x = 1;", "__syncthreads();", "__syncthreads();", "y = 2;"], 0, 3)
moves = [m for m in swap if m.operator == "synchronisation moved"]
expect(len(moves) == 2 and all(m.mutated != m.original for m in moves), "a barrier moved past an identical one is no mutant")

# A report compared with a new run: same outcomes pass, a changed outcome fails.
with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "solutions", "99-x"))
    with open(os.path.join(root, "solutions", "99-x", "f.cu"), "w") as f:
        f.write(SAMPLE)
    saved_root, mutate.ROOT = mutate.ROOT, root
    try:
        found, _ = mutate.file_mutants("solutions/99-x/f.cu")
        for mutant in found:
            mutant.outcome, mutant.detail = "killed", "x[0] = 1 (expected 2)"
        mutate.write_report("99-x", {"solutions/99-x/f.cu": found})
        expect(mutate.compare_with_report("99-x", ["solutions/99-x/f.cu"], found) == 0,
               "a run with the committed outcomes agrees")
        found[0].outcome = "survived"
        expect(mutate.compare_with_report("99-x", ["solutions/99-x/f.cu"], found) == 1,
               "a changed outcome differs from the committed report")
    finally:
        mutate.ROOT = saved_root

def small_course(root):
    """lessons/99-x/f.cu with its solution (an exercise), and solutions/99-x/given.cu (a given file)."""
    for folder in ("lessons/99-x", "solutions/99-x", "docs/lessons"):
        os.makedirs(os.path.join(root, folder))
    for name in ("lessons/99-x/f.cu", "solutions/99-x/f.cu"):
        with open(os.path.join(root, name), "w") as f:
            f.write(SAMPLE)
    with open(os.path.join(root, "solutions/99-x/given.cu"), "w") as f:
        f.write(SAMPLE.replace("// >>> TODO 1: the sum", "// >>> MUTATED: the sum").replace("// <<< TODO 1",
                                                                                          "// <<< MUTATED"))


# A given file (no exercise beside it) with MUTATED regions: found, and its mutants go over itself.
with tempfile.TemporaryDirectory() as root:
    small_course(root)
    with open(os.path.join(root, "solutions/99-x/plain.cu"), "w") as f:
        f.write("int g() { return 1; }\n")
    saved_root, mutate.ROOT = mutate.ROOT, root
    try:
        expect(mutate.given_files(root) == {"99-x": ["solutions/99-x/given.cu"]},
               "a given file with MUTATED regions is found; an exercise's solution and a plain file are not")
        expect(mutate.exercise_files(root) == {"99-x": ["solutions/99-x/f.cu", "solutions/99-x/given.cu"]},
               "the reports cover the given files too")
        given, _ = mutate.file_mutants("solutions/99-x/given.cu")
        solved, _ = mutate.file_mutants("solutions/99-x/f.cu")
        expect(given and mutate.file_under_test(given[0]) == "solutions/99-x/given.cu",
               "a given file's mutant is written over the file itself")
        expect(mutate.file_under_test(solved[0]) == "lessons/99-x/f.cu", "a solution's mutant goes over the exercise")
    finally:
        mutate.ROOT = saved_root

# A share is rounded down: 35 of 37 (94.59%) must not read as the goal of 95%.
expect(mutate.share_text(35 / 37) == "94.5%", "35 of 37 is written 94.5%")
expect(mutate.share_text(1.0) == "100%", "all killed is written 100%")


def report_text(root):
    with open(os.path.join(root, "solutions/99-x/mutation-report.tsv")) as f:
        return f.read()


def write_text(root, text):
    with open(os.path.join(root, "solutions/99-x/mutation-report.tsv"), "w") as f:
        f.write(text)


def fresh_report(outcome_of=lambda file, index: ("killed", "x[0] = 1 (expected 2)", "")):
    """A report of both files, each mutant's (outcome, detail, reason) from outcome_of."""
    judged = {}
    for file in ("solutions/99-x/f.cu", "solutions/99-x/given.cu"):
        judged[file], _ = mutate.file_mutants(file)
        for index, mutant in enumerate(judged[file]):
            mutant.outcome, mutant.detail, mutant.reason = outcome_of(file, index)
    mutate.write_report("99-x", judged)
    return judged


# verify: a complete, current, judged report at the goal passes; each way of being otherwise fails.
with tempfile.TemporaryDirectory() as root:
    small_course(root)
    saved_root, mutate.ROOT = mutate.ROOT, root
    try:
        fresh_report()
        expect(mutate.verify_lesson("99-x") == [], "a complete report of killed mutants passes")
        good = report_text(root)
        lines = good.split("\n")
        first_row = next(i for i, l in enumerate(lines) if l.startswith("solutions/99-x/f.cu\t"))

        write_text(root, "\n".join(lines[:first_row] + lines[first_row + 1:]))
        expect(any("have no row" in p for p in mutate.verify_lesson("99-x")), "a deleted row fails")
        row = lines[first_row].split("\t")
        row[2] = "99:0"
        write_text(root, "\n".join(lines + ["\t".join(row)]))
        expect(any("name no mutant" in p for p in mutate.verify_lesson("99-x")), "an extra row fails")
        write_text(root, "\n".join(lines + [lines[first_row]]))
        expect(any("rows for the mutant" in p for p in mutate.verify_lesson("99-x")), "a row given twice fails")

        # A survivor's row deleted and its summary typed to match the rows left: still a failure.
        fresh_report(lambda file, index: ("survived", "the check passed", "not killed: x") if index == 0
                     and file.endswith("f.cu") else ("killed", "x", ""))
        kept = [l for l in report_text(root).split("\n")
                if not (l.startswith("solutions/99-x/f.cu\t") and "\tsurvived\t" in l)]
        rows = [dict(zip(mutate.mutation_report.HEADER, l.split("\t"))) for l in kept if l.startswith("solutions/")]
        typed = mutate.mutation_report.summary_line("solutions/99-x/f.cu", tally(rows)["solutions/99-x/f.cu"])
        kept = [typed if l.startswith("# summary solutions/99-x/f.cu:") else l for l in kept]
        write_text(root, "\n".join(kept))
        found = mutate.verify_lesson("99-x")
        expect(any("have no row" in p for p in found) and not any("summary line" in p for p in found),
               "a deleted survivor fails, even with a summary typed to match the rows left")
        write_text(root, good.replace("non-equivalent mutants killed", "non-equivalent mutants  killed", 1))
        expect(any("summary line" in p for p in mutate.verify_lesson("99-x")), "a summary that differs fails")

        fresh_report(lambda file, index: ("pending", "not built yet", "") if index == 3 else ("killed", "x", ""))
        expect(any("pending" in p for p in mutate.verify_lesson("99-x")), "a pending row fails")
        for reason in ("equivalent: the same sums, only slower", "equivalent: writes past the array, undefined "
                       "behaviour that nvcc deletes", "equivalent: the same C, only later",
                       "equivalent: at the lesson's sizes every row is summed"):
            fresh_report(lambda file, index: ("survived", "the check passed", reason) if index == 0
                         else ("killed", "x", ""))
            expect(any("an equivalent mutant has the same results" in p for p in mutate.verify_lesson("99-x")),
                   f"'{reason}' is refused")
        fresh_report(lambda file, index: ("survived", "the check passed", "") if index == 0 else ("killed", "x", ""))
        expect(any("needs a reason" in p for p in mutate.verify_lesson("99-x")), "a survivor without a reason fails")
        fresh_report(lambda file, index: ("survived", "the check passed", "equivalent: the same sum in the same order")
                     if index == 0 else ("killed", "x", ""))
        expect(mutate.verify_lesson("99-x") == [], "an equivalent survivor with a reason on results passes")

        # Below the goal: a given file passes only when its lesson's page states its share.
        half = lambda file, index: ("survived", "the check passed", "not killed: x") if index % 2 \
            else ("killed", "x", "")
        fresh_report(half)
        below = [p for p in mutate.verify_lesson("99-x") if "below the goal" in p]
        expect(len(below) == 2, "a file below the goal fails, given or exercise")
        with open(os.path.join(root, "docs/lessons/99-x.md"), "w") as f:
            f.write("<!-- figures\ng = mutation-report: file=solutions/99-x/given.cu\n"
                    "e = mutation-report: file=solutions/99-x/f.cu\n-->\n"
                    "It kills {{ g.killed ; d }} of {{ g.counted ; d }} ({{ g.percent }}), and {{ e.percent }}.\n")
        below = [p for p in mutate.verify_lesson("99-x") if "below the goal" in p]
        expect(len(below) == 1 and "solutions/99-x/f.cu" in below[0],
               "a given file below the goal passes when its page states the share; an exercise file never does")
        with open(os.path.join(root, "docs/lessons/99-x.md"), "w") as f:
            f.write("<!-- figures\ng = mutation-report: file=solutions/99-x/given.cu\n-->\nNo share stated.\n")
        expect(len([p for p in mutate.verify_lesson("99-x") if "below the goal" in p]) == 2,
               "a binding that no placeholder uses states nothing")

        # A pending row passes only where the lesson's page states that file's share (with the
        # count not judged yet); the other file's pending row still fails.
        fresh_report(lambda file, index: ("pending", "not built yet", "") if index == 3 else ("killed", "x", ""))
        with open(os.path.join(root, "docs/lessons/99-x.md"), "w") as f:
            f.write("<!-- figures\ne = mutation-report: file=solutions/99-x/f.cu\n-->\n"
                    "It kills {{ e.killed ; d }} of {{ e.counted ; d }} ({{ e.percent }}{{ e.pending_note }}).\n")
        waiting = [p for p in mutate.verify_lesson("99-x") if "pending" in p]
        expect(len(waiting) == 1 and "solutions/99-x/given.cu" in waiting[0],
               "a pending row passes when its page states the file's share, and fails where it does not")
        os.remove(os.path.join(root, "docs/lessons/99-x.md"))

        # A stale report (a region's code changed) fails and names the command to run.
        fresh_report()
        with open(os.path.join(root, "solutions/99-x/f.cu"), "w") as f:
            f.write(SAMPLE.replace("a[i * 2 + 1]", "a[i * 2]"))
        expect(any("stale" in p and "--pending" in p for p in mutate.verify_lesson("99-x")),
               "a stale report fails with the command that judges it again")
        with open(os.path.join(root, "solutions/99-x/f.cu"), "w") as f:
            f.write(SAMPLE)

        # run --pending judges only the mutants without a judged row.
        fresh_report(lambda file, index: ("pending", "x", "not killed: y") if index == 2 else ("killed", "x", ""))
        mutants, _ = mutate.file_mutants("solutions/99-x/f.cu")
        rows = mutate.current_rows(mutate.read_report("99-x"), "solutions/99-x/f.cu")
        del rows[mutants[5].key]
        todo = mutate.take_judged_rows(mutants, rows)
        expect([m.key for m in todo] == [mutants[2].key, mutants[5].key] and mutants[0].outcome == "killed",
               "--pending takes the pending mutants and those without a row, and keeps the judged rows")
        expect(mutate.carried_reasons(mutate.read_report("99-x"), "solutions/99-x/f.cu", mutants)
               == {mutants[2].key: "not killed: y"}, "a pending row's reason is kept for its survivor")
        # A run stopped at its deadline writes what it judged; the rest keeps its pending row, or
        # becomes pending when it had none.
        mutants[5].outcome = ""
        mutants[2].outcome = ""
        expect(mutate.keep_unjudged_pending(mutants, rows) == 2 and mutants[2].outcome == "pending"
               and mutants[2].reason == "not killed: y" and mutants[5].detail == "not judged yet"
               and mutants[0].outcome == "killed", "a run cut short keeps its unjudged mutants pending")
    finally:
        mutate.ROOT = saved_root

# compute-sanitizer judges a GPU mutant whose check passed: a fake tool on PATH reports a finding
# when the file under test holds "BUG" (the mutant) under the tool named by FAKE_FINDS, and every
# run in the folder named by FAKE_DIRTY (the solved program is not clean there).
FAKE_SANITIZER = """#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
tool = args[args.index("--tool") + 1]
program = next(a for a in args if "/bin/" in a)
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"{tool} {program} {os.environ.get('CUDA_VISIBLE_DEVICES', '-')} {os.environ.get('WORKBOOK_CHECK_TIME_SCALE')}\\n")
with open(os.environ["FAKE_TREE_FILE"]) as f:
    bug = "BUG" in f.read() and tool == os.environ.get("FAKE_FINDS")
if bug or (os.environ.get("FAKE_DIRTY") and os.environ["FAKE_DIRTY"] in program):
    print("========= COMPUTE-SANITIZER")
    print("========= Invalid __global__ write of size 4 bytes")
    print("=========     at kernel(int *)+0x70")
    print("=========     by thread (0,0,0) in /tmp/tree/f.cu:12")
    print("========= ERROR SUMMARY: 1 error")
    sys.exit(99)
print("========= COMPUTE-SANITIZER")
print("========= ERROR SUMMARY: 0 errors")
"""
with tempfile.TemporaryDirectory() as root:
    small_course(root)
    tools = os.path.join(root, "tools")
    os.makedirs(tools)
    with open(os.path.join(tools, "compute-sanitizer"), "w") as f:
        f.write(FAKE_SANITIZER.replace("/usr/bin/env python3", sys.executable))
    os.chmod(os.path.join(tools, "compute-sanitizer"), stat.S_IRWXU)
    saved_root, saved_path, saved_gpus = mutate.ROOT, os.environ["PATH"], mutate.GPUS
    mutate.ROOT, mutate.GPUS = root, mutate.Gpus(["3"])
    os.environ["PATH"] = tools + os.pathsep + saved_path
    log = os.path.join(root, "sanitizer.log")
    try:
        def sanitized(finds="", dirty="", passed=True, tools_here=True):
            """The outcome and detail of the first mutant of f.cu, made to hold BUG, in a fresh worker."""
            exercise = mutate.exercise_list.Exercise("99-x|99-x||gpu|lessons/99-x/f.cu|99-x")
            folder = os.path.join(root, "w" + str(len(os.listdir(root))))
            worker = mutate.Worker(folder, [exercise], [])
            for build in (worker.build, worker.debug_build):
                os.makedirs(os.path.join(build, "bin"))
                open(os.path.join(build, "bin", "99-x-exercise"), "w").close()
            with open(os.path.join(worker.build, "gpu-jobs.txt"), "w") as f:
                f.write("sanitize 99-x-solution --check --sizes 7\nsanitize 98-y-solution --check\n")
            os.makedirs(os.path.join(worker.tree, "lessons/99-x"))
            worker.configure = lambda build, options: None
            worker.build_targets = lambda build, targets: True
            worker.check = lambda e, limit_s: (0, "99-x: PASSED\n") if passed else (1, "99-x: FAILED\n    x (expected y)\n")
            os.environ.update(FAKE_LOG=log, FAKE_TREE_FILE=os.path.join(worker.tree, "lessons/99-x/f.cu"),
                              FAKE_FINDS=finds, FAKE_DIRTY=dirty)
            mutants, lines = mutate.file_mutants("solutions/99-x/f.cu")
            mutant = mutants[0]
            mutant.mutated = mutant.mutated + "  // BUG"
            open(log, "w").close()
            if worker.run(exercise, mutant, lines, 10, tools_here=tools_here) == mutate.LEFT_FOR_TOOLS:
                with open(os.environ["FAKE_TREE_FILE"]) as f:
                    expect(f.read() == SAMPLE and not mutant.outcome and "check" in mutant.seconds,
                           "a mutant left for the tools has no outcome yet, and the solved file is back")
                with open(log) as f:
                    expect(f.read() == "", "the worker that leaves a mutant for the tools runs none")
                worker.run_tools(exercise, mutant, lines, 10)
            with open(os.environ["FAKE_TREE_FILE"]) as f:
                restored = f.read() == SAMPLE
            with open(log) as f:
                runs = f.read().split("\n")[:-1]
            return mutant.outcome, mutant.detail, runs, restored

        outcome, detail, runs, restored = sanitized(finds="initcheck")
        expect(outcome == "killed" and detail == "compute-sanitizer initcheck: Invalid __global__ write of size 4 "
               "bytes (f.cu:12)", f"a finding of initcheck kills the mutant, its first error line the detail: {detail}")
        expect(restored, "the solved file is back after the mutant's check and sanitizer runs")
        expect(all("/build-debug/bin/99-x-exercise 3 20" in r for r in runs) and len(runs) == 4,
               f"the solved program passes both tools in the -G build, then the mutant runs there, on the GPU "
               f"held, with the time limits scaled: {runs}")
        outcome, detail, runs, restored = sanitized(finds="initcheck", tools_here=False)
        expect(outcome == "killed" and detail.startswith("compute-sanitizer initcheck") and restored,
               f"a mutant whose check passed in another copy is judged by the tools in this one: {detail}")
        outcome, detail, runs, _ = sanitized()
        expect(outcome == "survived" and "found nothing in the -G build" in detail,
               f"no finding: a survivor that says what ran: {detail}")
        outcome, detail, runs, _ = sanitized(finds="memcheck", dirty="build-debug")
        expect(outcome == "killed" and runs[-1].split()[1].endswith("/build/bin/99-x-exercise"),
               f"where the solved program is not clean in the -G build, the release build judges: {runs}")
        outcome, detail, runs, _ = sanitized(finds="memcheck", passed=False)
        expect(outcome == "killed" and detail == "x (expected y)" and runs == [],
               "a mutant that the check kills runs no tool")
        outcome, detail, runs, _ = sanitized(finds="memcheck", dirty="/bin/")
        expect(outcome == "skipped" and "do not pass under compute-sanitizer" in detail,
               f"where the solved program passes under the tools in no build, the mutant is not judged: {detail}")
        # A GPU check's time is told in parts: building its lesson, then waiting for a GPU.
        exercise = mutate.exercise_list.Exercise("99-x|99-x||gpu|lessons/99-x/f.cu|99-x")
        worker = mutate.Worker(os.path.join(root, "timed"), [exercise], [])
        worker.build_targets = lambda build, targets: True
        worker.gpus_used = lambda e: 1
        worker.run_check = lambda command, limit_s, env=None: (0, "99-x: PASSED\n")
        worker.check(exercise, 10)
        worker.check(exercise, 10)
        expect(sorted(worker.parts) == ["GPU wait", "build"] and all(v >= 0 for v in worker.parts.values()),
               f"a GPU check adds up the seconds it spent building and waiting for a GPU: {worker.parts}")
    finally:
        mutate.ROOT, mutate.GPUS = saved_root, saved_gpus
        os.environ["PATH"] = saved_path

# The job board: worker 0 takes the mutants left for the tools before its own checks, and waits
# for more while other workers still check; no job after the deadline.
def take_in_thread(board, index):
    taken = []
    thread = threading.Thread(target=lambda: taken.append(board.take(index)))
    thread.start()
    return thread, taken


board = mutate.JobBoard(["a", "b", "c", "d"], 2)
expect(board.take(1) == ("check", "c"), "worker 1 checks its own slice first")
board.leave_for_tools("c")
expect(board.take(0) == ("tools", "c"), "worker 0 takes a mutant left for the tools before its own checks")
expect([board.take(0), board.take(0), board.take(0)] == [("check", "a"), ("check", "b"), ("check", "d")],
       "a worker whose slice is done takes checks from the end of the longest")
thread, taken = take_in_thread(board, 0)
time.sleep(0.3)
expect(not taken and board.take(1) is None, "with no check left, worker 0 waits while worker 1 works; worker 1 leaves")
board.leave_for_tools("d")
thread.join(timeout=5)
expect(taken == [("tools", "d")], f"the waiting worker 0 takes the mutant that worker 1 left for the tools: {taken}")
thread, taken = take_in_thread(board, 0)
board.leaving(1)
thread.join(timeout=5)
expect(taken == [None], f"worker 0 leaves once the others have and nothing waits for the tools: {taken}")
two = mutate.JobBoard(["a", "b", "c"], 3, tool_workers=2)
two.leave_for_tools("x")
two.leave_for_tools("y")
expect(two.take(2) == ("check", "c") and two.take(1) == ("tools", "x") and two.take(0) == ("tools", "y"),
       "with one tool worker per GPU, each of the first workers takes mutants left for the tools")
expect({two.take(2), two.take(2)} == {("check", "a"), ("check", "b")} and two.take(2) is None,
       "a worker that runs no tools leaves when no check is left")
thread, taken = take_in_thread(two, 1)
time.sleep(0.3)
waited = not taken
two.leaving(2)
thread.join(timeout=5)
expect(waited and taken == [None], f"a tool worker waits while another worker checks, and leaves after it: {taken}")
late = mutate.JobBoard(["a"], 1, deadline_s=0.05)
time.sleep(0.1)
expect(late.take(0) is None, "no job after the deadline")
stopped = mutate.JobBoard(["a", "b"], 2)
thread, taken = take_in_thread(stopped, 0)
stopped.take(1), stopped.take(1)
stopped.stop()
thread.join(timeout=5)
expect(taken in ([None], [("check", "a")]) and stopped.take(1) is None, "after stop() no worker gets a job")

# GPU checks: each on GPUs of its own, as many at once as there are GPUs; a check of two ranks
# holds two. CPU checks run side by side. With --gpu-share n, a GPU runs n checks at once of
# exercises that time nothing; one that times its code (TIMED) still holds its GPU alone.


def most_at_once(kind, gpus, ranks=1, workers_count=3, share=1, timed=False):
    running, most, seen, lock = [0], [0], [], threading.Lock()

    def fake_check(command, limit_s, env=None):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            seen.append((env or {}).get("CUDA_VISIBLE_DEVICES"))
            mine = seen[-1]
            overlapping = [s for s in held if s and mine and set(s.split(",")) & set(mine.split(","))]
            if overlapping:
                shared.append(mine)
            held.append(mine)
        time.sleep(0.2)
        with lock:
            running[0] -= 1
            held.remove(mine)
        return 0, "PASSED"

    held, shared = [], []
    mutate.GPUS = mutate.Gpus(gpus, share)
    mutate.TIMED.clear()
    if timed:
        mutate.TIMED.add("99-x")
    exercise = mutate.exercise_list.Exercise(f"99-x|99-x||{kind}|lessons/99-x/f.cu|99-x")
    workers = [mutate.Worker(os.path.join(tempfile.gettempdir(), f"w{i}"), [exercise], []) for i in range(workers_count)]
    for worker in workers:
        worker.build_lesson = lambda e: True
        worker.run_check = fake_check
        worker.tests = {"99-x.exercise-2ranks"} if ranks == 2 else set()
    threads = [threading.Thread(target=w.check, args=(exercise, 10)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return most[0], seen, shared


saved_gpus = mutate.GPUS
try:
    most, seen, shared = most_at_once("gpu", ["0"])
    expect(most == 1 and set(seen) == {"0"}, "on one GPU the checks of a GPU exercise run one at a time")
    most, seen, shared = most_at_once("gpu", ["0", "1"], workers_count=4)
    expect(most == 2 and set(seen) == {"0", "1"} and not shared,
           f"on two GPUs two checks run at once, each on its own GPU: {seen}")
    most, seen, shared = most_at_once("gpu", ["0", "1", "2"], ranks=2)
    expect(most == 1 and all(len(s.split(",")) == 2 for s in seen) and not shared,
           f"a check of two ranks holds two GPUs: {seen}")
    most, seen, shared = most_at_once("cpu", ["0"])
    expect(most > 1, "the checks of a CPU exercise run side by side")
    most, seen, shared = most_at_once("gpu", ["0"], workers_count=4, share=2)
    expect(most == 2 and set(seen) == {"0"}, f"with --gpu-share 2 one GPU runs two checks at once: {most}")
    most, seen, shared = most_at_once("gpu", ["0", "1"], workers_count=4, share=2)
    expect(most == 4, f"with --gpu-share 2 two GPUs run four checks at once: {most}")
    most, seen, shared = most_at_once("gpu", ["0"], workers_count=4, share=2, timed=True)
    expect(most == 1, f"a check that times its code holds its GPU alone, even with --gpu-share: {most}")
    most, seen, shared = most_at_once("gpu", ["0", "1", "2"], ranks=2, share=2)
    expect(most == 1 and not shared, f"a check of two ranks holds its GPUs alone, even with --gpu-share: {seen}")
    expect(mutate.ran_out_of_time(None, "") and mutate.ran_out_of_time(1, "FAILED: the check did not finish within 60 s")
           and not mutate.ran_out_of_time(1, "FAILED: 3 of 9 cases wrong"),
           "a check stopped from outside or by its own time limit ran out of time")
    expect(mutate.Gpus([]).ids == [None] and "CUDA_VISIBLE_DEVICES" not in mutate.Gpus.env([None]) or
           os.environ.get("CUDA_VISIBLE_DEVICES"), "without a GPU the environment is left as it is")
finally:
    mutate.GPUS = saved_gpus
    mutate.TIMED.clear()

print(f"{'FAILED' if failures else 'PASSED'}: mutate.py self-test, {len(failures)} problem(s)")
sys.exit(1 if failures else 0)
