#!/usr/bin/env bash
# gpu-check-ranks-self-test.sh SOURCE_DIR: scripts/gpu-check.sh's step bench and its reference runs
# of several MPI ranks ("reference-ranks" rows of gpu-jobs.txt), on fake tools: a cmake that
# builds nothing, an nvidia-smi that lists $FAKE_GPUS GPUs, an mpiexec that writes down how it was
# started and runs the program as rank 0, and a program that writes a small CSV.
#   - on fewer GPUs than ranks the run is reported skipped with the reason, writes nothing, starts
#     no mpiexec, and the check still passes (its last line counts the skip, never "everything
#     passed");
#   - on enough GPUs it runs under the build's launcher and flags with Open MPI allowed to run as
#     root, into OUTDIR/bench/x<n>/NAME.csv beside the one-process run of the same NAME, its
#     {bench-dir} files there too;
#   - a failing run, or no launcher row, fails the check; LESSON_REGEX picks the run by x<n>/NAME;
#   - a command declared to run after a one-process run ("then" rows: workbook_reference_then) adds
#     its rows to that run's CSV and its output to its log, and its failure fails the run;
#   - a run with a row that no GPU of data/machines.csv can have made (FP64 above what an H200
#     gives at the clock the row records) fails the check, naming the log of the verdict;
#   - with BUILD_DIR, whose gpu-jobs.txt has the build's "mpiexec" row (MPI found), the run of two
#     ranks once more under that real launcher: both ranks start, rank 0 writes the CSV; where that
#     build left lesson 08 out (no MPI), the test ends skipped once the rest is checked;
#   - the steps counters and profiles, on a copy of the script beside fake measuring scripts:
#     where these cannot read the counters (exit 77) the summary says each step is skipped and the
#     last line counts it, never "everything passed"; exit 1 fails the check;
#   - the step small-gpu, on a fake ctest: it runs the GPU checks (label gpu, not the exercises,
#     benchmarks' tests, bad inputs) with WB_SM_LIMIT=$GPU_CHECK_SM_LIMIT, quotes device-info's
#     note of the SMs granted, gives each test's verdict (a skip counted as one, never a pass, a
#     failure failing the check), fails when the limit does not take, and runs in no other step.
set -uo pipefail
src=$(cd "${1:?usage: gpu-check-ranks-self-test.sh SOURCE_DIR [BUILD_DIR]}" && pwd)
real_jobs=${2:+$2/gpu-jobs.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
tools="$work/tools" build="$work/build"
mkdir -p "$tools" "$build/bin"

cat >"$tools/cmake" <<'SH'
#!/bin/sh
[ "${1:-}" = --version ] && echo "cmake version 3.25.0 (fake)"
exit 0
SH
cat >"$tools/nvidia-smi" <<'SH'
#!/bin/sh
[ "${FAKE_GPUS:-0}" -gt 0 ] || { echo "NVIDIA-SMI has failed"; exit 9; }
if [ "${1:-}" = -L ]; then
  i=0
  while [ "$i" -lt "$FAKE_GPUS" ]; do echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-$i)"; i=$((i + 1)); done
else
  echo "NVIDIA H100 80GB HBM3, 580.00, 81559 MiB, 1980 MHz"
