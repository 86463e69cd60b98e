#!/usr/bin/env bash
# make-notebook-write-test.sh SOURCE_DIR WORK_DIR PYTHON: a notebook that cannot be written
# (here: past a 4 KiB file-size limit, as on a full disk) is an error that names the file and the
# cause (exit 2), never "wrote", and leaves the previous notebook intact with no temporary file.
set -u
src=$1 work=$2 python=$3
rm -rf "$work" && mkdir -p "$work/scripts/maintainer" "$work/scripts/lib" "$work/notebooks" || exit 1
cp "$src/scripts/maintainer/make-notebook.py" "$work/scripts/maintainer/" && cp "$src/notebooks/course.ipynb" "$work/notebooks/" &&
  cp "$src/scripts/lib/course_setting.py" "$work/scripts/lib/" && cp "$src/course.json" "$work/" || exit 1
output=$( (trap '' XFSZ; ulimit -S -f 4 && exec "$python" "$work/scripts/maintainer/make-notebook.py") 2>&1)
rc=$?
printf '%s\n' "$output"
[ $rc -eq 2 ] || { echo "FAIL: expected exit 2 after a failed write, got $rc"; exit 1; }
printf '%s\n' "$output" | grep -q "error: cannot write notebooks/course.ipynb: File too large" ||
  { echo "FAIL: the message does not name the file and the cause"; exit 1; }
if printf '%s\n' "$output" | grep -q "^wrote"; then echo "FAIL: it says 'wrote' after a failed write"; exit 1; fi
cmp -s "$work/notebooks/course.ipynb" "$src/notebooks/course.ipynb" ||
  { echo "FAIL: the failed write damaged the previous notebook"; exit 1; }
left=$(ls -A "$work/notebooks" | grep -v '^course.ipynb$')
[ -z "$left" ] || { echo "FAIL: left behind: $left"; exit 1; }
echo "PASSED: a failed notebook write says why, exits 2 and leaves the previous notebook intact"
