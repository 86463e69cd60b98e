#!/usr/bin/env bash
# gpu-check.sh OUTDIR [LESSON_REGEX]
# On a machine with an NVIDIA GPU, cmake and nvcc (gnuplot, Doxygen and GoogleTest optional):
#   1. configures and builds everything with the maintainer tests on,
#   2. runs every test that CI cannot run, those labelled gpu or realgrid (the real grid), except
#      the exercises' own checks (the pristine exercises must fail); GPU_CHECK_TESTS=all runs
#      every test (the CPU ones too, which CI runs on every change),
#   3. runs compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on each GPU
#      solution's short check,
#   4. performs the reference runs (step bench), the "reference" rows of <build>/gpu-jobs.txt
#      that the lessons declare (workbook_lesson, workbook_benchmark: common/cmake/Workbook.cmake):
#      each program's benchmark and the runs a lesson adds, lesson 03's sweep over the report's
#      orders (03-tiled-matmul-sweep) and lesson 07's power run (07-toward-cublas-power). Each
#      writes OUTDIR/bench/NAME.csv, lesson 11's also its timeline (11-streams-overlap-timeline.csv
#      beside it): the files data/FOLDER/ keeps for this GPU's machine (data/machines.csv names
#      the machines by their GPU: data/h200/ for an H200, the reference, data/h100/ for an H100),
#      their "# command:" lines the commands run here; a command declared to run right after a run
#      (its "then" rows, workbook_reference_then: lesson 16's PyTorch rows) adds to its CSV;
#      and the runs of several MPI ranks, the "reference-ranks" rows (workbook_benchmark RANKS n:
#      lesson 08's scaling run on two GPUs, named x2/08-sciddicat-multigpu), started with the MPI
#      launcher and flags of the lessons' multi-rank tests, each writing OUTDIR/bench/x<n>/NAME.csv,
#      the file data/FOLDERx<n>/ keeps (data/h200x2/; the "# command:" line is rank 0's). Such a run
#      needs n GPUs (nvidia-smi -L): with fewer, the summary says "skipped" with the reason, and the
#      check does not fail for it (its last line counts what was skipped; a skip is no pass).
#      Every CSV written then must be possible on this GPU (scripts/maintainer/verify-roofs.py
#      --runs: no rate above what its arithmetic units give at the clock the row records, no row
#      above its roof, its roofs near the published peaks), and the summary names the folder of
#      data/ that keeps them;
# writing logs and CSVs under OUTDIR and printing a summary table last. Exits 1 when any test,
# sanitizer run or benchmark failed; a GPU test that finds no GPU counts as failed (WB_REQUIRE_GPU=1).
# LESSON_REGEX (e.g. '0[2-4]') limits steps 2-4 and the step counters to matching lessons (step 4:
# the runs' names; a run of n ranks matches by NAME or by x<n>/NAME).
# Real input data (the SciddicaT tessina grid) is used when found in .data/ or ../shared/data.
# GPU_CHECK_STEPS chooses steps 2-4 (default "test sanitize bench notebook"; "notebook" runs every
# cell of notebooks/course.ipynb for lesson 11 in a copy of the course), e.g. to split a long
# check over two calls on the same machine (the build is reused); the step "counters" (not in
# the default) reads the execution-model lessons' hardware counters with ncu
# (scripts/maintainer/measure-counters.sh); the step "profiles" (not in the default) measures lesson
# 12's four versions, benchmark and counters (scripts/maintainer/measure-profiles.sh); the step
# "mutants" (not in the default) judges the mutants of the GPU exercises with
# scripts/maintainer/mutate.py (their checks, and compute-sanitizer on each survivor; the GPUs of
# nvidia-smi -L run checks of different copies at once): those of the exercises matching
# GPU_CHECK_MUTANTS (a regex of exercise names; default: all), of their files those matching
# GPU_CHECK_MUTANT_FILES (a regex of paths; default: all), with GPU_CHECK_MUTANT_PENDING=1 only
# the mutants without a judged row in the committed reports; GPU_CHECK_MUTANT_GPU_SHARE=n lets each
# GPU run n checks at once of the exercises that time nothing (mutate.py --gpu-share). It writes the reports into
# solutions/*/mutation-report.tsv and copies them to OUTDIR/mutants/; the copies of the course
# and the mutants judged so far stay in OUTDIR/mutants/, so that a call that stopped at
# GPU_CHECK_MUTANT_DEADLINE_S (seconds) goes on in the next call with the same OUTDIR. Its
# summary counts each file's mutants (killed, equivalent, do not compile, pending).
# GPU_CHECK_MUTANT_TOOLS_BUILD=release has the tools judge the survivors in the release build
# (mutate.py --tools-build; default: the -G build, which takes minutes for lesson 13). E.g. the
# pending mutants of every GPU lesson, in calls of 25 minutes until none is left:
#   GPU_CHECK_STEPS=mutants GPU_CHECK_TARGETS=device-info GPU_CHECK_MUTANT_PENDING=1 \
#     GPU_CHECK_MUTANT_DEADLINE_S=1500 scripts/gpu-check.sh OUTDIR
# The step "small-gpu" (not in the default) runs the GPU checks again as on a small GPU: every GPU
# test that runs a check (the solutions' checks, the pristine exercises' and planted bugs' failing
# ones, the stress runs; not the benchmarks' tests, bad inputs, full-device runs or PyTorch
# comparisons) with WB_SM_LIMIT=${GPU_CHECK_SM_LIMIT:-16} in the environment, each program on that
# many SMs of a green context (common/include/wb/sm_limit.h); its summary says each test's verdict
# (a skip is no pass), and docs/which-gpu.md lists the speed checks whose ratio a small GPU may
# change. E.g. as on a 16-SM GPU:
#   GPU_CHECK_STEPS=small-gpu GPU_CHECK_SM_LIMIT=16 scripts/gpu-check.sh OUTDIR
# GPU_CHECK_CMAKE_ARGS adds configure options (e.g. -DWORKBOOK_SHARED_DATA=/path/to/data).
# GPU_CHECK_TARGETS builds only these targets (e.g. "device-info 06-sciddicat-solution
# 06-sciddicat-exercise 06-sciddicat-serial" with LESSON_REGEX 06) to save time on one lesson.
# Every file of a machine's folder (data/h200/, data/h100/) comes from step 4 or from the steps
# counters and profiles, copied from OUTDIR as it is (workbook.lesson-registry checks that a step
# writes it, with the command it has), and every file of data/FOLDERx<n>/ from a run of n ranks in
# step 4, copied from OUTDIR/bench/x<n>/.
# To write some of them again, e.g. lesson 03's sweep and lesson 11's benchmark and timeline:
#   GPU_CHECK_STEPS=bench GPU_CHECK_TARGETS="device-info 03-tiled-matmul-solution 11-streams-overlap-solution" \
#     scripts/gpu-check.sh OUTDIR '^(03-tiled-matmul-sweep|11-streams-overlap)$'
# or, on a machine with two GPUs or more, lesson 08's scaling run (then cp OUTDIR/bench/x2/*.csv data/h200x2/):
#   GPU_CHECK_STEPS=bench GPU_CHECK_TARGETS="device-info 08-sciddicat-multigpu-solution" \
#     scripts/gpu-check.sh OUTDIR '^x2/08-sciddicat-multigpu$'
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
out=${1:?usage: gpu-check.sh OUTDIR [LESSON_REGEX]}
only=${2:-.}
steps=" ${GPU_CHECK_STEPS:-test sanitize bench notebook} "
wants() { [[ "$steps" == *" $1 "* ]]; }
src=$(cd "$(dirname "$0")/.." && pwd)
build=${GPU_CHECK_BUILD:-$src/build-gpu}
mkdir -p "$out/bench" "$out/sanitizer"
out=$(cd "$out" && pwd)
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
# Every failure (a test, a sanitizer finding, a benchmark's exit code) makes the script exit 1.
failures=0
fail() { note "$*"; failures=$((failures + 1)); }
# What could not run on this machine (a test that gpu-allowed-skips.tsv or its lesson's
# allowed-skips.tsv allows to skip here, a reference run of more ranks than it has GPUs, the steps
# counters and profiles where the counters cannot be read): never a pass, said so in the summary
# with its reason, and counted in the last line, but no failure either.
skips=0
skip() { note "$*"; skips=$((skips + 1)); }
# A GPU test that cannot find the GPU is an error here, never a skip (see wb::require_gpu).
export WB_REQUIRE_GPU=1

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 || true
  nvcc --version 2>&1 | tail -n 2
  cmake --version | head -n 1
  command -v compute-sanitizer || echo "compute-sanitizer: not found"
} >"$out/environment.txt"
cat "$out/environment.txt"

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
echo "== configure and build ($build)"
if ! cmake -S "$src" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
       -DWORKBOOK_MAINTAINER_TESTS=ON -DWORKBOOK_RUN_BENCHMARKS=OFF ${GPU_CHECK_CMAKE_ARGS:-} >"$out/configure.log" 2>&1; then
  tail -n 30 "$out/configure.log"; note "configure: FAILED"; exit 1