fi
SH
# Written down: the arguments and the two variables that let Open MPI run as root.
cat >"$tools/mpiexec" <<'SH'
#!/bin/bash
echo "argv: $* | root: ${OMPI_ALLOW_RUN_AS_ROOT:-unset} ${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-unset}" >>"$FAKE_MPIEXEC_LOG"
[ "$1" = -n ] || { echo "fake mpiexec: expected -n N first"; exit 2; }
shift 2
[ "${1:-}" = --fake-preflag ] && shift
FAKE_UNDER_MPI=1 exec "$@"
SH
# device-info: with WB_SM_LIMIT, the note of the SMs granted (rounded up to 8), or with
# FAKE_NO_GREEN=1 the refusal of an older driver.
cat >"$build/bin/device-info" <<'SH'
#!/bin/sh
echo "fake device"
[ -n "${WB_SM_LIMIT:-}" ] || exit 0
[ "${FAKE_NO_GREEN:-0}" = 1 ] && { echo "error: WB_SM_LIMIT needs green contexts"; exit 2; }
echo "note: WB_SM_LIMIT=$WB_SM_LIMIT: running on $(( (WB_SM_LIMIT + 7) / 8 * 8 )) of 132 SMs (green context)"
SH
# ctest: writes down its arguments and WB_SM_LIMIT, and prints the result lines of a real one:
# every test passed, or with FAKE_CTEST=mixed one failed and one skipped.
cat >"$tools/ctest" <<'SH'
#!/bin/bash
echo "argv: $* | WB_SM_LIMIT=${WB_SM_LIMIT:-unset}" >>"$FAKE_CTEST_LOG"
echo "Test project $PWD"
echo "1/3 Test #12: fake.solution ....................   Passed    1.20 sec"
if [ "${FAKE_CTEST:-pass}" = mixed ]; then
  echo "2/3 Test #13: fake.planted-slow-fails .........***Failed    2.00 sec"
  echo "3/3 Test #14: fake.solution-2ranks ............***Skipped   0.01 sec"
  echo "33% tests passed, 1 tests failed out of 3"
  exit 8
fi
echo "2/3 Test #13: fake.planted-slow-fails .........   Passed    2.00 sec"
echo "3/3 Test #14: fake.solution-2ranks ............   Passed    3.00 sec"
echo "100% tests passed, 0 tests failed out of 3"
SH
# The program: --out FILE (rank 0's argv as its "# command:" line), --second FILE (a file that
# {bench-dir} places); fails under mpiexec where FAKE_MPI_FAILS=1. Under Open MPI, only rank 0
# writes, as lesson 08's program does. With FAKE_IMPOSSIBLE=1 its CSV is a run of an H200 with a
# row of 40 TFLOP/s of FP64 at 1000 MHz, where the H200 gives 16.9 at most.
cat >"$build/bin/fake-solution" <<'SH'
#!/bin/bash
out="" second=""
args=("$@")
for ((i = 0; i < $#; i++)); do
  case "${args[i]}" in --out) out=${args[i + 1]} ;; --second) second=${args[i + 1]} ;; esac
