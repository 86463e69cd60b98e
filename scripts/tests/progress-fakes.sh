#!/usr/bin/env bash
# progress-fakes.sh: sourced by the progress tests that need no build. Defines
#   fake_tools DIR: writes into DIR a `ctest` that writes a JUnit report of the results listed in
#     $FAKE_RESULTS (lines "test name|run, failed or skipped|one line of output"; a check not
#     listed is not in the report; with FAKE_CTEST_FAILS=1 it fails as CTest itself does, with
#     no report), a `cmake` whose build fails for the targets listed in
#     $FAKE_BROKEN (one per line, with a compiler error) and succeeds for the others, and an
#     `nvidia-smi` that lists one GPU where $FAKE_GPU is 1 and fails otherwise (its compute
#     capability, asked with --query-gpu=compute_cap, is $FAKE_CC, default 9.0);
#   fake_build DIR LIST: a build folder holding only the exercise list LIST and the lists CMake
#   writes beside it;
#   fake_course SOURCE_DIR WORK_DIR LIST: all of it at once: a copy of the course in WORK_DIR/tree,
#     the fake tools in WORK_DIR/fake, first on PATH, and a fake build of LIST in WORK_DIR/build;
#   override_results LINE...: each line ("test name|status|output") replaces the line of the same
#     test in $FAKE_RESULTS, or is added;
#   left_out_lessons LIST: the lessons that the configure which wrote LIST (a build's
#   workbook-exercises.txt) left out, one a line (its workbook-left-out.tsv: lesson 08 without
#   MPI), so that a test checks the rest and then skips instead of failing on them;
#   lesson_named LIST NAME: the lesson of LIST whose name without its number is NAME (NN-NAME),
#   so that a scenario on one lesson follows it when it is renumbered.
# scripts/progress then runs as on a real build, without compiling or running anything.
fake_tools() {
  mkdir -p "$1"
  cat >"$1/ctest" <<'PY'
#!/usr/bin/env python3
import os, sys
from xml.sax.saxutils import escape, quoteattr
report = sys.argv[sys.argv.index("--output-junit") + 1]
if os.environ.get("FAKE_CTEST_FAILS") == "1":
    print("No tests were found!!!")
    sys.exit(8)
cases = []
with open(os.environ["FAKE_RESULTS"], encoding="utf-8") as f:
    for line in f:
        if line.strip():
            name, status, output = (line.rstrip("\n").split("|", 2) + [""])[:3]
            inner = {"run": "", "failed": '<failure message="Failed"/>',
                     "skipped": '<skipped message="SKIP_RETURN_CODE=77"/>'}[status]
            cases.append(f'<testcase name={quoteattr(name)} classname={quoteattr(name)} time="0" '
                         f'status="{status}">{inner}<system-out>{escape(output)}</system-out></testcase>')
with open(report, "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="fake">' + "".join(cases) + "</testsuite>\n")
print("100% tests passed")
PY
  cat >"$1/cmake" <<'SH'
#!/bin/sh
for target in "$@"; do
  if [ -n "${FAKE_BROKEN:-}" ] && printf '%s\n' "$FAKE_BROKEN" | grep -qx -- "$target"; then
    echo "lessons/x.cu(1): error: identifier \"oops\" is undefined"; exit 1
  fi
done
exit 0
SH
  cat >"$1/nvidia-smi" <<'SH'
#!/bin/sh
[ "${FAKE_GPU:-0}" = 1 ] || { echo "NVIDIA-SMI has failed"; exit 9; }
case "$*" in *compute_cap*) echo "${FAKE_CC:-9.0}"; exit 0 ;; esac
echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)"
SH
  chmod +x "$1/ctest" "$1/cmake" "$1/nvidia-smi"
}

fake_build() {
  mkdir -p "$1" && cp "$2" "$1/workbook-exercises.txt" || return 1
  # The lists CMake writes beside the exercise list (the manifests' speed goals among them).
  local generated
  for generated in "$(dirname "$2")"/workbook-{lessons.tsv,part-min-cc.tsv,rooflines.txt,speed-goals.tsv}; do
    if [ -f "$generated" ]; then cp "$generated" "$1/"; fi
  done
}

fake_course() {
  rm -rf "$2" && mkdir -p "$2" || return 1
  bash "$1/scripts/maintainer/copy-course.sh" "$1" "$2/tree" || { echo "FAIL: cannot copy the tree"; return 1; }
  fake_tools "$2/fake"
  fake_build "$2/build" "$3" || return 1
  export PATH="$2/fake:$PATH"
}

override_results() {
  local line
  for line in "$@"; do
    grep -v "^${line%%|*}|" "$FAKE_RESULTS" >"$FAKE_RESULTS.new"
    echo "$line" >>"$FAKE_RESULTS.new"
    mv "$FAKE_RESULTS.new" "$FAKE_RESULTS"
  done
}

left_out_lessons() {
  local file
  file="$(dirname "$1")/workbook-left-out.tsv"
  [ -f "$file" ] || return 0
  awk -F'\t' '$1 ~ /^[0-9][0-9]-/ { print $1 }' "$file"
}

lesson_named() {
  awk -F'|' -v name="$2" '!/^#/ && $2 ~ ("^[0-9][0-9]-" name "$") { print $2; exit }' "$1"
}
