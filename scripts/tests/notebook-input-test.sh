#!/usr/bin/env bash
# notebook-input-test.sh SOURCE_DIR WORK_DIR
# The notebook opened on its own finds the course the ways a host hands it over, and runs its
# cells up to "Get the course" (tag "course") in an empty folder, as on the host:
#   kaggle-folder  Kaggle unpacked the dataset's zip into a read-only input folder, as
#                  <input>/<dataset>/cuda-workbook-main/ (a repository host's "Download ZIP"),
#                  with the files' modes lost: the course is copied beside the notebook and its
#                  scripts are executable again;
#   kaggle-zip     the input folder keeps cuda-workbook-main.zip as it is: unpacked beside it;
#   nothing        nothing uploaded, and COURSE_URL the unset default (on example.org, whatever
#                  course.json says): the cell stops, says to upload the zip, and clones nothing.
set -uo pipefail
src=${1:?usage: notebook-input-test.sh SOURCE_DIR WORK_DIR}
work=${2:?}
chmod -R u+w "$work" 2>/dev/null; rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
fail() { echo "FAIL: $*"; exit 1; }

python3 "$src/scripts/make-course-zip" --output "$work/cuda-workbook.zip" >/dev/null || fail "no course zip"
# The zip as a repository host's "Download ZIP" names it: top folder cuda-workbook-main/.
python3 - "$work/cuda-workbook.zip" "$work/cuda-workbook-main.zip" <<'EOF' || fail "cannot rename the zip's top folder"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as target:
    for info in source.infolist():
        data = source.read(info)
        info.filename = "cuda-workbook-main/" + info.filename.partition("/")[2]
        target.writestr(info, data)
EOF

run() {  # run SCENARIO: the notebook's cells up to "Get the course", in WORK/SCENARIO/hosted
  mkdir -p "$work/$1/hosted" && cp "$src/notebooks/course.ipynb" "$work/$1/hosted/" || exit 1
  GIT_CEILING_DIRECTORIES="$work" python3 "$src/scripts/lib/run-notebook.py" "$work/$1/hosted/course.ipynb" \
    --cwd "$work/$1/hosted" --skip-tag install --stop-after course --set "INPUT_FROM_RUNNER=$work/$1/input" \
    >"$work/$1.log" 2>&1
}

echo "== kaggle-folder"
mkdir -p "$work/kaggle-folder/input/my-course"
# Unpacked without the files' modes, as a host may: every file readable, none executable.
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work/cuda-workbook-main.zip" "$work/kaggle-folder/input/my-course" || exit 1
[ ! -x "$work/kaggle-folder/input/my-course/cuda-workbook-main/scripts/check" ] || fail "the planted copy kept its modes"
chmod -R a-w "$work/kaggle-folder/input"
run kaggle-folder; rc=$?
cat "$work/kaggle-folder.log"
[ $rc -eq 0 ] || fail "kaggle-folder: the notebook stopped (exit $rc)"
course="$work/kaggle-folder/hosted/cuda-workbook"
grep -qF "course in $course from $work/kaggle-folder/input/my-course/cuda-workbook-main" "$work/kaggle-folder.log" ||
  fail "kaggle-folder: the course was not taken from the input folder"
[ -x "$course/scripts/check" ] && [ -x "$course/scripts/progress" ] || fail "kaggle-folder: the scripts are not executable"
chmod -R u+w "$work/kaggle-folder/input"

echo "== kaggle-zip"
mkdir -p "$work/kaggle-zip/input/my-course" && cp "$work/cuda-workbook-main.zip" "$work/kaggle-zip/input/my-course/" || exit 1
run kaggle-zip; rc=$?
cat "$work/kaggle-zip.log"
[ $rc -eq 0 ] || fail "kaggle-zip: the notebook stopped (exit $rc)"
grep -qF "course in $work/kaggle-zip/hosted/cuda-workbook from $work/kaggle-zip/input/my-course/cuda-workbook-main.zip" \
  "$work/kaggle-zip.log" || fail "kaggle-zip: the course was not unpacked from the input folder's zip"
[ -x "$work/kaggle-zip/hosted/cuda-workbook/scripts/check" ] || fail "kaggle-zip: the scripts are not executable"

echo "== nothing"
mkdir -p "$work/nothing/input"
mkdir -p "$work/nothing/hosted"
sed 's|COURSE_URL = \\"[^\\]*\\"|COURSE_URL = \\"https://example.org/unset/cuda-workbook.git\\"|' \
  "$src/notebooks/course.ipynb" >"$work/nothing/hosted/course.ipynb" || exit 1
grep -qF 'COURSE_URL = \"https://example.org/unset/' "$work/nothing/hosted/course.ipynb" || fail "cannot unset COURSE_URL"
GIT_CEILING_DIRECTORIES="$work" python3 "$src/scripts/lib/run-notebook.py" "$work/nothing/hosted/course.ipynb" \
  --cwd "$work/nothing/hosted" --skip-tag install --stop-after course --set "INPUT_FROM_RUNNER=$work/nothing/input" \
  >"$work/nothing.log" 2>&1
rc=$?
cat "$work/nothing.log"
[ $rc -eq 1 ] || fail "nothing: the cell did not stop (exit $rc)"
grep -q "the course is not here. Either upload cuda-workbook.zip" "$work/nothing.log" || fail "nothing: no word of the zip"
! grep -q "git clone" "$work/nothing.log" || fail "nothing: the notebook cloned course.json's default address"
echo "PASSED: the notebook takes the course from a host's input folder, unpacked or zipped, and asks for it otherwise"
