#!/usr/bin/env bash
# grade-class-test.sh SOURCE_DIR WORK_DIR: the instructors' grading trusts the students' exercise
# files alone. docs/examples/grade-class.sbatch runs without Slurm (as bash) over four students
# whose repositories are git clones of the course, grading lesson 01 without benchmarks:
#   good        lesson 01 solved (and two hints revealed)    -> done, 2 hints
#   doctored    lesson 01 untouched, its driver.cpp printing PASSED and exiting 0
#                                                              -> not started, never done
#   linked      lesson 01's exercise a symbolic link to the good student's solved file
#                                                              -> not started, the link refused
#   unreachable a repository that does not exist             -> no report; git's reason in its folder
# The course is built once (its library is not built again for any student), no submission is
# built, the job sets a time limit and CPUs per task, and it exits 1 (a student has no report).
# Then the grading tree is tampered with as a previous check could (the driver doctored, a file
# added) and scripts/grade submission grades the doctored student again: not started, the tree
# restored. Exit 77 where lesson 01's pristine exercise cannot be recovered.
set -u
src=$(cd "${1:?usage: grade-class-test.sh SOURCE_DIR WORK_DIR}" && pwd) || exit 1
work=${2:?usage: grade-class-test.sh SOURCE_DIR WORK_DIR}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
lesson=lessons/01-cpu-matmul exercise=lessons/01-cpu-matmul/matmul_cpu.cpp

# submission NAME: a student's repository, the course with lesson 01 untouched, committed.
submission() {
  local repo=$work/repos/$1
  bash "$src/scripts/maintainer/copy-course.sh" "$src" "$repo" || fail "cannot copy the course"
  bash "$src/scripts/lib/pristine-exercises.sh" "$repo" "$exercise" >/dev/null ||
    { echo "SKIP: this test needs lesson 01's pristine exercise"; exit 77; }
}
commit() {
  git -C "$work/repos/$1" init -q && git -C "$work/repos/$1" add -A -f &&
    git -C "$work/repos/$1" -c user.name=student -c user.email=student@example.com commit -q -m work ||
    fail "cannot commit $1's repository"
}
submission good
cp "$src/solutions/01-cpu-matmul/matmul_cpu.cpp" "$work/repos/good/$exercise"
mkdir -p "$work/repos/good/.workbook" && echo '{"01-cpu-matmul": 2}' >"$work/repos/good/.workbook/hints.json"
commit good
submission doctored
cat >"$work/repos/doctored/$lesson/driver.cpp" <<'CPP'
// The check's verdict, without a check.
#include <cstdio>
int main() {
    std::puts("PASSED");
    return 0;
}
CPP
commit doctored
submission linked
ln -sf "$work/repos/good/$exercise" "$work/repos/linked/$exercise"
commit linked
printf '%s\n' "# name repository" "good $work/repos/good" "doctored $work/repos/doctored" \
  "linked $work/repos/linked" "unreachable $work/repos/no-such-repository" "../outside $work/repos/good" \
  >"$work/repos.txt"

echo "== the job, without Slurm"
grades=$work/grades
WORKBOOK_PROGRESS_ARGS="--only ^01-cpu-matmul\$ --no-bench" WORKBOOK_JOBS=2 \
  WORKBOOK_CMAKE_OPTIONS="-DCMAKE_DISABLE_FIND_PACKAGE_Doxygen=ON -DCMAKE_DISABLE_FIND_PACKAGE_Gnuplot=ON
                          -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON" \
  bash "$src/docs/examples/grade-class.sbatch" "$work/repos.txt" "$grades" >"$work/job.log" 2>&1
