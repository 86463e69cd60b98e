#!/usr/bin/env bash
# progress-next-test.sh SOURCE_DIR WORK_DIR EXERCISE_LIST: the exercise that scripts/progress names
# as "Next" is one this machine can finish, and every skip it prints gives its reason.
# scripts/progress on a copy of the course, with a fake CTest, CMake and nvidia-smi
# (progress-fakes.sh) and nothing built:
#   - without a usable GPU, a GPU exercise whose check fails before it needs the GPU (lesson
#     tiled-matmul's banks program counts bank conflicts on the CPU) is never Next: the first
#     unfinished CPU exercise after it is, in the table and for `scripts/progress hint`;
#   - without a usable GPU and every CPU exercise done, there is no Next: progress says that
#     nothing is left that this machine can finish, and why, and exits 0;
#   - with a GPU, the same failing GPU exercise is Next;
#   - a benchmark that exits 77 is reported with its SKIP line, or a fallback that says it gave
#     none, never an empty reason; a skipped check without a SKIP line says so in `scripts/check`.
set -u
src=$1 work=$2 list=$3
fail() { echo "FAIL: $*"; exit 1; }
source "$src/scripts/tests/progress-fakes.sh"
fake_course "$src" "$work" "$list" || exit 1
tree=$work/tree
export FAKE_RESULTS="$work/results.txt"
progress() { python3 "$tree/scripts/progress" --build-dir "$work/build" --no-build "$@"; }
tiled=$(lesson_named "$list" tiled-matmul) gallery=$(lesson_named "$list" bug-gallery)
[ -n "$tiled" ] && [ -n "$gallery" ] || fail "no lesson NN-tiled-matmul or NN-bug-gallery in $list"
banks=$tiled.banks timed=$gallery.timed-region
grep -q "^$banks|.*|gpu|" "$list" || fail "$banks is not a GPU exercise in $list"
grep -q "^$timed|.*|cpu|" "$list" || fail "$timed is not a CPU exercise in $list"
# results [NAME|STATUS|OUTPUT...]: every CPU check passes, every GPU check skips for want of a
# GPU (passes where FAKE_GPU=1), then the lines given replace those of the same name.
results() {
  awk -F'|' -v gpu="${FAKE_GPU:-0}" '!/^#/ && NF {
      if ($4 == "cpu" || gpu == 1) print $1 ".exercise|run|PASSED"
      else print $1 ".exercise|skipped|SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)" }' "$list" >"$FAKE_RESULTS"
  override_results "$@"
}
conflict="$banks.exercise|failed|  pitch 32, float  a warp on a tile column: 32 wavefront(s) (ideal 1): a bank conflict"
expect_exit() { [ "$2" -eq "$1" ] || { cat "$3"; fail "progress exited $2 (expected $1): $4"; }; }

echo "== no usable GPU: a GPU exercise failing on the CPU is not Next, the next CPU exercise is"
results "$conflict" "$timed.exercise|failed|FAILED: 1 of 2 cases wrong. See the hints on the lesson page."
WB_FORCE_NO_GPU=1 progress --no-bench >"$work/1.txt" 2>&1
expect_exit 1 $? "$work/1.txt" "an exercise is left to do"
cat "$work/1.txt"
grep -Eq "^Next: $timed \((not started|failing)\); edit lessons/$gallery/" "$work/1.txt" ||
  fail "Next is not $timed, the first unfinished exercise this machine can finish"
grep -Eq "^ +\[ \] $banks +(not started|failing) +needs an NVIDIA GPU$" "$work/1.txt" ||
  fail "$banks is not listed as failing and needing a GPU"
WB_FORCE_NO_GPU=1 progress hint >"$work/hint.txt" 2>&1
expect_exit 0 $? "$work/hint.txt" "scripts/progress hint"
grep -q "^Hint 1 of [0-9]* for $timed:" "$work/hint.txt" || { cat "$work/hint.txt"; fail "hint is not for $timed"; }