fi
targets=()
for target in ${GPU_CHECK_TARGETS:-}; do targets+=(--target "$target"); done
if ! cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1; then
  grep -E "error|Error" "$out/build.log" | head -n 40; note "build: FAILED"; exit 1
fi
note "build: ok"
# With GPU_CHECK_TARGETS, the tests that run a program left unbuilt (one CTest expression, empty
# when none): the steps test and small-gpu leave them out, as they would fail for the missing file.
unbuilt=""
[ -n "${GPU_CHECK_TARGETS:-}" ] && unbuilt=$(python3 "$src/scripts/lib/unbuilt-tests.py" "$build" "$only|^common|^scripts\.")

echo "== device"
"$build/bin/device-info" 2>&1 | tee "$out/device-info.txt"

if wants test; then
echo "== tests"
# The tests whose programs are left unbuilt are not run; the summary says how many.
exclude=()
if [ -n "${GPU_CHECK_TARGETS:-}" ]; then
  [ -n "$unbuilt" ] && exclude=(-E "$unbuilt")
  note "tests left out: $(echo "$unbuilt" | tr '|' '\n' | grep -c .) (their programs are not among GPU_CHECK_TARGETS)"
fi
labels='^(gpu|realgrid)$'
[ "${GPU_CHECK_TESTS:-}" = all ] && labels='.'
(cd "$build" && ctest -L "$labels" -LE '^exercise$' -R "$only|^common|^scripts\." "${exclude[@]}" --output-on-failure -j 4 --timeout 900) \
  >"$out/ctest.log" 2>&1
