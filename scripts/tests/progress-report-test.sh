#!/usr/bin/env bash
# progress-report-test.sh SOURCE_DIR WORK_DIR EXERCISE_LIST: `scripts/progress --report FILE`,
# the instructors' JSON, on a copy of the course with a fake CTest, CMake and nvidia-smi
# (progress-fakes.sh), nothing built, no GPU (WB_FORCE_NO_GPU=1). One exercise of each verdict:
# done (lesson 03's occupancy), failing (lesson 01 edited), not started (lesson 02 pristine),
# broken (a bug-gallery program that does not compile), skipped (a GPU check), partly checked
# (lesson 08 on one GPU), and the profiling lesson (NN-profiling) done with its benchmark and the
# reference's beside it, so that its speed fields are read from them; the hints revealed come from
# .workbook/hints.json.
# The file is written whole or not at all: a folder that does not exist, a FILE that is a folder
# and CTest failing on its own each exit 2 and leave no file, temporary or not. Exit 77 when the
# pristine copy of lesson 02 cannot be recovered, or, once the rest is checked, when the configure
# that wrote EXERCISE_LIST left lesson 08 out (no MPI): its verdict was not checked.
set -u
src=$1 work=$2 list=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/out" || exit 1
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work/tree" || fail "cannot copy the tree"
tree=$work/tree build=$work/build
bash "$src/scripts/lib/pristine-exercises.sh" "$tree" lessons/02-naive-matmul/matmul_naive.cu ||
  { echo "SKIP: this test needs lesson 02's pristine exercise"; exit 77; }
source "$src/scripts/tests/progress-fakes.sh"
left_out=$(left_out_lessons "$list" | tr '\n' ' ')
profiling=$(lesson_named "$list" profiling)
[ -n "$profiling" ] || fail "no lesson NN-profiling in $list"
fake_tools "$work/fake"
fake_build "$build" "$list"
export PATH="$work/fake:$PATH" FAKE_RESULTS="$work/results.txt" WB_FORCE_NO_GPU=1
export FAKE_BROKEN=09-bug-gallery-timed-region-exercise
progress() { python3 "$tree/scripts/progress" --build-dir "$build" "$@"; }

echo "// started" >>"$tree/lessons/01-cpu-matmul/matmul_cpu.cpp"
mkdir -p "$tree/.workbook" && echo '{"01-cpu-matmul": 2}' >"$tree/.workbook/hints.json"
# Every CPU check passes and every GPU check skips, but for these.
awk -F'|' '!/^#/ && NF { if ($4 == "cpu") print $1 ".exercise|run|PASSED"
                         else print $1 ".exercise|skipped|SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)" }' \
  "$list" | grep -Ev "^(01-cpu-matmul|02-naive-matmul|08-sciddicat-multigpu|$profiling)\.exercise[|-]" >"$FAKE_RESULTS"
cat >>"$FAKE_RESULTS" <<TXT
01-cpu-matmul.exercise|failed|cpu-ijk n=1    closed form: C[0][0] = nan (expected 1); 1 of 1 wrong; max abs error nan, max rel error nan
02-naive-matmul.exercise|failed|FAILED: 3 of 3 cases wrong.
08-sciddicat-multigpu.exercise|run|PASSED
08-sciddicat-multigpu.exercise-2ranks|skipped|SKIP: 2 ranks need 2 GPUs, this node has 1
$profiling.exercise|run|PASSED
TXT
# The profiling lesson's benchmark and the reference's, newer than the exercise: no new measurement.
mkdir -p "$build/bench"
echo "bench $profiling $build/bin/$profiling-exercise --bench" >"$build/gpu-jobs.txt"
header="lesson,kernel,precision,shape,n,block,repeats,median_ms,min_ms,max_ms,transfers,rate,rate_unit,roof_fraction"
printf '%s\n%s\n' "$header" "$profiling,smooth,fp32,4096x4096,4096,256,5,2.0,2.0,2.0,0,1,GB/s,0.4" \
  >"$build/bench/$profiling-exercise.csv"
printf '%s\n%s\n' "$header" "$profiling,smooth,fp32,4096x4096,4096,256,5,1.0,1.0,1.0,0,1,GB/s,0.8" \
  >"$build/bench/$profiling-reference-same-run.csv"
touch -d '+1 hour' "$build/bench/"*.csv

echo "== the report"
progress --report "$work/out/report.json" >"$work/1.txt" 2>&1; rc=$?
cat "$work/1.txt"
[ $rc -eq 0 ] || fail "progress --report exits $rc"
grep -q measuring "$work/1.txt" && fail "progress measured again beside fresh benchmarks"
[ "$(ls -A "$work/out")" = report.json ] || fail "the report's folder holds: $(ls -A "$work/out")"
python3 - "$work/out/report.json" "$list" "$left_out" "$profiling" <<'PY' || fail "the report is not what the table says"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
profiling = sys.argv[4]
multigpu = "08-sciddicat-multigpu" not in sys.argv[3].split()  # not left out at configure time
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[2], encoding="utf-8") if l.strip() and not l.startswith("#")]
names = [row[0] for row in rows]
optional = {row[0]: row[6:] == ["optional"] for row in rows}  # the list's flag (lesson 07's later kernels)
bad = []
def expect(what, got, wanted):
    if got != wanted:
        bad.append(f"{what}: {got!r}, expected {wanted!r}")
expect("schema", (report.get("schema"), report.get("version")), ("cuda-workbook-progress-report", 1))
expect("gpu", report.get("gpu"), {"usable": False, "why_not": "WB_FORCE_NO_GPU=1 is set", "compute_capability": None})
by_name = {e["name"]: e for e in report["exercises"]}
expect("exercises, in order", [e["name"] for e in report["exercises"]], names)
verdicts = {"03-tiled-matmul.occupancy": "done", "01-cpu-matmul": "failing", "02-naive-matmul": "not started",
            "09-bug-gallery.timed-region": "broken", "09-bug-gallery.missing-barrier": "skipped",
            profiling: "done"}