echo "== no usable GPU, every CPU exercise done: nothing left here, and why"
results "$conflict"
WB_FORCE_NO_GPU=1 progress --no-bench >"$work/2.txt" 2>&1
expect_exit 0 $? "$work/2.txt" "nothing is left that this machine can finish"
grep -q '^Next:' "$work/2.txt" && { cat "$work/2.txt"; fail "a Next that this machine cannot finish"; }
# Optional exercises ("going further") are counted apart, never among those left to do.
gpu_count=$(grep '^[^#].*|gpu|' "$list" | grep -vc '|optional')
grep -Fq "Nothing left to do here that this machine can finish: $gpu_count exercises cannot be finished here \
(no usable GPU here: WB_FORCE_NO_GPU=1 is set). Where to run them is listed above." "$work/2.txt" ||
  { cat "$work/2.txt"; fail "progress does not say that nothing is left here, and why"; }
WB_FORCE_NO_GPU=1 progress hint >"$work/hint2.txt" 2>&1
expect_exit 1 $? "$work/hint2.txt" "hint with nothing left to do here"
grep -Fq "no usable GPU here: WB_FORCE_NO_GPU=1 is set" "$work/hint2.txt" ||
  { cat "$work/hint2.txt"; fail "hint does not say why nothing is left here"; }

echo "== a GPU: the GPU exercise failing is Next"
FAKE_GPU=1 results "$conflict"
FAKE_GPU=1 progress --no-bench >"$work/3.txt" 2>&1
expect_exit 1 $? "$work/3.txt" "an exercise is left to do"
grep -Eq "^Next: $banks \((not started|failing)\)" "$work/3.txt" || { cat "$work/3.txt"; fail "Next is not $banks"; }

echo "== a benchmark that skips says why"
# Two CPU exercises done, their benchmarks skipped: one prints its SKIP line, one prints nothing.
cpu=($(awk -F'|' '!/^#/ && $4 == "cpu" { print $6 }' "$list" | head -n 2))
[ ${#cpu[@]} -eq 2 ] || fail "fewer than two CPU exercises in $list"
mkdir -p "$work/build/bin"
printf 'bench %s %s-solution --bench\nbench %s %s-solution --bench\n' "${cpu[0]}" "${cpu[0]}" "${cpu[1]}" "${cpu[1]}" \
  >"$work/build/gpu-jobs.txt"
printf '#!/bin/sh\necho "Lesson, benchmark"\necho "SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)"\nexit 77\n' \
  >"$work/build/bin/${cpu[0]}-exercise"
printf '#!/bin/sh\nexit 77\n' >"$work/build/bin/${cpu[1]}-exercise"
chmod +x "$work/build/bin/"*
results "$conflict"
WB_FORCE_NO_GPU=1 progress >"$work/4.txt" 2>&1
expect_exit 0 $? "$work/4.txt" "benchmarks skipped, nothing left here"
grep -Fxq "    the benchmark did not run (exit 77, skipped): SKIP: no usable CUDA GPU (WB_FORCE_NO_GPU=1 is set)" \
  "$work/4.txt" || { cat "$work/4.txt"; fail "a skipped benchmark's SKIP line is not shown"; }
no_reason="it could not run here and printed no SKIP line saying why"
grep -Fxq "    the benchmark did not run (exit 77, skipped): $no_reason" "$work/4.txt" ||
  { cat "$work/4.txt"; fail "a benchmark skipped without a SKIP line has no fallback reason"; }
grep -Eq 'did not run.*:\s*$' "$work/4.txt" && { cat "$work/4.txt"; fail "a benchmark skipped with an empty reason"; }

echo "== a check that skips without a SKIP line says so"
results "$conflict" "$tiled.exercise|skipped|"
WB_FORCE_NO_GPU=1 python3 "$tree/scripts/progress" check "$tiled" --build-dir "$work/build" --no-build \
  >"$work/5.txt" 2>&1
rc=$?
cat "$work/5.txt"
[ $rc -eq 1 ] || fail "scripts/check of a lesson with a failing program exited $rc (expected 1)"
grep -Fq "it exited 77 (could not run here) without a SKIP line saying why" "$work/5.txt" ||
  fail "a skipped check without a SKIP line has no reason"
echo "OK: Next is the first exercise this machine can finish; every skip says why"