done
[ "${FAKE_UNDER_MPI:-0}" = 1 ] && [ "${FAKE_MPI_FAILS:-0}" = 1 ] && { echo "rank 1: NCCL error"; exit 1; }
echo "rank ${OMPI_COMM_WORLD_RANK:-0} of ${OMPI_COMM_WORLD_SIZE:-1}"
[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || exit 0
if [ "${FAKE_IMPOSSIBLE:-0}" = 1 ]; then
  printf '# cuda-workbook benchmark\n# device: NVIDIA H200\n# command: %s %s\n# gpu: NVIDIA H200\n%s\n%s\n' "$0" "$*" \
    "lesson,kernel,precision,median_ms,rate,rate_unit,device,flops,arithmetic,sm_clock_max_mhz" \
    "fake,a,double,1,40000,GFLOP/s,NVIDIA H200,4e10,fp64,1000" >"$out"
else
  printf '# cuda-workbook benchmark\n# command: %s %s\nlesson,kernel\nfake,a\nfake,b\n' "$0" "$*" >"$out"
fi
[ -z "$second" ] || echo "timeline" >"$second"
exit 0
SH
chmod +x "$tools"/* "$build"/bin/*

jobs() {  # jobs [mpiexec row]: gpu-jobs.txt as CMake writes it (workbook_write_gpu_jobs)
  {
    echo "# Generated by CMake: jobs for scripts/gpu-check.sh"
    echo "bench fake-run fake-solution --bench"
    echo "reference fake-run fake-solution --bench"
    echo "reference fake-timeline fake-solution --bench --second {bench-dir}/fake-timeline-second.txt"
    echo "reference-ranks fake-run fake-solution 2 --bench --full --second {bench-dir}/fake-run-second.txt"
    [ -z "${1:-}" ] || echo "$1"
  } >"$build/gpu-jobs.txt"
}
launcher="mpiexec $tools/mpiexec -n {ranks} --fake-preflag"

check() {  # check WHAT GPUS EXPECTED_EXIT REGEX [VAR=value...]: runs the check's step bench (or GPU_CHECK_STEPS)
  local what=$1 gpus=$2 expected=$3 regex=$4
  shift 4
  rm -rf "$work/out" && : >"$work/mpiexec.log"
  # The check's own settings come from each case alone, never from the environment this test runs
  # in (the GPU check runs this test with GPU_CHECK_TARGETS and the like set).
  local inherited=() name
  for name in $(compgen -e | grep '^GPU_CHECK_'); do inherited+=(-u "$name"); done
  env "${inherited[@]}" PATH="$tools:$PATH" FAKE_GPUS="$gpus" FAKE_MPIEXEC_LOG="$work/mpiexec.log" GPU_CHECK_STEPS=bench \
    GPU_CHECK_BUILD="$build" "$@" bash "${script:-$src/scripts/gpu-check.sh}" "$work/out" "$regex" >"$work/check.log" 2>&1
  rc=$?
  if [ "$rc" -ne "$expected" ]; then
    echo "FAIL: $what: exit $rc, expected $expected. Output:"
    sed 's/^/    /' "$work/check.log"
    failures=$((failures + 1))
    return 1
  fi
  echo "ok: $what (exit $rc)"
}
expect() {  # expect WHAT COMMAND...: a condition on the last check's outputs
  local what=$1
  shift
  if "$@"; then return 0; fi
  echo "FAIL: $what. Summary:"
  sed 's/^/    /' "$work/out/summary.txt" 2>/dev/null
  echo "    mpiexec log:" && sed 's/^/    /' "$work/mpiexec.log"
  failures=$((failures + 1))
}
has() { grep -qF -- "$1" "$2"; }

jobs "$launcher"
for gpus in 0 1; do
  if check "two ranks on $gpus GPU(s): skipped, not failed" "$gpus" 0 .; then
    expect "the skip and its reason in the summary" \
      has "bench x2/fake-run: skipped (2 ranks need 2 GPUs, one a rank; this machine has $gpus)" "$work/out/summary.txt"
    expect "the one-process run still runs" has "bench fake-run: exit 0, 2 rows" "$work/out/summary.txt"
    expect "the last line counts the skip" has "gpu-check: no failures, 1 skipped" "$work/check.log"
    expect "a skip is no pass" bash -c "! grep -q 'everything passed' '$work/check.log'"
    expect "no mpiexec started" bash -c "[ ! -s '$work/mpiexec.log' ]"
    expect "no file written" bash -c "[ ! -e '$work/out/bench/x2/fake-run.csv' ]"
  fi
done

for gpus in 2 4; do
  if check "two ranks on $gpus GPUs: run" "$gpus" 0 .; then
    expect "the run in the summary" has "bench x2/fake-run: exit 0, 2 rows on 2 ranks" "$work/out/summary.txt"
    expect "its {bench-dir} file beside its CSV" has "bench x2/fake-run: wrote fake-run-second.txt" "$work/out/summary.txt"
    expect "a one-process run's {bench-dir} file beside its CSV" \
      has "bench fake-timeline: wrote fake-timeline-second.txt" "$work/out/summary.txt"
    expect "that file's path given to the program" \
      has "# command: bin/fake-solution --bench --second $work/out/bench/fake-timeline-second.txt --out $work/out/bench/fake-timeline.csv" \
      "$work/out/bench/fake-timeline.csv"
    expect "started with the build's launcher and flags, allowed to run as root" \
      has "argv: -n 2 --fake-preflag bin/fake-solution --bench --full --second $work/out/bench/x2/fake-run-second.txt --out $work/out/bench/x2/fake-run.csv | root: 1 1" "$work/mpiexec.log"
    # argv[0] as the launcher passes it on, relative or not (the registry compares the program's name).
    expect "rank 0's command line in OUTDIR/bench/x2/NAME.csv" \
      has "/fake-solution --bench --full --second $work/out/bench/x2/fake-run-second.txt --out $work/out/bench/x2/fake-run.csv" \
      "$work/out/bench/x2/fake-run.csv"
    expect "the one-process run of the same name kept apart" \
      has "# command: bin/fake-solution --bench --out $work/out/bench/fake-run.csv" "$work/out/bench/fake-run.csv"
    expect "everything passed" has "gpu-check: everything passed" "$work/check.log"
  fi
done

if check "LESSON_REGEX picks the run of two ranks by x2/NAME" 2 0 '^x2/fake-run$'; then
  expect "the two-rank run ran" has "bench x2/fake-run: exit 0" "$work/out/summary.txt"
  expect "the one-process run did not" bash -c "! grep -q '^bench fake-run:' '$work/out/summary.txt'"
fi
check "LESSON_REGEX picks both by NAME" 2 0 '^fake-run$' &&
  expect "both ran" bash -c "grep -q '^bench fake-run: exit 0' '$work/out/summary.txt' && grep -q '^bench x2/fake-run: exit 0' '$work/out/summary.txt'"
check "a failing run of two ranks fails the check" 2 1 . FAKE_MPI_FAILS=1 &&
  expect "its failure in the summary" has "bench x2/fake-run: FAILED" "$work/out/summary.txt"
check "a run no H200 can have made fails the check" 1 1 '^fake-run$' FAKE_IMPOSSIBLE=1 &&
  expect "the verdict in the summary" has "bench: FAILED, runs no " "$work/out/summary.txt" &&
  expect "the row and its bound in the log" has "40000 GFLOP/s is more than fp64 can give at 1000 MHz" \
    "$work/out/bench/verify-roofs.log"
# A command run right after a one-process run on its CSV ("then NAME COMMAND", {csv}: lesson 16's
# PyTorch rows): its rows count with the run's, its output goes to the run's log, its failure fails it.
cat >"$tools/fake-then" <<'SH'
#!/bin/bash
echo "fake then on $1"
[ "${FAKE_THEN_FAILS:-0}" = 1 ] && { echo "fake then: no rows"; exit 1; }
echo "fake,c" >>"$1"
SH
chmod +x "$tools/fake-then"
jobs "then fake-timeline $tools/fake-then {csv}
$launcher"
if check "a command after a run adds to its CSV" 1 0 '^fake-timeline$'; then
  expect "its row counted with the run's" has "bench fake-timeline: exit 0, 3 rows" "$work/out/summary.txt"
  expect "its output in the run's log" has "fake then on $work/out/bench/fake-timeline.csv" "$work/out/bench/fake-timeline.log"
fi
check "a failing command after a run fails the check" 1 1 '^fake-timeline$' FAKE_THEN_FAILS=1 &&
  expect "the run's failure in the summary" has "bench fake-timeline: FAILED" "$work/out/summary.txt"
check "a command after another run leaves this one alone" 1 0 '^fake-run$' &&
  expect "the run's own rows only" has "bench fake-run: exit 0, 2 rows" "$work/out/summary.txt"
jobs ""
check "no launcher row fails the check on two GPUs" 2 1 . &&
  expect "the reason in the summary" has "bench x2/fake-run: FAILED (gpu-jobs.txt has no mpiexec row" "$work/out/summary.txt"
check "no launcher row on one GPU: skipped all the same" 1 0 .

real=$(grep -m 1 '^mpiexec ' "${real_jobs:-/dev/null}" 2>/dev/null)
left_out=""
if [ -n "$real_jobs" ] && [ -f "$(dirname "$real_jobs")/workbook-left-out.tsv" ]; then
  left_out=$(awk -F'\t' '$1 == "08-sciddicat-multigpu" { print $2 }' "$(dirname "$real_jobs")/workbook-left-out.tsv")
fi
if [ -z "$real" ]; then
  echo "note: no build's mpiexec row given (or MPI not found there): the real launcher is not tried"
else
  jobs "$real"
  if check "two ranks under the build's launcher (${real#mpiexec })" 2 0 '^x2/'; then
    expect "both ranks started" bash -c "grep -q 'rank 0 of 2' '$work/out/bench/x2/fake-run.log' && grep -q 'rank 1 of 2' '$work/out/bench/x2/fake-run.log'"
    expect "rank 0's CSV" has "bin/fake-solution --bench --full --second $work/out/bench/x2/fake-run-second.txt --out $work/out/bench/x2/fake-run.csv" \
      "$work/out/bench/x2/fake-run.csv"
  fi
fi

# The measuring steps, on a copy of the script whose measuring scripts exit $FAKE_MEASURE_RC.
copy="$work/copy"
mkdir -p "$copy/scripts/maintainer"
cp "$src/scripts/gpu-check.sh" "$copy/scripts/"
for step in counters profiles; do
  printf '#!/bin/bash\necho "%s fake: measuring"\nexit "${FAKE_MEASURE_RC:-0}"\n' "$step" \
    >"$copy/scripts/maintainer/measure-$step.sh"
done
jobs ""
for step in counters profiles; do
  if script="$copy/scripts/gpu-check.sh" check "step $step that cannot read the counters: skipped" 1 0 . \
       GPU_CHECK_STEPS="$step" FAKE_MEASURE_RC=77; then
    expect "the skip of step $step in the summary" has "$step: skipped (" "$work/out/summary.txt"
    expect "the last line counts the skipped step" has "gpu-check: no failures, 1 skipped" "$work/check.log"
    expect "a skipped step is no pass" bash -c "! grep -q 'everything passed' '$work/check.log'"
  fi
  script="$copy/scripts/gpu-check.sh" check "step $step that measures: passed" 1 0 . \
    GPU_CHECK_STEPS="$step" FAKE_MEASURE_RC=0 &&
    expect "everything passed" has "gpu-check: everything passed" "$work/check.log"
  script="$copy/scripts/gpu-check.sh" check "step $step that fails: failed" 1 1 . \
    GPU_CHECK_STEPS="$step" FAKE_MEASURE_RC=1 &&
    expect "its failure in the summary" has "$step: FAILED (exit 1)" "$work/out/summary.txt"
done

# The step small-gpu: the GPU checks again on a few SMs (fake ctest and device-info).
export FAKE_CTEST_LOG="$work/ctest.log"
: >"$FAKE_CTEST_LOG"
check "step bench alone: small-gpu not run" 1 0 . &&
  expect "no ctest started" bash -c "[ ! -s '$FAKE_CTEST_LOG' ]"
if check "step small-gpu on 24 SMs: passed" 1 0 . GPU_CHECK_STEPS=small-gpu GPU_CHECK_SM_LIMIT=24; then
  expect "the SMs granted in the summary" has "small-gpu: WB_SM_LIMIT=24: running on 24 of 132 SMs (green context)" \
    "$work/out/summary.txt"
  expect "ctest ran the GPU checks under the limit" \
    grep -qE -- "-L \\^gpu\\$ -LE \\^exercise\\$ -R \\. -E .*bench-.*badinput.* \\| WB_SM_LIMIT=24$" "$FAKE_CTEST_LOG"
  expect "each test's verdict" has "small-gpu fake.solution-2ranks: passed" "$work/out/summary.txt"
  expect "everything passed" has "gpu-check: everything passed" "$work/check.log"
fi
check "step small-gpu, 16 SMs by default" 1 0 . GPU_CHECK_STEPS=small-gpu &&
  expect "16 SMs asked for" has "small-gpu: WB_SM_LIMIT=16: running on 16 of 132 SMs" "$work/out/summary.txt"
if check "step small-gpu with a failed and a skipped check: failed" 1 1 . GPU_CHECK_STEPS=small-gpu FAKE_CTEST=mixed; then
  expect "the failure named" has "small-gpu fake.planted-slow-fails: FAILED (Failed)" "$work/out/summary.txt"
  expect "the skip named" has "small-gpu fake.solution-2ranks: skipped" "$work/out/summary.txt"
  expect "a skip is no pass" bash -c "! grep -q 'fake.solution-2ranks: passed' '$work/out/summary.txt'"
  expect "the last line counts the failure" has "gpu-check: 1 failure(s)" "$work/check.log"
fi
: >"$FAKE_CTEST_LOG"
if check "step small-gpu where the limit does not take: failed" 1 1 . GPU_CHECK_STEPS=small-gpu FAKE_NO_GREEN=1; then
  expect "the reason in the summary" has "small-gpu: FAILED (WB_SM_LIMIT=16 did not take" "$work/out/summary.txt"
  expect "no check run without the limit" bash -c "[ ! -s '$FAKE_CTEST_LOG' ]"
fi

[ "$failures" -eq 0 ] || { echo "FAILED: $failures case(s)"; exit 1; }
if [ -n "$left_out" ]; then
  echo "SKIP: the build left lesson 08 out ($left_out): the runs of several ranks under its launcher were not tried"
  exit 77
fi
echo "PASSED: gpu-check's runs of several ranks, its measuring steps and its step small-gpu"
