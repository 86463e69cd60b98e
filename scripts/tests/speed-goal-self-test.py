#!/usr/bin/env python3
"""speed-goal-self-test.py SOURCE_DIR BUILD_DIR: the speed line of scripts/progress reads right,
and a new run's charts reach the built documentation.

Builds two benchmark CSVs of the common schema (an exercise twice as slow as the reference on
one row, as fast on another, a cuBLAS row that is not the student's), and checks the fraction
(the geometric mean, 71%), the roof, the verdicts against the goals the lessons' manifests give (BUILD_DIR/workbook-speed-goals.tsv),
and that rows that do not pair are reported rather than compared. A goal is met when the measured
fraction reaches it, no margin: 98% of the reference misses a stretch goal of 100%, 78% a goal of
80%, in the table's line and in the report's goal_met and stretch_met, and a fraction just below
a goal is not shown rounded up to it."""
import types
import importlib.machinery
import importlib.util
import os
import sys
import tempfile

source, build = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(source, "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)

HEADER = ("lesson,kernel,precision,shape,n,block,repeats,median_ms,min_ms,max_ms,transfers,rate,rate_unit,"
          "ceiling,ceiling_rate,ratio,baseline,baseline_ms,speedup,device,flops,dram_bytes,intensity,"
          "achieved_gflops,achieved_gbs,roof_gbs,roof_gflops,roof_fraction")


def write(path, rows):
    with open(path, "w") as f:
        f.write("# cuda-workbook benchmark\n# device: test\n" + HEADER + "\n")
        for kernel, block, ms, roof in rows:
            f.write(f"02-naive-matmul,{kernel},double,2000x2000x2000,2000,{block},3,{ms},{ms},{ms},0,1,GFLOP/s,"
                    f",,,,,,test,1,1,1,1,1,1,1,{roof}\n")


failures = []

# After a new run the charts are drawn again; the built documentation's copies follow, and only
# the images it already shows are replaced.
with tempfile.TemporaryDirectory() as build_dir:
    charts, html = os.path.join(build_dir, "charts"), os.path.join(build_dir, "docs", "html")
    os.makedirs(charts)
    os.makedirs(html)
    for folder, name, text, age in ((html, "02-naive-matmul.svg", "old", 100), (charts, "02-naive-matmul.svg", "new", 0),
                                    (charts, "not-on-a-page.svg", "new", 0)):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            f.write(text)
        os.utime(path, (os.path.getmtime(path) - age,) * 2)
    copied = progress.refresh_docs_charts(build_dir)
    with open(os.path.join(html, "02-naive-matmul.svg")) as f:
        if copied != 1 or f.read() != "new" or os.path.exists(os.path.join(html, "not-on-a-page.svg")):
            failures.append(f"the documentation's chart images are not refreshed right (copied {copied})")
with tempfile.TemporaryDirectory() as folder:
    mine, reference, odd = (os.path.join(folder, name) for name in ("mine.csv", "reference.csv", "odd.csv"))
    write(mine, [("cublas-dgemm", "-", 1.0, 0.9), ("naive", "8x8", 4.0, 0.05), ("naive", "16x16", 2.0, 0.1)])
    write(reference, [("cublas-dgemm", "-", 1.0, 0.9), ("naive", "8x8", 2.0, 0.1), ("naive", "16x16", 2.0, 0.1)])
    write(odd, [("naive", "32x32", 2.0, 0.1)])
    goals = progress.read_goals(build)
    pattern, goal, stretch, timed = goals["02-naive-matmul"]
    if timed != "kernel" or goals["11-streams-overlap"][3] != "with-transfers":
        failures.append("the timed column of workbook-speed-goals.tsv is not read right")
    result = progress.speed_against_reference(mine, reference, pattern)
    if result is None or abs(result[0] - 0.5 ** 0.5) > 1e-9 or result[2] != 2:
        failures.append(f"fraction: expected 71% over 2 rows, got {result}")
    line = progress.speed_line(result, goal, stretch)
    if "71% of the reference" not in line or "not yet" not in line:
        failures.append(f"line below the goal: {line}")
    if "met" not in progress.speed_line((0.9, 0.5, 1), goal, stretch):
        failures.append("a run above the goal does not say the goal is met")
    if "stretch goal 100% met" not in progress.speed_line((1.02, None, 1), goal, stretch).replace("and stretch", "stretch"):
        failures.append("a run above the stretch goal does not say so")
    if "stretch goal 100% not yet" not in progress.speed_line((0.98, None, 1), goal, stretch):
        failures.append("98% of the reference meets a 100% stretch goal")
    if "goal 80% not yet" not in progress.speed_line((0.78, None, 1), goal, stretch):
        failures.append("78% of the reference meets a goal of 80%")
    line = progress.speed_line((0.798, None, 1), goal, stretch)
    if "79.8% of the reference" not in line or "goal 80% not yet" not in line:
        failures.append(f"79.8% of the reference reads as the goal of 80%: {line}")
    # The report's verdicts (scripts/progress --report): the measured fraction against the goals.
    for fraction, goal_met, stretch_met in ((0.78, False, False), (0.8, True, False), (0.98, True, False),
                                            (1.0, True, True)):
        slower, one_row = os.path.join(folder, "slower.csv"), os.path.join(folder, "one-row.csv")
        write(slower, [("naive", "8x8", 2.0 / fraction, 0.1)])
        write(one_row, [("naive", "8x8", 2.0, 0.1)])
        exercise = types.SimpleNamespace(target_id="02-naive-matmul", speed=None, speed_fields=None)
        progress.set_speed(exercise, slower, one_row, goals)
        fields = exercise.speed_fields or {}
        if (fields.get("goal_met"), fields.get("stretch_met")) != (goal_met, stretch_met):
            failures.append(f"the report at {fraction:.0%} of the reference: goal_met {fields.get('goal_met')}, "
                            f"stretch_met {fields.get('stretch_met')}; expected {goal_met}, {stretch_met}")
    if "one after the other" not in line:
        failures.append(f"the line does not say that the two runs are one after the other: {line}")
    if "stretch goal 100% not yet" not in progress.speed_line((0.95, None, 1), goal, stretch):
        failures.append("95% of the reference meets a 100% stretch goal")
    if progress.speed_against_reference(odd, reference, pattern) is not None:
        failures.append("rows that do not pair were compared")
    # The challenge: your fastest row against the ceiling measured beside it in the same run (the
    # CSV's ceiling and ratio columns), read from your run alone; every lesson's target comes from
    # its manifest, and rows without a ceiling give no line.
    challenges = progress.read_challenges(build)
    if "02-naive-matmul" not in challenges:
        failures.append("workbook-challenges.tsv has no challenge of 02-naive-matmul")
    measured = os.path.join(folder, "ceiling.csv")
    with open(measured, "w") as f:
        f.write("# cuda-workbook benchmark\n# device: test\n" + HEADER + "\n")
        for ms, ratio in ((4.0, 0.25), (2.0, 0.5), (1.5, 0.9)):
            f.write(f"02-naive-matmul,naive,double,2000x2000x2000,2000,16x16,3,{ms},{ms},{ms},0,1,GFLOP/s,"
                    f"cublas-dgemm,1,{ratio},,,,test,1,1,1,1,1,1,1,0.1\n")
    for target, met in ((1.0, False), (0.9, True), (0.95, False)):
        exercise = types.SimpleNamespace(target_id="02-naive-matmul", challenge="", challenge_fields=None)
        progress.set_challenge(exercise, measured, goals, {"02-naive-matmul": target})
        fields = exercise.challenge_fields or {}
        if (fields.get("best"), fields.get("median"), fields.get("rows"), fields.get("met")) != (0.9, 0.5, 3, met):
            failures.append(f"challenge {target:.0%}: read {fields}, expected best 0.9, median 0.5, 3 rows, met {met}")
        if "cublas-dgemm" not in exercise.challenge or ("open, never required" in exercise.challenge) == met:
            failures.append(f"challenge {target:.0%}: the line reads wrong: {exercise.challenge}")
    exercise = types.SimpleNamespace(target_id="02-naive-matmul", challenge="", challenge_fields=None)
    progress.set_challenge(exercise, mine, goals, {"02-naive-matmul": 1.0})
    if exercise.challenge or exercise.challenge_fields:
        failures.append("rows without a ceiling gave a challenge line")
for failure in failures:
    print("FAIL:", failure)
print("OK: the speed line reads right" if not failures else "")
sys.exit(1 if failures else 0)
