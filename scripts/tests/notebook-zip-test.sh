#!/usr/bin/env bash
# notebook-zip-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE
# Runs notebooks/course.ipynb opened on its own, as on a hosted service: an empty folder holds
# only the notebook and the cuda-workbook.zip that scripts/make-course-zip writes (no course
# beside it, no git repository above it), and the cells run in that folder. They must unpack
# the zip and go on through the CPU lesson's cells, as in notebook.cpu-lesson: LESSON built and
# checked, EXERCISE_FILE written from the notebook's own cell with the reference solution. Cells
# tagged "install" are left out (they need root and a network). The zip must hold the files
# that scripts/maintainer/copy-course.sh copies, no more, no fewer.
set -uo pipefail
src=${1:?usage: notebook-zip-test.sh SOURCE_DIR WORK_DIR LESSON EXERCISE_FILE}
work=${2:?} lesson=${3:?} exercise=${4:?}
rm -rf "$work" && mkdir -p "$work/hosted" || exit 1
work=$(cd "$work" && pwd)
hosted="$work/hosted"

python3 "$src/scripts/make-course-zip" --output "$hosted/cuda-workbook.zip" || {
  echo "FAIL: scripts/make-course-zip did not write the zip"; exit 1; }
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work/copy" || exit 1
diff <(cd "$work/copy" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) \
  <(python3 -c 'import sys, zipfile; print("\n".join(n.partition("/")[2] for n in zipfile.ZipFile(sys.argv[1]).namelist()))' \
    "$hosted/cuda-workbook.zip" | LC_ALL=C sort) || {
  echo "FAIL: the zip's files (right) differ from those copy-course.sh copies (left)"; exit 1; }
rm -rf "$work/copy"
cp "$src/notebooks/course.ipynb" "$hosted/" || exit 1
echo "the folder of the notebook holds: $(ls -A "$hosted" | tr '\n' ' ')"

solution="$src/solutions/${exercise#lessons/}"
# Git stops above the work folder: the unpacked course is a tree without git, as on the host.
out=$(GIT_CEILING_DIRECTORIES="$work" python3 "$src/scripts/lib/run-notebook.py" "$hosted/course.ipynb" \
  --cwd "$hosted" --skip-tag install \
  --set "LESSON_FROM_RUNNER=$lesson" --set "EXERCISE_FILE_FROM_RUNNER=$exercise" \
  --set-file "NEW_TEXT_FROM_RUNNER=$solution" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "FAIL: the notebook opened on its own stopped (exit $rc)"; exit 1; }
grep -qF "course in $hosted/cuda-workbook from $hosted/cuda-workbook.zip" <<<"$out" || {
  echo "FAIL: the notebook did not take the course from the uploaded zip"; exit 1; }
[ -x "$hosted/cuda-workbook/scripts/check" ] || { echo "FAIL: the unpacked scripts are not executable"; exit 1; }
echo "PASSED: the notebook opened on its own unpacked cuda-workbook.zip and ran lesson $lesson"
