#!/usr/bin/env bash
# progress-solved-test.sh SOURCE_DIR WORK_DIR [PROGRESS_OPTIONS...]
# A bare `scripts/progress` (every exercise, no --only) on a copy of the course with every
# reference solution written over its exercise (scripts/maintainer/progress-solved.sh), as on a
# machine without a GPU (WB_FORCE_NO_GPU=1, whatever this one has): every CPU exercise must end
# "done", every GPU one "skipped (no GPU)" (never done, never failing), and progress must exit 0
# ("nothing left to do here without a GPU").
set -u
src=${1:?usage: progress-solved-test.sh SOURCE_DIR WORK_DIR [PROGRESS_OPTIONS...]}
work=${2:?usage: progress-solved-test.sh SOURCE_DIR WORK_DIR [PROGRESS_OPTIONS...]}
shift 2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
started=$(date +%s)
WB_FORCE_NO_GPU=1 bash "$src/scripts/maintainer/progress-solved.sh" "$work/course" "" --no-bench "$@" | tee "$work/progress.txt"
rc=${PIPESTATUS[0]}
echo "(copy, configure, build and checks: $(($(date +%s) - started)) s)"
list=$work/course/build/workbook-exercises.txt
[ -f "$list" ] || fail "no exercise list: the copy was not configured"
bad=0 count=0
while IFS='|' read -r name _ _ kind _; do
  count=$((count + 1))
  # The last column says where an exercise can be finished: here, or what it needs.
  if [ "$kind" = gpu ]; then want='\[-\] skipped \(no GPU\) +needs .+'; else want='\[x\] done( +here)?'; fi
  row=$(grep -E "^  \[.\] $(printf '%s' "$name" | sed 's/[.]/\\./g') +" "$work/progress.txt")
  mark=${row:2:3}
  status=$(printf '%s' "$row" | sed -E 's/^  \[.\] [^ ]+ +//')
  if ! printf '%s %s' "$mark" "$status" | grep -Eqx "$want"; then
    echo "FAIL: $name ($kind exercise, solved): '${row:-no row}'"
    bad=1
  fi
done < <(grep -v '^#' "$list")
[ "$count" -gt 0 ] || fail "the exercise list is empty"
[ $bad = 0 ] || fail "a solved exercise does not read as it must (above)"
grep -Fq 'Nothing left to do here' "$work/progress.txt" || fail "progress does not say that nothing is left to do"
[ "$rc" -eq 0 ] || fail "progress exited $rc with every exercise solved (expected 0)"
echo "OK: $count solved exercises: CPU ones done, GPU ones skipped (no GPU), progress exit 0"
