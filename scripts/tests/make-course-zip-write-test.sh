#!/usr/bin/env bash
# make-course-zip-write-test.sh SOURCE_DIR WORK_DIR PYTHON: a zip of the course that cannot be
# written (here: past a 4 KiB file-size limit, as on a full disk) is an error that names the file
# and the cause (exit 2), never "wrote", and leaves no file at all: neither the zip nor its
# temporary file. A folder that does not exist is the same error.
set -u
src=$1 work=$2 python=$3
rm -rf "$work" && mkdir -p "$work/out" || exit 1
output=$( (trap '' XFSZ; ulimit -S -f 4 && exec "$python" "$src/scripts/make-course-zip" --output "$work/out/cuda-workbook.zip") 2>&1)
rc=$?
printf '%s\n' "$output"
[ $rc -eq 2 ] || { echo "FAIL: expected exit 2 after a failed write, got $rc"; exit 1; }
grep -q "error: cannot write $work/out/cuda-workbook.zip: File too large" <<<"$output" ||
  { echo "FAIL: the message does not name the file and the cause"; exit 1; }
if grep -q "^wrote" <<<"$output"; then echo "FAIL: it says 'wrote' after a failed write"; exit 1; fi
left=$(ls -A "$work/out")
[ -z "$left" ] || { echo "FAIL: left behind: $left"; exit 1; }
output=$("$python" "$src/scripts/make-course-zip" --output "$work/missing/cuda-workbook.zip" 2>&1)
rc=$?
printf '%s\n' "$output"
[ $rc -eq 2 ] && grep -q "error: cannot write $work/missing/cuda-workbook.zip" <<<"$output" ||
  { echo "FAIL: a missing folder gave exit $rc without the error"; exit 1; }
[ ! -e "$work/missing" ] || { echo "FAIL: it made the missing folder"; exit 1; }
echo "PASSED: a failed zip write says why, exits 2 and leaves no file"
