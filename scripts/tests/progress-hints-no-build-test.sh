#!/usr/bin/env bash
# progress-hints-no-build-test.sh SOURCE_DIR WORK_DIR [EXERCISE_LIST]
# `scripts/progress hint` on a copy of the course as a fresh clone holds it, with no build at
# all: the first exercise's hints without a name, a named exercise's hints one at a time, `hints`
# listing those seen, `reset-hints`, a page's citation of another lesson by its name shown with
# the lesson's number (some hints cite one); the status table still asks for the build. With
# EXERCISE_LIST (the build's workbook-exercises.txt), the exercises that progress reads from the
# lessons' CMakeLists.txt without a build must be those CMake registered; where that configure
# left a lesson out (workbook-left-out.tsv beside the list), those of the others, and the test
# then skips (77): the left-out lesson's exercises were not compared.
set -u
src=$1 work=$2 list=${3:-}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work/tree" || fail "cannot copy the tree"
tree=$work/tree
progress() { python3 "$tree/scripts/progress" --build-dir "$work/no-build" "$@"; }
# Python's prelude that loads scripts/progress as the module `progress` (the tree is argv[1]).
load_progress='import importlib.machinery, importlib.util, os, sys
loader = importlib.machinery.SourceFileLoader("progress", os.path.join(sys.argv[1], "scripts", "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)
'

echo "== hint, no exercise named, nothing built"
progress hint >"$work/1.txt" 2>&1; rc=$?
cat "$work/1.txt"
[ $rc -eq 0 ] || fail "'hint' without a build exits $rc"
grep -Fq 'Hint 1 of' "$work/1.txt" || fail "'hint' without a build shows no hint"
grep -Fq 'for 01-cpu-matmul' "$work/1.txt" || fail "'hint' without a build and a name is not for the first exercise"

echo "== hint NAME, one at a time"
tiled=$(cd "$tree/lessons" && ls -d [0-9][0-9]-tiled-matmul)  # the lesson, found by its name
progress hint "$tiled.occupancy" | tee "$work/2.txt"
grep -Fq 'Hint 1 of' "$work/2.txt" || fail "'hint NAME' without a build does not reveal hint 1"
progress hint occupancy | tee "$work/3.txt"
grep -Fq 'Hint 2 of' "$work/3.txt" || fail "a second 'hint' without a build does not reveal hint 2"
progress hints occupancy | grep -c '^Hint ' | grep -qx 2 || fail "'hints' does not list the 2 revealed hints"
[ -f "$tree/.workbook/hints.json" ] || fail "the hints seen are not kept in .workbook/hints.json"
[ ! -e "$work/no-build" ] || fail "'hint' created a build folder"
progress reset-hints | grep -Fq 'hidden again' || fail "'reset-hints' without a build"
progress hints occupancy | grep -Fq 'no hint revealed yet' || fail "'reset-hints' did not hide the hints"

echo "== --kind picks the exercises by where they run"
progress hint --kind cpu >"$work/kind.txt" 2>&1 || fail "'hint --kind cpu' exits $?"
grep -Fq 'for 01-cpu-matmul' "$work/kind.txt" || fail "'hint --kind cpu' is not for the first CPU exercise"
progress hint --kind gpu --only '^01-' >"$work/kind.txt" 2>&1 && fail "'--kind gpu --only ^01-' found a GPU exercise"
grep -Fq "no exercise matches '^01-'" "$work/kind.txt" || fail "'--kind gpu --only ^01-' does not say nothing matches"
progress reset-hints >/dev/null

echo "== a hint that cites another lesson by its name shows the lesson's number"
python3 -c "$load_progress$(cat <<'PY'
import re
cited = [hint for e in progress.course_exercises() for hint in progress.hints_for(e)
         if re.search(r"\{\{\s*[Ll]esson\b", hint)]
assert not cited, f"hints that still show a citation's placeholder: {cited}"
first = progress.exercise_list.lesson_folders(sys.argv[1])[0]
shown = progress.cite_lessons(f"{{{{Lesson {first[3:]}}}}}, {{{{lesson {first[3:]}#idea}}}}", sys.argv[1])
assert shown == f"Lesson {first[:2]}, lesson {first[:2]}", shown
pages = [open(os.path.join(sys.argv[1], "docs", "lessons", e.lesson + ".md"), encoding="utf-8").read()
         for e in progress.course_exercises()]
assert any(re.search(r"\*\*Hint \d+\.\*\*[^\n]*(?:\n +[^\n]*)*\{\{[Ll]esson ", page) for page in pages), \
    "no hint cites a lesson by its name: nothing was shown"
print(f"ok: {shown}")
PY
)" "$tree" || fail "a hint's citation of a lesson is not shown as 'lesson NN'"

echo "== the table still needs the build"
progress --no-build >"$work/4.txt" 2>&1 && fail "the table without a build exits 0"
grep -Fq 'Configure the course first' "$work/4.txt" || fail "the table without a build does not ask for it"

left_out=""
if [ -n "$list" ]; then
  echo "== the exercises without a build are those CMake registered"
  source "$src/scripts/tests/progress-fakes.sh"
  left_out=$(left_out_lessons "$list" | tr '\n' ' ')
  python3 -c "$load_progress$(cat <<'PY'
tree, listing, absent = sys.argv[1], sys.argv[2], sys.argv[3].split()
mine = [e.row() for e in progress.course_exercises() if e.lesson not in absent]
with open(listing, encoding="utf-8") as f:
    built = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
for line in sorted(set(mine) ^ set(built)):
    print(("only in the lessons: " if line in mine else "only in the build:   ") + line)
sys.exit(0 if mine == built else 1)
PY
)" "$tree" "$list" "$left_out" || fail "the exercises read from the lessons differ from the build's list"
fi
if [ -n "$left_out" ]; then
  echo "SKIP: left out at configure time: $left_out(their exercises were not compared; the rest was)"
  exit 77
fi
echo "OK: the hints need no build"
