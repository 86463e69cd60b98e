#!/usr/bin/env bash
# add-lesson-scaffold-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]
# A lesson is added by its own folders alone (CONTRIBUTING.md, "Adding a lesson"). In a copy of
# the course (scripts/maintainer/copy-course.sh), a minimal CPU lesson NN-scaffold (NN: the
# number after the last lesson) is written: lessons/NN-scaffold/ (a manifest and one
# workbook_lesson call, a driver that ends in wb::lesson_main, one exercise file with a TODO
# region), solutions/NN-scaffold/ (the solved file) and the page docs/lessons/NN-scaffold.md (no
# chart: the rules ask for one only beside a committed run). Then, nothing else edited by hand:
#   a. without its solutions/ folder and its page, configure fails (exit code not 0) with one
#      line that names the lesson and both paths, and none of CMake's own errors about a file;
#   b. complete, after scripts/maintainer/update-pristine-manifest, configure succeeds;
#   c. lint-lessons.py registry first fails on the ladder's missing row; `lint-lessons.py sync`
#      writes the ladder, the course map and the instructors' table from the manifests, and
#      then registry and shape pass (exit 0);
#   d. scripts/progress, with no build at all, gives the new lesson's hint from its page, and its
#      table (--no-build, on a machine without a GPU) lists the exercise as "not started", a CPU
#      exercise that runs here, in the table and in the --report JSON.
# Nothing is built. Configure leaves out the optional parts that no lesson needs (Doxygen,
# gnuplot, GoogleTest); where it leaves a lesson out (lesson 08 without MPI or NCCL), sync cannot
# write that lesson's rows and the test skips (exit 77) after step b.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
src=${1:?usage: add-lesson-scaffold-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]}
work=${2:?usage: add-lesson-scaffold-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]}
cmake=${3:?usage: add-lesson-scaffold-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]}
generator=${4:-}
cuda_compiler=${5:-}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
tree=$work/tree build=$work/build
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$tree" || fail "cannot copy the course"
# scripts/progress runs the ctest beside this cmake.
PATH="$(dirname "$cmake"):$PATH"

