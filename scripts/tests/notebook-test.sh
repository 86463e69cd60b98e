#!/usr/bin/env bash
# notebook-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE
# Runs notebooks/course.ipynb as a student would, cell after cell, in a copy of the course (the
# files git tracks or would track, as they are in SOURCE_DIR: a clean clone of this tree), for
# LESSON, twice: first with EXERCISE_FILE written from the notebook's own cell as its pristine
# text plus a comment (an exercise begun and failing; the check cell, which stops on it, left
# out), then with the reference solution. Cells tagged "install" are left out (they need root and
# a network). Fails when any cell fails, and when either run reveals a hint: running the cells
# top to bottom must show none and count none (.workbook/hints.json), since only hint() asks.
set -uo pipefail
src=${1:?usage: notebook-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE}
work=${2:?} lesson=${3:?} exercise=${4:?}
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work" || exit 1
[ -f "$work/notebooks/course.ipynb" ] || { echo "FAIL: the copy of the course has no notebooks/course.ipynb"; exit 1; }
solution="$src/solutions/${exercise#lessons/}"
{ cat "$src/$exercise" && printf '\n// begun\n'; } >"$work/begun.txt" || exit 1

run() {  # run NAME TEXT_FILE [OPTIONS]: every cell, the exercise written from TEXT_FILE
  local name=$1 text=$2
  shift 2
  python3 "$src/scripts/lib/run-notebook.py" "$work/notebooks/course.ipynb" --skip-tag install "$@" \
    --set "LESSON_FROM_RUNNER=$lesson" --set "EXERCISE_FILE_FROM_RUNNER=$exercise" \
    --set-file "NEW_TEXT_FROM_RUNNER=$text" 2>&1 | tee "$work/$name.log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || { echo "FAIL: the notebook stopped ($name, exit $rc)"; exit 1; }
  if grep -E "^Hint [0-9]+ of " "$work/$name.log"; then
    echo "FAIL: running the cells ($name) revealed a hint (above) that nobody asked for"; exit 1
  fi
  if [ -e "$work/.workbook/hints.json" ] && ! python3 -c \
    'import json, sys; sys.exit(1 if any(json.load(open(sys.argv[1])).values()) else 0)' "$work/.workbook/hints.json"; then
    echo "FAIL: running the cells ($name) counted a hint as seen: $(cat "$work/.workbook/hints.json")"; exit 1
  fi
}

echo "=== the exercise begun and failing: no hint"
run begun "$work/begun.txt" --skip-tag check
echo "=== the exercise solved"
run solved "$solution"
echo "PASSED: the notebook ran $lesson begun and solved, revealing no hint"
