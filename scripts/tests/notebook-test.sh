#!/usr/bin/env bash
# notebook-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE
# Runs notebooks/course.ipynb as a student would, cell after cell, in a copy of the course (the
# files git tracks or would track, as they are in SOURCE_DIR: a clean clone of this tree), for
# LESSON, with EXERCISE_FILE written from the notebook's own cell with the reference solution.
# Cells tagged "install" are left out (they need root and a network). Fails when any cell fails.
set -euo pipefail
src=${1:?usage: notebook-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE}
work=${2:?} lesson=${3:?} exercise=${4:?}
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work"
[ -f "$work/notebooks/course.ipynb" ] || { echo "FAIL: the copy of the course has no notebooks/course.ipynb"; exit 1; }
solution="$src/solutions/${exercise#lessons/}"
exec python3 "$src/scripts/lib/run-notebook.py" "$work/notebooks/course.ipynb" --skip-tag install \
  --set "LESSON_FROM_RUNNER=$lesson" --set "EXERCISE_FILE_FROM_RUNNER=$exercise" \
  --set-file "NEW_TEXT_FROM_RUNNER=$solution"
