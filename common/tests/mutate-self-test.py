#!/usr/bin/env python3
"""mutate-self-test.py: scripts/maintainer/mutate.py finds the regions, makes the mutants students
write, judges a check's output as the student would read it, finds stale reports, rounds shares
down, and runs the checks of GPU exercises one at a time."""
import importlib.util
import os
import sys
import tempfile

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

rows = [{"file": "f", "outcome": "killed", "reason": ""}] * 19 + [{"file": "f", "outcome": "survived", "reason": ""}]
expect(mutate.summarise(rows)["f"][:2] == (19, 20), "an unexplained survivor counts against the goal")
rows[-1] = {"file": "f", "outcome": "survived", "reason": "equivalent: same order"}
expect(mutate.summarise(rows)["f"][:3] == (19, 19, 1), "an equivalent survivor is not counted")

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
        mutate.write_report("99-x", ["solutions/99-x/f.cu"], found, [])
        expect(mutate.compare_with_report("99-x", ["solutions/99-x/f.cu"], found) == 0,
               "a run with the committed outcomes agrees")
        found[0].outcome = "survived"
        expect(mutate.compare_with_report("99-x", ["solutions/99-x/f.cu"], found) == 1,
               "a changed outcome differs from the committed report")
    finally:
        mutate.ROOT = saved_root

# A given file (no exercise beside it) with MUTATED regions: found, and its mutants go over itself.
with tempfile.TemporaryDirectory() as root:
    for folder in ("lessons/99-x", "solutions/99-x"):
        os.makedirs(os.path.join(root, folder))
    for name in ("lessons/99-x/f.cu", "solutions/99-x/f.cu"):
        with open(os.path.join(root, name), "w") as f:
            f.write(SAMPLE)
    with open(os.path.join(root, "solutions/99-x/given.cu"), "w") as f:
        f.write(SAMPLE.replace("// >>> TODO 1: the sum", "// >>> MUTATED: the sum").replace("// <<< TODO 1",
                                                                                          "// <<< MUTATED"))
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

# Checks of GPU exercises run one at a time, those of CPU exercises side by side.
import threading
import time


def most_at_once(kind):
    running, most, lock = [0], [0], threading.Lock()

    def fake_check(command, limit_s):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.2)
        with lock:
            running[0] -= 1
        return 0, "PASSED"

    exercise = mutate.Exercise(f"99-x|99-x||{kind}|lessons/99-x/f.cu|99-x")
    workers = [mutate.Worker(os.path.join(tempfile.gettempdir(), f"w{i}"), [exercise], []) for i in range(3)]
    for worker in workers:
        worker.build_lesson = lambda e: True
        worker.run_check = fake_check
    threads = [threading.Thread(target=w.check, args=(exercise, 10)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return most[0]


expect(most_at_once("gpu") == 1, "the checks of a GPU exercise never share the GPU")
expect(most_at_once("cpu") > 1, "the checks of a CPU exercise run side by side")

print(f"{'FAILED' if failures else 'PASSED'}: mutate.py self-test, {len(failures)} problem(s)")
sys.exit(1 if failures else 0)