rc=$?
cat "$work/job.log"
# verdict NAME: the verdict of lesson 01 in NAME's report.
verdict() {
  python3 -c 'import json, sys; print([e["verdict"] for e in json.load(open(sys.argv[1]))["exercises"]
                                       if e["name"] == "01-cpu-matmul"][0])' "$grades/$1/report.json"
}
[ -s "$grades/doctored/report.json" ] || fail "the doctored student has no report"
got=$(verdict doctored)
[ "$got" != "done" ] || fail "a driver that prints PASSED and exits 0 turned an untouched exercise into done"
[ "$got" = "not started" ] || fail "the doctored student's untouched exercise reads '$got', not 'not started'"
got=$(verdict good)
[ "$got" = "done" ] || fail "the solved exercise reads '$got', not done: $(cat "$grades/good/progress.txt")"
python3 -c 'import json, sys; h = [e["hints"] for e in json.load(open(sys.argv[1]))["exercises"]][0]
sys.exit(h["revealed"] != 2)' "$grades/good/report.json" || fail "the good student's two hints are not in the report"
got=$(verdict linked)
[ "$got" = "not started" ] || fail "an exercise linked to another student's file reads '$got', not 'not started'"
grep -F "$exercise	pristine	" "$grades/linked/graded-files.tsv" | grep -Fq "symbolic link" ||
  fail "graded-files.tsv does not say that the link was refused"
grep -Fq "$exercise	submitted	" "$grades/good/graded-files.tsv" || fail "graded-files.tsv does not list the solved file"
grep -Fq "does not exist" "$grades/unreachable/no-report.txt" 2>/dev/null ||
  fail "the failed clone's reason is not in the student's folder (no-report.txt)"
grep -q "unreachable.*no report" "$work/job.log" || fail "the job's log does not name the student without a report"
[ ! -e "$work/outside" ] && grep -Fq "'../outside': not a NAME" "$work/job.log" ||
  fail "a NAME that leaves the grades' folder was not refused"
[ $rc -eq 1 ] || fail "the job exits $rc with a student without a report, not 1"
[ "$(grep -cE '^== (good|doctored|linked) .*graded in [0-9]+ s$' "$work/job.log")" = 3 ] ||
  fail "the job's log does not give each student's time"
grep -Eq '^#SBATCH --time=[0-9]' "$src/docs/examples/grade-class.sbatch" &&
  grep -Eq '^#SBATCH --cpus-per-task=[0-9]' "$src/docs/examples/grade-class.sbatch" ||
  fail "the job sets no time limit or no CPUs per task"
grading=$grades/.grading
library=$(find "$grading/build" -name 'libworkbook_common*' | head -n 1)
[ -n "$library" ] && [ "$library" -ot "$grading/pristine-report.json" ] ||
  fail "the course's library was built again after the untouched check: not one build for every student"
[ -z "$(find "$grades" -path "$grades/.grading" -prune -o -name CMakeCache.txt -print)" ] ||
  fail "a submission was configured: $(find "$grades" -path "$grades/.grading" -prune -o -name CMakeCache.txt -print)"
cmp -s "$grading/course/$lesson/driver.cpp" "$src/$lesson/driver.cpp" || fail "the graded driver is not the course's"

echo "== a grading tree tampered with, graded again"
cp "$work/repos/doctored/$lesson/driver.cpp" "$grading/course/$lesson/driver.cpp"
echo "junk" >"$grading/course/$lesson/extra.h"
python3 "$src/scripts/grade" submission "$grading" "$grades/doctored/submission" "$work/again" \
  --only '^01-cpu-matmul$' --no-bench --jobs 2 >"$work/again.log" 2>&1 || { cat "$work/again.log"; fail "no grade"; }
grades=$work && got=$(verdict again)
[ "$got" = "not started" ] || fail "after the tree was tampered with, the doctored student reads '$got'"
cmp -s "$grading/course/$lesson/driver.cpp" "$src/$lesson/driver.cpp" && [ ! -e "$grading/course/$lesson/extra.h" ] ||
  fail "the grading tree was not restored from the course"
echo "OK: only the exercise files are graded, against one build of the course; a failed clone says why"
