#!/usr/bin/env python3
"""progress-failure-summary-test.py SOURCE_DIR: a failed check's summary in scripts/progress (what
`scripts/progress` and `scripts/check` print under FAILED) quotes the program's own line about
what is wrong, whatever its shape, and its own counts of wrong cases (where the verdict's tally
counts a group of cases as one: "38 of 4940 cases wrong" beside "1 of 1"), then the verdict.

The outputs are saved in scripts/tests/check-outputs/ (two from CPU programs of this course, the
others written in the drivers' formats): a first wrong case, a value against the expected one, a
bound to meet, a speed too low, a bank conflict, a step order, a crash mid-case; and the shapes
that keep their own summary: a wrong matrix element, a CUDA error, and a sanitizer's finding
after a check that passed."""
import importlib.machinery
import importlib.util
import os
import sys

source = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(source, "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)

VERDICT_03 = "FAILED: 1 of 1 cases wrong. See the hints on the lesson 03 page."
EXPECTED = {
    "03-occupancy-first-wrong.txt": [
        "first wrong case:   32 threads,  16 registers,  12288 B shared: 19 blocks (expected 17)",
        "H100 and H200 limits, against cuda_occupancy.h: 38 of 4940 cases wrong", VERDICT_03],
    "03-occupancy-untouched.txt": [
        "first wrong case:   32 threads,   0 registers,      0 B shared:  0 blocks (expected 32)",
        "H100 and H200 limits, against cuda_occupancy.h: 4277 of 4940 cases wrong", VERDICT_03],
    "01-cpu-matmul-too-slow.txt": [
        "cpu-ikj is correct but too slow: its innermost loop must walk along a row of B and a row",
        "of C (stride 1); a loop order such as j-k-i walks down columns and misses the caches",
        "(and cpu-ijk must keep the order i-j-k: the dot product innermost).",
        "FAILED: 1 of 21 cases wrong. See the hints on the lesson 01 page."],
    "12-profiling-too-slow.txt": [
        "FAILED: the numbers are right, but the step runs at 24% of a copy's speed (at least 70%",
        "expected). Profile it:  scripts/profile 12-profiling-exercise --profile-run",
        "and read its counters with the page's table (docs: Lesson 12).",
        "FAILED: 1 of 9 cases wrong. See the hints on the lesson 12 page."],
    "03-banks-conflict.txt": [
        "pitch 32, float  a warp on a tile column: 32 wavefront(s) (ideal 1): a bank conflict, FAILED",
        "FAILED: 1 of 11 cases wrong. See the hints on the lesson 03 page."],
    "08-decomposition.txt": [
        "rows_of_rank(1, 3, 10) = [3, 6): should start at row 4",
        "Decomposition: 2 of 59 cases wrong",
        "FAILED: 1 of 1 cases wrong. See the hints on the lesson 08 page."],
    "09-timed-region-order.txt": [
        "every step must run once, in the order: allocate, copy inputs, multiply, copy result, release",
        "FAILED: 1 of 2 cases wrong. See the hints on the lesson 09 page."],
    "01-cpu-matmul-crash.txt": [
        "cpu-ijk n=7    closed form:",
        "FAILED: the check crashed (segmentation fault or bus error): the code read or wrote outside an array "
        "(a loop bound or an index off by one?). See the hints on the lesson 01 page."],
    "03-kernel-never-finished.txt": [
        "matmul_tiled_kernel  did not finish within 20 s: a loop that runs far too many times (a bound",
        "multiplied where it should be divided) or never ends, or threads waiting",
        "for something that never comes (each case needs well under a second).",
        "FAILED: matmul_tiled_kernel never finished. See the hints on the lesson 03 page."],
    "13-kernel-fault.txt": [
        "03-warp-specialized  stopped with a fault (unspecified launch failure). In this lesson the usual causes are an",
        "mbarrier that receives more arrivals than its phase expects, or a",
        "wgmma descriptor or copy that points past the stage's tiles.",
        "FAILED: 03-warp-specialized stopped with a fault. See the hints on the lesson 13 page."],
    # Unchanged: the first wrong element alone, a CUDA error's lines, a sanitizer's finding.
    "01-cpu-matmul-wrong-element.txt": [
        "cpu-ijk n=1    closed form: C[0][0] = nan (expected 1); 1 of 1 wrong; max abs error nan, max rel error nan"],
    "02-cuda-error.txt": [
        "CUDA error at lessons/02-naive-matmul/driver.cu:48",
        "-> cudaErrorIllegalAddress: an illegal memory access was encountered",
        "hint: an index outside an array: compare the thread's row and column with n before using them"],
    "09-missing-barrier-race.txt": [
        "FAILED: race on shared memory in smoothing.cu: the write on line 31 (tile[threadIdx.x + 1] = ...) and the "
        "read on line 36 (tile[threadIdx.x + 2]) need a __syncthreads() between them"],
}

folder = os.path.join(source, "scripts", "tests", "check-outputs")
failures = []
for name in sorted(set(os.listdir(folder)) | set(EXPECTED)):
    if name not in EXPECTED:
        failures.append(f"{name}: a saved output without an expected summary in this test")
        continue
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        got = progress.explain_failure(f.read())
    if got != EXPECTED[name]:
        failures.append(f"{name}:\n    got      {got}\n    expected {EXPECTED[name]}")
for failure in failures:
    print("FAIL: " + failure)
if failures:
    sys.exit(1)
print(f"OK: {len(EXPECTED)} saved check outputs summarised by their own first wrong line, counts and verdict")
