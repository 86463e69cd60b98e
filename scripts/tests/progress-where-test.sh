#!/usr/bin/env bash
# progress-where-test.sh SOURCE_DIR WORK_DIR EXERCISE_LIST: where each exercise can be finished.
# scripts/progress on a copy of the course, with a fake CTest, CMake and nvidia-smi
# (progress-fakes.sh) and nothing built: on a machine without a usable GPU (WB_FORCE_NO_GPU=1,
# or an nvidia-smi that lists none) the table marks the CPU exercises "here" and every GPU one
# with what it needs, and names where to run them (a GPU machine or the hosted notebook; two
# GPUs for lesson 08, compute capability 9.0 for lesson 13); on a GPU, a check that skipped
# (lesson 13) or ran in part (lesson 08) says the same, and where every check ran the table has
# no such column. On a GPU older than a lesson's MIN_CC (a T4, 7.5), the table says which lessons
# it is too old for and which parts of the others (PART_MIN_CC) cannot be checked there. The "Needs a GPU" column of the course map (docs/mainpage.md) and of the
# instructors' page (docs/instructors.md) must say, lesson by lesson, what scripts/progress says.
# Where the configure that wrote EXERCISE_LIST left lesson 08 out (no MPI), its rows are not
# looked for, and the test skips (77) once the rest is checked.
set -u
src=$1 work=$2 list=$3
fail() { echo "FAIL: $*"; exit 1; }
source "$src/scripts/tests/progress-fakes.sh"
fake_course "$src" "$work" "$list" || exit 1
tree=$work/tree
left_out=$(left_out_lessons "$list" | tr '\n' ' ')
profiling=$(lesson_named "$list" profiling)
[ -n "$profiling" ] || fail "no lesson NN-profiling in $list"
has_lesson() { [[ " $left_out" != *" $1 "* ]]; }
export FAKE_RESULTS="$work/results.txt"
progress() { python3 "$tree/scripts/progress" --build-dir "$work/build" --no-build --no-bench "$@"; }
# results SKIP_LINE [NAME|STATUS|OUTPUT...]: every CPU check passes, every GPU check gives
# SKIP_LINE (run when empty), then the lines given replace those of the same name.
results() {
  local skip=$1; shift
  awk -F'|' -v skip="$skip" '!/^#/ && NF {
      if ($4 == "cpu" || skip == "") print $1 ".exercise|run|PASSED"; else print $1 ".exercise|skipped|" skip }' \
    "$list" >"$FAKE_RESULTS"
  override_results "$@"
}
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }
row() { grep -Eq "^ +\[.\] $1 +$2\$" "$3" || fail "no row '$1  $2' in $3"; }

echo "== no usable GPU (WB_FORCE_NO_GPU=1)"
results "SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)"
WB_FORCE_NO_GPU=1 progress >"$work/1.txt" 2>&1
cat "$work/1.txt"
for name in 01-cpu-matmul 03-tiled-matmul.occupancy 09-bug-gallery.gflops-unit 09-bug-gallery.timed-region \
            09-bug-gallery.border-ring; do
  row "$name" "done +here" "$work/1.txt"
done
row 02-naive-matmul "skipped \(no GPU\) +needs an NVIDIA GPU" "$work/1.txt"
row 11-streams-overlap "skipped \(no GPU\) +needs an NVIDIA GPU" "$work/1.txt"
has_lesson 08-sciddicat-multigpu &&
  row 08-sciddicat-multigpu "skipped \(no GPU\) +needs two NVIDIA GPUs, MPI and NCCL" "$work/1.txt"
row 13-hopper-tensor-cores "skipped \(no GPU\) +needs compute capability 9.0 only" "$work/1.txt"
text=$(flat "$work/1.txt")
grep -Fq "No usable GPU here (WB_FORCE_NO_GPU=1 is set). Can be finished on this machine: 01-cpu-matmul, \
03-tiled-matmul.occupancy, 09-bug-gallery.gflops-unit, 09-bug-gallery.timed-region, 09-bug-gallery.border-ring." \
  <<<"$text" || fail "the table does not list the exercises that can be finished here"
grep -Eq "on a machine with an NVIDIA GPU, or the hosted notebook \(docs/hosted-notebook.md\): 02-naive-matmul, [^:]*11-streams-overlap, $profiling" \
  <<<"$text" || fail "the table does not send the one-GPU exercises to a GPU machine or the hosted notebook"
if has_lesson 08-sciddicat-multigpu; then
  grep -Eq "on a machine with two NVIDIA GPUs, MPI and NCCL [^:]*: 08-sciddicat-multigpu" <<<"$text" ||
    fail "the table does not say where lesson 08 runs"
fi
grep -Fq "on a machine with an H100 or H200: 13-hopper-tensor-cores" <<<"$text" || fail "the table does not say where lesson 13 runs"

echo "== no usable GPU (an nvidia-smi that lists none)"
FAKE_GPU=0 progress >"$work/2.txt" 2>&1
grep -Fq "No usable GPU here (nvidia-smi lists no GPU)." "$work/2.txt" || { cat "$work/2.txt"; fail "nvidia-smi's answer is not used"; }
row 01-cpu-matmul "done +here" "$work/2.txt"