test_rc=$?
grep -E "tests passed|Test +#.*(Failed|Skipped|Timeout|Not Run)|\*\*\*" "$out/ctest.log" | head -n 60
note "tests: $(grep -E 'tests passed' "$out/ctest.log" | tail -n 1) (ctest exit $test_rc)"
[ "$test_rc" -eq 0 ] || fail "tests: FAILED (ctest exit $test_rc)"
# Each skipped test once: its result line ("Test  #441: NAME ...***Skipped"), not the list at the end.
skipped=$(grep -cE "Test +#[0-9]+: .*\*\*\*Skipped" "$out/ctest.log")
note "tests skipped: $skipped"
grep -E "\(Skipped\)|\(Failed\)|\(Timeout\)" "$out/ctest.log" | sed 's/^/  /' | tee -a "$summary"
# A skip is never a pass: each skipped test must be one that scripts/maintainer/gpu-allowed-skips.tsv
# or its lesson's allowed-skips.tsv allows on this machine, with its reason; any other skip fails
# the GPU check.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
bash "$src/scripts/maintainer/judge-skips.sh" "$out/ctest.log" "$gpus" | tee "$out/skips.txt" | tee -a "$summary"
unexpected=$(grep -c '^UNEXPECTED SKIP' "$out/skips.txt")
[ "$unexpected" -eq 0 ] || fail "tests: $unexpected unexpected skip(s) (scripts/maintainer/gpu-allowed-skips.tsv and the lessons' allowed-skips.tsv list the allowed ones)"
# The allowed ones do not fail the check, but they did not pass either: the last line counts them.
skips=$((skips + $(grep -c '^  allowed skip:' "$out/skips.txt")))
# Some kernels exist only in code built for sm_90a (the lessons that call
# workbook_sm90a_architectures: <build>/workbook-sm90a-lessons.txt): on an H100 or H200 a build
# without it leaves them out, and their checks would pass without them. Each such lesson's short
# check (its "sanitize" rows of <build>/gpu-jobs.txt) must run every kernel here.
if nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | grep -q '^9\.0'; then
  while read -r lesson; do
    while read -r _ exe args; do
      [ -x "$build/bin/$exe" ] || continue
      # shellcheck disable=SC2086
      if "$build/bin/$exe" $args 2>&1 | grep -q "left out"; then
        fail "$lesson: kernels left out on a compute capability 9.0 GPU (is sm_90a in the build?)"
      else
        note "$lesson: every kernel ran on this compute capability 9.0 GPU"
      fi
    done < <(awk -v lesson="$lesson" '$1 == "sanitize" && index($2, lesson "-") == 1' "$build/gpu-jobs.txt")
  done <"$build/workbook-sm90a-lessons.txt"