if multigpu:
    verdicts["08-sciddicat-multigpu"] = "partly checked"
for name, verdict in verdicts.items():
    expect(name + " verdict", by_name[name]["verdict"], verdict)
for name, e in by_name.items():
    # No GPU: a GPU exercise can be finished here only where it passed (the profiling lesson, here).
    expect(name + " runs_here", e["runs_here"], e["kind"] == "cpu" or e["verdict"] == "done")
    expect(name + " keys", sorted(e), sorted(["name", "lesson", "program", "kind", "optional", "files", "verdict",
                                              "detail", "runs_here", "needs", "where", "too_old", "speed", "challenge",
                                              "hints"]))
    expect(name + " optional", e["optional"], optional[name])
expect("summary", report["summary"], {**{v: sum(e["verdict"] == v for e in report["exercises"]) for v in
       ("done", "failing", "not started", "broken", "skipped", "partly checked")}, "total": len(names)})
occupancy = by_name["03-tiled-matmul.occupancy"]
expect("occupancy", (occupancy["lesson"], occupancy["program"], occupancy["kind"], occupancy["files"], occupancy["needs"]),
       ("03-tiled-matmul", "occupancy", "cpu", ["lessons/03-tiled-matmul/occupancy.cpp"], ""))
if multigpu:
    expect("lesson 08 needs", by_name["08-sciddicat-multigpu"]["needs"], "two NVIDIA GPUs, MPI and NCCL")
expect("lesson 13 where", by_name["13-hopper-tensor-cores"]["where"], "a machine with an H100 or H200")
if "hosted notebook" not in by_name["11-streams-overlap"]["where"]:
    bad.append("lesson 11 is not sent to the hosted notebook: " + by_name["11-streams-overlap"]["where"])
if "C[0][0] = nan (expected 1)" not in " ".join(by_name["01-cpu-matmul"]["detail"]):
    bad.append("the failing exercise's detail: %r" % by_name["01-cpu-matmul"]["detail"])
if "error" not in " ".join(by_name["09-bug-gallery.timed-region"]["detail"]):
    bad.append("the broken exercise's detail: %r" % by_name["09-bug-gallery.timed-region"]["detail"])
expect("skipped detail", by_name["09-bug-gallery.missing-barrier"]["detail"],
       ["SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)"])
if multigpu and "2 ranks need 2 GPUs" not in " ".join(by_name["08-sciddicat-multigpu"]["detail"]):
    bad.append("the partly checked exercise's detail: %r" % by_name["08-sciddicat-multigpu"]["detail"])
hints = by_name["01-cpu-matmul"]["hints"]
if hints["revealed"] != 2 or hints["total"] < 2:
    bad.append(f"lesson 01's hints: {hints}")
expect("lesson 02's hints revealed", by_name["02-naive-matmul"]["hints"]["revealed"], 0)
speed = by_name[profiling]["speed"] or {}
expect("the profiling lesson's speed", {k: speed.get(k) for k in ("fraction", "roof_fraction", "rows", "goal",
                                                                   "stretch", "goal_met", "stretch_met")},
       {"fraction": 0.5, "roof_fraction": 0.4, "rows": 1, "goal": 0.8, "stretch": 1.0, "goal_met": False,
        "stretch_met": False})
if not speed.get("line", "").startswith("speed: 50% of the reference solution"):
    bad.append("the profiling lesson's speed line: %r" % speed.get("line"))
expect("lesson 02's speed", by_name["02-naive-matmul"]["speed"], None)
for line in bad:
    print("FAIL: " + line)
sys.exit(1 if bad else 0)
PY
grep -Fq 'speed: 50% of the reference' "$work/1.txt" ||
  fail "the table and the report disagree on the profiling lesson's speed"

echo "== written whole or not at all"
cp "$work/out/report.json" "$work/before.json"
progress --report "$work/missing/report.json" >"$work/2.txt" 2>&1; rc=$?
tail -n 2 "$work/2.txt"
[ $rc -eq 2 ] || fail "a report into a missing folder exits $rc, not 2"
[ ! -e "$work/missing" ] || fail "a report into a missing folder left something"
mkdir -p "$work/out/taken.json"
progress --report "$work/out/taken.json" >"$work/3.txt" 2>&1; rc=$?
tail -n 1 "$work/3.txt"
[ $rc -eq 2 ] || fail "a report over a folder exits $rc, not 2"
[ "$(ls -A "$work/out" | sort | tr '\n' ' ')" = "report.json taken.json " ] ||
  fail "a failed report left a file: $(ls -A "$work/out")"
FAKE_CTEST_FAILS=1 progress --report "$work/out/ctest.json" >"$work/4.txt" 2>&1; rc=$?
tail -n 2 "$work/4.txt"
[ $rc -eq 2 ] || fail "a report where CTest fails exits $rc, not 2"
[ ! -e "$work/out/ctest.json" ] || fail "a report where CTest fails was written"
cmp -s "$work/before.json" "$work/out/report.json" || fail "a failed report changed an earlier one"
progress hint --report "$work/out/hint.json" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ ! -e "$work/out/hint.json" ] || fail "--report with 'hint' exits $rc"
if [ -n "$left_out" ]; then
  echo "SKIP: left out at configure time: $left_out(lesson 08's partly checked verdict was not checked; the rest was)"
  exit 77
fi
echo "OK: the report holds every verdict, where it runs, its speed and its hints, written whole or not at all"