echo "== a GPU of compute capability 8.0: lesson 13 skips, lesson 08 runs one rank"
results "" "13-hopper-tensor-cores.exercise|skipped|SKIP: the exercise, kernel 03-warp-specialized, cannot run on this GPU" \
  "08-sciddicat-multigpu.exercise-2ranks|skipped|SKIP: 2 ranks need 2 GPUs, this node has 1"
FAKE_GPU=1 FAKE_CC=8.0 progress >"$work/3.txt" 2>&1
cat "$work/3.txt"
row 02-naive-matmul "done +here" "$work/3.txt"
row 13-hopper-tensor-cores "skipped \(no GPU\) +needs compute capability 9.0 only; this GPU has 8.0" "$work/3.txt"
has_lesson 08-sciddicat-multigpu && row 08-sciddicat-multigpu "partly checked +needs two NVIDIA GPUs, MPI and NCCL" "$work/3.txt"
grep -Fq "Not every check can run on this GPU." "$work/3.txt" || fail "the table does not say that some checks cannot run here"

echo "== a GPU of compute capability 7.5 (a T4): the lessons it is too old for, and the parts left out"
results "" "13-hopper-tensor-cores.exercise|skipped|SKIP: the exercise, kernel 03-warp-specialized, cannot run on this GPU" \
  "16-fused-attention.exercise|skipped|SKIP: the exercise, flash-forward, cannot run on this GPU; the baseline passed." \
  "08-sciddicat-multigpu.exercise-2ranks|skipped|SKIP: 2 ranks need 2 GPUs, this node has 1"
FAKE_GPU=1 FAKE_CC=7.5 progress >"$work/5.txt" 2>&1
cat "$work/5.txt"
row 02-naive-matmul "done +here" "$work/5.txt"
row 16-fused-attention "skipped \(no GPU\) +needs compute capability 8.0 or later; this GPU has 7.5" "$work/5.txt"
text=$(flat "$work/5.txt")
grep -Fq "This GPU has compute capability 7.5: too old for 13-hopper-tensor-cores (needs 9.0 only), \
16-fused-attention (needs 8.0) (docs/which-gpu.md)." <<<"$text" || fail "the table does not name the lessons this GPU is too old for"
grep -Fq "07-toward-cublas's kernel 08, an exercise (FP64 tensor cores) (needs 8.0)" <<<"$text" ||
  fail "the table does not name lesson 07's kernel 08 as left out on compute capability 7.5"

echo "== every check ran"
results "" "08-sciddicat-multigpu.exercise-2ranks|run|PASSED"
FAKE_GPU=1 progress >"$work/4.txt" 2>&1
row 02-naive-matmul "done" "$work/4.txt"
grep -Eq 'here$|needs |Can be finished' "$work/4.txt" && { cat "$work/4.txt"; fail "a where column where every check ran"; }

echo "== the pages say what scripts/progress says"
python3 - "$tree" "$work/build" <<'PY' || fail "a page's 'Needs a GPU' column differs from scripts/progress"
import importlib.machinery, importlib.util, os, re, sys
tree = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(tree, "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)
progress.read_gpu_needs(sys.argv[2])  # the manifests' NEEDS and WHERE, as the build lists them
lessons = {}
for e in progress.course_exercises(tree):
    lessons.setdefault(e.lesson, []).append(e)
bad = 0
for name in ("mainpage.md", "instructors.md"):  # the course map, and the instructors' page
    with open(os.path.join(tree, "docs", name), encoding="utf-8") as f:
        page = f.read()
    header = re.search(r"^\| *Lesson *\|.*\| *Needs a GPU *\|$", page, re.M)
    if not header:
        print(f"docs/{name}: no table whose last column is 'Needs a GPU'")
        bad += 1
        continue
    found = set()
    for number, cell in re.findall(r"^\| *\\(?:subpage|ref) lesson(\d\d) *\|.*\| *([^|]*?) *\|$", page, re.M):
        lesson = next(name for name in lessons if name.startswith(number + "-"))
        said, expected = re.sub(r"[*`]", "", cell), progress.lesson_needs(lessons[lesson])
        found.add(lesson)
        if said != expected:
            print(f"docs/{name}, lesson {number}: the page says '{said}', scripts/progress '{expected}'")
            bad += 1
    for lesson in sorted(set(lessons) - found):
        print(f"docs/{name}: {lesson} is not in the table")
        bad += 1
    if "hosted_notebook" not in page[header.start():page.find("\n## ", header.start())]:
        print(f"docs/{name}: the table's section does not send the one-GPU lessons to the hosted notebook")
        bad += 1
sys.exit(1 if bad else 0)
PY
if [ -n "$left_out" ]; then
  echo "SKIP: left out at configure time: $left_out(their rows were not checked; the rest was)"
  exit 77
fi
echo "OK: the table and the course map say where each exercise can be finished"