fi
fi

echo "== the checks on a few SMs"
if wants small-gpu; then
  sm_limit=${GPU_CHECK_SM_LIMIT:-16}
  # The limit must take: device-info says how many SMs it got (the driver rounds the count up).
  if WB_SM_LIMIT=$sm_limit "$build/bin/device-info" >"$out/small-gpu-device.txt" 2>&1 &&
     note_line=$(grep -m 1 '^note: WB_SM_LIMIT=' "$out/small-gpu-device.txt"); then
    note "small-gpu: ${note_line#note: }"
    # One test at a time: each process's green context takes the same first SMs, and a speed
    # check's ratio must not count another program's kernels.
    small_exclude='(bench-|gpu-limits|torch-|^badinput\.|^common\.)'
    [ -n "$unbuilt" ] && small_exclude="$small_exclude|$unbuilt"  # and the unbuilt ones
    (cd "$build" && WB_SM_LIMIT=$sm_limit ctest -L '^gpu$' -LE '^exercise$' -R "$only" -E "$small_exclude" \
       --output-on-failure -j 1 --timeout 900) >"$out/small-gpu.log" 2>&1
    small_rc=$?
    # One line a test: its verdict on sm_limit SMs; a skip is counted as one, never as a pass.
    while read -r name verdict; do
      case $verdict in
        Passed) note "small-gpu $name: passed" ;;
        Skipped) skip "small-gpu $name: skipped" ;;
        *) fail "small-gpu $name: FAILED ($verdict)" ;;
      esac
    done < <(sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.+ *(\*\*\*)?([A-Za-z]+).*/\1 \3/p' "$out/small-gpu.log")
    note "small-gpu: $(grep -E 'tests passed' "$out/small-gpu.log" | tail -n 1) on $sm_limit SMs (ctest exit $small_rc; $out/small-gpu.log)"
    [ "$small_rc" -eq 0 ] || [ "$(grep -c '^small-gpu .*FAILED' "$summary")" -gt 0 ] ||
      fail "small-gpu: FAILED (ctest exit $small_rc)"
  else
    tail -n 5 "$out/small-gpu-device.txt"
    fail "small-gpu: FAILED (WB_SM_LIMIT=$sm_limit did not take: $out/small-gpu-device.txt)"
  fi
else
  echo "(not requested)"
fi

echo "== compute-sanitizer"
declare -A sanitizer_options=()
while read -r kind exe options; do
  [ "$kind" = sanitizer-options ] && sanitizer_options[$exe]=$options
done <"$build/gpu-jobs.txt"
if ! wants sanitize; then
  echo "(not requested)"
elif command -v compute-sanitizer >/dev/null 2>&1; then
  while read -r kind exe args; do
    [ "$kind" = sanitize ] || continue
    echo "$exe" | grep -Eq -- "$only" || continue
    for tool in memcheck racecheck synccheck initcheck; do
      log="$out/sanitizer/$exe.$tool.log"
      # shellcheck disable=SC2086
      # The sanitizer slows the check many times: its time limit (wb::LessonInfo) grows with it.
      (cd "$build" && WORKBOOK_CHECK_TIME_SCALE=20 timeout 900 compute-sanitizer --tool "$tool" --error-exitcode 99 ${sanitizer_options[$exe]:-} \
         --print-limit 20 "bin/$exe" $args) >"$log" 2>&1
      rc=$?
      verdict=$([ $rc -eq 0 ] && echo clean || echo "FAILED (exit $rc)")
      note "sanitizer $exe $tool: $verdict"
      [ $rc -eq 0 ] || { tail -n 15 "$log"; failures=$((failures + 1)); }
    done
  done <"$build/gpu-jobs.txt"
else
  fail "sanitizer: compute-sanitizer not found"
fi

# run_words DIR ARGS: a reference run's arguments as the array `words`, {bench-dir} replaced by
# DIR, and in `seconds` those that name a second file the run writes there, beside its CSV
# (lesson 11's --timeline).
run_words() {
  local word
  read -ra words <<<"$2"
  words=("${words[@]//\{bench-dir\}/$1}")
  seconds=()
  for word in "${words[@]}"; do [[ "$word" == "$1/"* ]] && seconds+=("$word"); done
}

# judge_run RUN PATH RC SUFFIX [SECOND...]: the summary line of a finished run (PATH.csv and
# PATH.log; SUFFIX after its row count), a failure when it exited non-zero, wrote no rows or
# left out one of its SECOND files; then the end of its log.
judge_run() {
  local run=$1 path=$2 rc=$3 suffix=$4 rows second
  shift 4
  rows=$(grep -vc '^#' "$path.csv" 2>/dev/null || echo 0)
  note "bench $run: exit $rc, $((rows > 0 ? rows - 1 : 0)) rows$suffix"
  [ "$rc" -eq 0 ] && [ "$rows" -gt 1 ] || fail "bench $run: FAILED"
  for second in "$@"; do
    if [ -s "$second" ]; then note "bench $run: wrote $(basename "$second")"; else fail "bench $run: FAILED (no $second)"; fi
  done
  tail -n 25 "$path.log"
}

echo "== reference runs"
if wants bench; then
while read -r kind lesson exe args; do
  [ "$kind" = reference ] || continue
  echo "$lesson" | grep -Eq -- "$only" || continue
  run_words "$out/bench" "$args"
  (cd "$build" && timeout 900 "bin/$exe" "${words[@]}" --out "$out/bench/$lesson.csv") </dev/null >"$out/bench/$lesson.log" 2>&1
  rc=$?
  # The commands run right after it on its CSV ("then NAME COMMAND", {csv} the CSV: lesson 16's
  # PyTorch rows), while the run has passed; their output goes to its log.
  while [ "$rc" -eq 0 ] && read -r then_kind then_lesson then_command; do
    [ "$then_kind" = then ] && [ "$then_lesson" = "$lesson" ] || continue
    read -ra then_words <<<"$then_command"
    then_words=("${then_words[@]//\{csv\}/$out/bench/$lesson.csv}")
    (cd "$build" && timeout 900 "${then_words[@]}") </dev/null >>"$out/bench/$lesson.log" 2>&1
    rc=$?
  done <"$build/gpu-jobs.txt"
  judge_run "$lesson" "$out/bench/$lesson" "$rc" "" "${seconds[@]}"
done <"$build/gpu-jobs.txt"
# The runs of several MPI ranks, one a GPU ("reference-ranks NAME EXE RANKS ARGS", lesson 08's
# scaling run), each named xRANKS/NAME, its file OUTDIR/bench/xRANKS/NAME.csv, which
# data/<gpu>xRANKS/ keeps; LESSON_REGEX picks it by either name. They start as the lessons'
# multi-rank tests start theirs (the "mpiexec" row, Open MPI allowed to run as root). On a machine
# with fewer GPUs than ranks the run is skipped, said so in the summary with the reason: it writes
# no file and does not fail the check.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
mpiexec=$(awk '$1 == "mpiexec" { sub(/^mpiexec[ \t]+/, ""); print; exit }' "$build/gpu-jobs.txt")
while read -r kind lesson exe ranks args; do
  [ "$kind" = reference-ranks ] || continue
  run="x$ranks/$lesson"
  printf '%s\n%s\n' "$lesson" "$run" | grep -Eq -- "$only" || continue
  dir="$out/bench/x$ranks"
  if [ "$gpus" -lt "$ranks" ]; then
    skip "bench $run: skipped ($ranks ranks need $ranks GPUs, one a rank; this machine has $gpus)"
    continue
  fi
  if [ -z "$mpiexec" ]; then
    fail "bench $run: FAILED (gpu-jobs.txt has no mpiexec row to start $ranks ranks: was MPI found?)"
    continue
  fi
  mkdir -p "$dir" && rm -f "$dir/$lesson.csv"
  read -ra launcher <<<"$mpiexec"
  launcher=("${launcher[@]//\{ranks\}/$ranks}")
  run_words "$dir" "$args"
  (cd "$build" && timeout 900 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${launcher[@]}" \
     "bin/$exe" "${words[@]}" --out "$dir/$lesson.csv") </dev/null >"$dir/$lesson.log" 2>&1
  judge_run "$run" "$dir/$lesson" $? " on $ranks ranks" "${seconds[@]}"
done <"$build/gpu-jobs.txt"
# The runs must be possible on this GPU: a rate above what its units give at the clock the row
# records means a clock figure that does not describe the timed runs (wb/power_sampler.h).
# A row whose NVML readings were all one clock and one power, and whose rate that clock cannot
# give, has its clock and power emptied first, with a '# blanked:' line that says so
# (scripts/maintainer/blank-stale-readings.py, data/README.md): NVML did not follow the clock there.
mapfile -t fresh < <(find "$out/bench" -name '*.csv' | sort)
if [ "${#fresh[@]}" -gt 0 ]; then
  python3 "$src/scripts/maintainer/blank-stale-readings.py" "$src/data" "${fresh[@]}" | sed 's/^/bench: /' | tee -a "$summary"
  if python3 "$src/scripts/maintainer/verify-roofs.py" --runs "$src/data" "${fresh[@]}" >"$out/bench/verify-roofs.log" 2>&1; then
    note "bench: $(tail -n 1 "$out/bench/verify-roofs.log")"
  else
    grep -E "^(FAIL|note)" "$out/bench/verify-roofs.log" | head -n 20
    fail "bench: FAILED, runs no $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1) can have made ($out/bench/verify-roofs.log)"
  fi
fi
# Which folder of data/ keeps this GPU's runs (data/machines.csv, by the GPU's name).
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
folder=$(awk -F, -v gpu="$gpu_name" '!/^#/ && $6 == gpu { print $3; exit }' "$src/data/machines.csv")
if [ -n "$folder" ]; then
  note "bench: the runs of this $gpu_name belong in data/$folder/ (OUTDIR/bench/*.csv) and data/${folder}x<n>/ (OUTDIR/bench/x<n>/*.csv)"
else
  note "bench: no machine of data/machines.csv has a GPU named '$gpu_name': its runs belong in no folder of data/"
fi
fi

echo "== the hosted notebook"
if wants notebook; then
  # Every cell in order, in a copy of the course, lesson 11 (one exercise file) written from the
  # notebook's own cell: begun and failing, then solved; neither run may reveal a hint.
  bash "$src/scripts/tests/notebook-test.sh" "$src" "$out/notebook-course" 11-streams-overlap \
    lessons/11-streams-overlap/pipeline.cu >"$out/notebook.log" 2>&1
  rc=$?
  grep -E "^=== (cell|the exercise)|^PASSED|^FAILED|^FAIL:" "$out/notebook.log" | tee -a "$summary"
  [ "$rc" -eq 0 ] || { tail -n 30 "$out/notebook.log"; fail "notebook: FAILED (exit $rc)"; }
  rm -rf "$out/notebook-course"
else
  echo "(not requested)"
fi

# judge_step STEP RC WHY: a measuring step's exit code in the summary: 0 passes, 77 (it could not
# run here, WHY) is a skip, anything else a failure.
judge_step() {
  case $2 in
    0) ;;
    77) skip "$1: skipped ($3: nothing measured)" ;;
    *) fail "$1: FAILED (exit $2)" ;;
  esac
}