last=$(cd "$tree/lessons" && ls -d [0-9][0-9]-* | tail -n 1)
lesson=$(printf '%02d-scaffold' $((10#${last:0:2} + 1)))
number=${lesson:0:2}

echo "== $lesson: its lessons/ folder"
mkdir -p "$tree/lessons/$lesson" || exit 1
cat >"$tree/lessons/$lesson/CMakeLists.txt" <<EOF
workbook_lesson_manifest(
  TEACHES "scaling a vector on the CPU"
  LEARN "a loop over an array")

workbook_lesson(
  NAME $lesson
  DRIVER driver.cpp
  EXERCISE_FILES scale.cpp
  # Untouched, the loop writes nothing: y keeps the check's NaN.
  PRISTINE_CAUSES scale.cpp "y\${WORKBOOK_CAUSE_POISON}"
  NO_BENCH)
EOF
cat >"$tree/lessons/$lesson/scale.h" <<'EOF'
#pragma once

// y[i] = factor * x[i] for i < n.
void scale(const double* x, double* y, int n, double factor);
EOF
exercise_file() {  # the exercise file, its region filled with $1
  cat <<EOF
#include "scale.h"

void scale(const double* x, double* y, int n, double factor) {
    // >>> TODO 1: one loop: y[i] = factor * x[i]
$1
    // <<< TODO 1
}
EOF
}
exercise_file '    (void)x;
    (void)y;
    (void)n;
    (void)factor;' >"$tree/lessons/$lesson/scale.cpp"
cat >"$tree/lessons/$lesson/driver.cpp" <<EOF
// Lesson $number driver: --check scales a few vectors and compares every element.
#include "scale.h"

#include "wb/lesson_name.h"
#include "wb/workbook.h"

#include <vector>

namespace {

int run_check(const wb::Options&) {
    wb::CheckTally tally(wb::kLessonName);
    for (int n : {1, 7, 100}) {
        std::vector<double> x(n), y(n), expected(n);
        for (int i = 0; i < n; ++i) {
            x[i] = i + 1;
            expected[i] = 2.0 * x[i];
        }
        wb::poison(y);
        scale(x.data(), y.data(), n, 2.0);
        const wb::CompareReport report = wb::compare(y.data(), expected.data(), n, wb::Tolerance{});
        wb::print_report(report, "y", 0);
        tally.record(report.ok());
    }
    return tally.finish("every element is scaled");
}

}  // namespace

int main(int argc, char** argv) {
    wb::LessonInfo info{wb::kLessonName, "y = factor * x on the CPU", ""};
    info.accepts_block = false;
    info.benchmarks = false;
    return wb::lesson_main(argc, argv, info, run_check, nullptr);
}
EOF
source "$src/scripts/tests/configure-copy.sh"

echo "== a. configure without solutions/$lesson/ and docs/lessons/$lesson.md"
configure_copy "$work/a.txt"
rc=$?
grep -A2 'CMake Error' "$work/a.txt"
[ $rc -ne 0 ] || fail "configure exits 0 without the lesson's solution and page"
line="^ *lesson $lesson: missing solutions/$lesson/scale\\.cpp \\(the solution of lessons/$lesson/scale\\.cpp\\); "
line+="docs/lessons/$lesson\\.md \\(its page\\): create them"
grep -Eq "$line" "$work/a.txt" || fail "configure does not name the missing solution and page in one line"
grep -Eq "Cannot find source file|failed to open" "$work/a.txt" && fail "configure fails in CMake's own words too"

echo "== b. configure with solutions/$lesson/ and its page"
mkdir -p "$tree/solutions/$lesson" || exit 1
exercise_file '    for (int i = 0; i < n; ++i) y[i] = factor * x[i];' >"$tree/solutions/$lesson/scale.cpp"
cat >"$tree/docs/lessons/$lesson.md" <<EOF
# Lesson $number: scaling a vector {#lesson$number}

\\tableofcontents

## The exercise {#l${number}_exercise}

Write the loop of \`scale\` in \`lessons/$lesson/scale.cpp\`: \`y[i] = factor * x[i]\`.

### Hints {#l${number}_hints}

**Hint 1.** One loop over \`i\`, from 0 to \`n - 1\`.
EOF
bash "$tree/scripts/maintainer/update-pristine-manifest" >/dev/null || fail "update-pristine-manifest failed"
grep -q "  lessons/$lesson/scale.cpp\$" "$tree/scripts/lib/pristine-exercises.sha256" || \
  fail "update-pristine-manifest does not record lessons/$lesson/scale.cpp"
configure_copy "$work/b.txt" || { tail -n 20 "$work/b.txt"; fail "configure of the complete lesson fails"; }
grep -q "^$lesson|$lesson||cpu|lessons/$lesson/scale.cpp|$lesson\$" "$build/workbook-exercises.txt" ||
  fail "the build's exercise list has no row for $lesson"
skip_if_lessons_left_out "steps c and d were not run; a and b passed"

lint() { python3 "$tree/scripts/maintainer/lint-lessons.py" "$@"; }
echo "== c. the lists of lessons, written from the manifests"
lint registry "$tree" "$build" >"$work/c1.txt" 2>&1
rc=$?
cat "$work/c1.txt"
[ $rc -eq 1 ] || fail "registry exits $rc before sync (1 expected: the ladder has no row yet)"
grep -Fq "README.md: the ladder has no row for $lesson" "$work/c1.txt" || fail "registry does not miss the ladder's row"
lint sync "$tree" "$build" || fail "sync exits $?"
grep -Fq "| $number | \`$lesson\` | scaling a vector on the CPU |" "$tree/README.md" || fail "sync wrote no ladder row"
grep -Fq "| \\subpage lesson$number | a loop over an array | no |" "$tree/docs/mainpage.md" ||
  fail "sync wrote no course map row"
grep -Fq "| \\ref lesson$number | \`$lesson\` | no |" "$tree/docs/instructors.md" || fail "sync wrote no instructors' row"
lint registry "$tree" "$build" || fail "registry exits $? after sync"
lint shape "$tree" >"$work/c2.txt" 2>&1 || { cat "$work/c2.txt"; fail "shape exits 1"; }
grep -F "lessons/$lesson/" "$work/c2.txt" && fail "shape has a note on the new lesson's files"

echo "== d. scripts/progress"
progress() { WB_FORCE_NO_GPU=1 python3 "$tree/scripts/progress" "$@"; }
progress --build-dir "$work/no-build" hint "$lesson" >"$work/d1.txt" 2>&1
rc=$?
cat "$work/d1.txt"
[ $rc -eq 0 ] || fail "'progress hint $lesson' without a build exits $rc"
grep -Fq "Hint 1 of 1 for $lesson:" "$work/d1.txt" || fail "'progress hint' does not give the page's hint"
progress --build-dir "$build" --no-build --no-bench --only "^$lesson\$" --report "$work/report.json" \
  >"$work/d2.txt" 2>&1
rc=$?
cat "$work/d2.txt"
[ $rc -eq 0 ] || fail "'progress --no-build --report' exits $rc"
grep -Eq "^  \\[ \\] $lesson +not started\$" "$work/d2.txt" || fail "the table does not list $lesson as not started"
python3 - "$work/report.json" "$lesson" <<'EOF' || fail "the report's entry for $lesson"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
entries = [e for e in report["exercises"] if e["name"] == sys.argv[2]]
assert len(entries) == 1, f"{len(entries)} entries named {sys.argv[2]}"
e = entries[0]
wanted = {"lesson": sys.argv[2], "kind": "cpu", "verdict": "not started", "runs_here": True, "needs": "",
          "files": [f"lessons/{sys.argv[2]}/scale.cpp"], "hints": {"revealed": 1, "total": 1}}
wrong = {key: e.get(key) for key, value in wanted.items() if e.get(key) != value}
assert not wrong, f"expected {wanted}, got {wrong}"
EOF
echo "OK: $lesson added by its own folders: configure names what is missing, the lists follow its manifest"