echo "== hardware counters"
if wants counters; then
  bash "$src/scripts/maintainer/measure-counters.sh" "$build" "$out" "$only" | tee -a "$summary"
  judge_step counters "${PIPESTATUS[0]}" "ncu is missing or cannot read the counters here"
else
  echo "(not requested)"
fi

echo "== the profiling lesson's versions, profiled"
if wants profiles; then
  bash "$src/scripts/maintainer/measure-profiles.sh" "$build" "$out" | tee "$out/profiles.log" | grep -E "^profiles " | tee -a "$summary"
  judge_step profiles "${PIPESTATUS[0]}" "scripts/profile cannot read the counters here"
else
  echo "(not requested)"
fi

echo "== mutation testing of the GPU exercises"
if wants mutants; then
  # scripts/maintainer/mutate.py run: the copies of the course keep their builds in
  # OUTDIR/mutants/work and the judged mutants in OUTDIR/mutants/state.jsonl, so that the next
  # call with this OUTDIR goes on where this one stopped (exit 3: the deadline came first).
  mkdir -p "$out/mutants"
  pending=()
  [ "${GPU_CHECK_MUTANT_PENDING:-0}" = 1 ] && pending=(--pending)
  python3 "$src/scripts/maintainer/mutate.py" run --build-dir "$build" --kind gpu "${pending[@]}" \
    --only "${GPU_CHECK_MUTANTS:-.}" --files "${GPU_CHECK_MUTANT_FILES:-.}" \
    --jobs "${GPU_CHECK_MUTANT_JOBS:-$(nproc)}" --gpu-share "${GPU_CHECK_MUTANT_GPU_SHARE:-1}" \
    --work-dir "$out/mutants/work" --keep-workers \
    --state "$out/mutants/state.jsonl" --deadline-s "${GPU_CHECK_MUTANT_DEADLINE_S:-0}" \
    --limit-s "${GPU_CHECK_MUTANT_LIMIT_S:-300}" --tools-build "${GPU_CHECK_MUTANT_TOOLS_BUILD:-debug}" \
    >"$out/mutants.log" 2>&1
  rc=$?
  cat "$out/mutants.log" >>"$out/mutants-all.log"
  grep -E "^mutate:|^  solutions/|survived" "$out/mutants.log" | tee -a "$summary"
  for report in "$src"/solutions/*/mutation-report.tsv; do
    [ -e "$report" ] && cp "$report" "$out/mutants/$(basename "$(dirname "$report")").tsv"
  done
  # Every file's counts after this call, and what verify still finds (pending rows, survivors
  # without a reason, files below the goal).
  python3 "$src/scripts/maintainer/mutate.py" verify >"$out/mutants-verify.txt" 2>&1
  sed 's/^/  /' "$out/mutants-verify.txt" | grep -v "^  FAIL: " | tee -a "$summary"
  note "mutants: $(grep -c '^FAIL: .*pending' "$out/mutants-verify.txt") files with pending mutants; $(grep -c '^FAIL: ' "$out/mutants-verify.txt") problems of the reports ($out/mutants-verify.txt)"
  case $rc in
    0) note "mutants: every mutant asked for is judged" ;;
    3) fail "mutants: not finished (the deadline came first): call again with the same OUTDIR to go on" ;;
    77) note "mutants: some lessons not judged here: $(grep ': no report: ' "$out/mutants.log" | tr '\n' ' ')"
        skips=$((skips + 1)) ;;
    *) fail "mutants: FAILED (exit $rc; $out/mutants.log)" ;;
  esac
else
  echo "(not requested)"
fi

echo
echo "================ summary ================"
cat "$summary"
if [ "$failures" -gt 0 ]; then
  echo "gpu-check: $failures failure(s)"
  exit 1
fi
if [ "$skips" -gt 0 ]; then
  echo "gpu-check: no failures, $skips skipped: run(s) or step(s) that could not run here (see the summary)"
  exit 0
fi
echo "gpu-check: everything passed"
