#!/usr/bin/env bash
# expect-check-failure-self-test.sh SOURCE_DIR WORK_DIR PYTHON: the tests that expect a check to
# fail accept only that failure, and the tests that expect a line check the exit code too.
# scripts/lib/expect-check-failure.sh must accept exit 1 with a FAILED verdict and a line naming
# the expected cause, pass exit 77 on as a skip, and reject: a test that names no cause, a check
# that passes, exits 1 without its verdict, or fails for another cause; a cause found only in the
# tally's count ("FAILED: 1 of 4 cases wrong") or, for a correctness failure, only in a verdict on
# speed (the saved outputs of lessons 01 and 12 too slow), and, for a failure on speed, only in a
# wrong element. scripts/lib/check-with-races.py must report a compute-sanitizer that breaks as its
# own exit code (4), which the first script rejects, a race as "FAILED: race on shared memory ...",
# which it accepts (both with a fake compute-sanitizer first in PATH), also after wrong numbers
# (the race named as their likely cause; a broken tool then adds nothing), and a check that passes
# where no compute-sanitizer is found as skipped (77), never passed. scripts/lib/expect-exit.sh
# must require both the exit code and the line.
set -u
src=$1 work=$2 python=$3
expect=$src/scripts/lib/expect-check-failure.sh
races=$src/scripts/lib/check-with-races.py
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
failures=0

# fake NAME EXIT_CODE TEXT: a check program that prints TEXT (printf format) and exits EXIT_CODE.
fake() {
  printf '#!/usr/bin/env bash\nprintf %q\nexit %s\n' "$3" "$2" >"$work/$1"
  chmod +x "$work/$1"
}
# case WHAT WANT COMMAND...: COMMAND must exit WANT.
case_() {
  local what=$1 want=$2
  shift 2
  "$@" >"$work/out.txt" 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then
    echo "ok: $what (exit $rc)"
  else
    echo "FAIL: $what: exit $rc, expected $want. Output:"; sed 's/^/    /' "$work/out.txt"
    failures=$((failures + 1))
  fi
}

outputs=$src/scripts/tests/check-outputs
# replay NAME EXIT_CODE SAVED: a check program that prints a saved check output and exits EXIT_CODE.
replay() {
  printf '#!/usr/bin/env bash\ncat %q\nexit %s\n' "$3" "$2" >"$work/$1"
  chmod +x "$work/$1"
}

fake silent-1 1 ''
fake crash-like 1 'note: the last run FAILED to start\nSegmentation fault\n'
fake verdict 1 'case 3: wrong\nFAILED: 1 of 4 cases wrong. See the hints on the lesson 02 page.\n'
fake wrong-element 1 '  n=7 kernel: C[3][4] = 0.5 (expected 1.25); 2 of 49 wrong\nFAILED: 1 of 4 cases wrong. See the hints on the lesson 02 page.\n'
fake driver-verdict 1 '  FAILED: your kernel is right but only 1.2x faster than the strided one (at least 2x expected).\n'
fake bare-verdict 1 '  out[0] = -nan (expected 1)\nFAILED\n'
fake passes 0 'PASSED: every case.\n'
fake skips 77 'SKIP: no usable CUDA GPU\n'
fake cuda-error 3 'error: CUDA error: an illegal memory access was encountered\n'
replay too-slow-01 1 "$outputs/01-cpu-matmul-too-slow.txt"
replay too-slow-12 1 "$outputs/12-profiling-too-slow.txt"
replay poisoned-01 1 "$outputs/01-cpu-matmul-wrong-element.txt"
# The causes that the lessons' declarations use (common/cmake/Workbook.cmake).
poison='\[[0-9]+\](\[[0-9]+\])* = -?nan \(expected'
wrong_element='\[[0-9]+\](\[[0-9]+\])* = [^ ]+ \(expected [^)]*\)'

case_ "a test that names no cause is refused" 2 bash "$expect" "$work/verdict"
case_ "an empty cause is refused" 2 bash "$expect" --cause "" "$work/verdict"
case_ "exit 1 with no output is not the expected failure" 1 bash "$expect" --cause "wrong" "$work/silent-1"
case_ "exit 1 with FAILED only inside a line is rejected" 1 bash "$expect" --cause "FAILED" "$work/crash-like"
case_ "a named wrong element is accepted" 0 bash "$expect" --cause "C$wrong_element" "$work/wrong-element"
case_ "the tally's count alone names no cause" 1 bash "$expect" --cause "1 of 4 cases wrong" "$work/verdict"
case_ "a bare FAILED line with the poison named is accepted" 0 bash "$expect" --cause "out$poison" "$work/bare-verdict"
case_ "the poison of lesson 01's untouched exercise is accepted" 0 bash "$expect" --cause "C$poison" "$work/poisoned-01"
case_ "another cause is rejected" 1 bash "$expect" --cause "race on shared memory" "$work/wrong-element"
case_ "a verdict on speed never proves a correctness failure (lesson 01)" 1 \
  bash "$expect" --cause "FAILED|wrong|i-k-j|too slow|faster" "$work/too-slow-01"
case_ "a verdict on speed never proves a correctness failure (lesson 12)" 1 \
  bash "$expect" --cause "FAILED|wrong|numbers|speed" "$work/too-slow-12"
case_ "a verdict on speed never proves a correctness failure (a driver's)" 1 \
  bash "$expect" --cause "FAILED|right|faster" "$work/driver-verdict"
case_ "an expected verdict on speed is accepted (lesson 01)" 0 \
  bash "$expect" --speed-cause "i-k-j is 0\\.[0-9]x faster|cpu-ikj is correct but too slow" "$work/too-slow-01"
case_ "an expected verdict on speed is accepted (lesson 12)" 0 \
  bash "$expect" --speed-cause "the numbers are right, but the step runs at [0-9]+% of a copy.s speed" "$work/too-slow-12"
case_ "an expected verdict on speed is accepted (a driver's)" 0 \
  bash "$expect" --speed-cause "right but only [0-9.]+x faster than the strided one" "$work/driver-verdict"
case_ "a wrong element never proves a failure on speed" 1 bash "$expect" --speed-cause "C$wrong_element|FAILED" "$work/wrong-element"
case_ "exit 77 is a skip" 77 bash "$expect" --cause "wrong" "$work/skips"
case_ "a check that passes is rejected" 1 bash "$expect" --cause "PASSED" "$work/passes"
case_ "a CUDA error is rejected" 1 bash "$expect" --cause "illegal memory access" "$work/cuda-error"

# expect-exit.sh: the line and the exit code, never one of them alone.
exits=$src/scripts/lib/expect-exit.sh
fake line-then-fails 1 'all 5000 runs correct\nerror: CUDA error: an illegal memory access was encountered\n'
fake line-and-passes 0 'all 5000 runs correct\nPASSED: every case.\n'
case_ "the expected line with the expected exit code is accepted" 0 bash "$exits" 0 "all 5000 runs correct" "$work/line-and-passes"
case_ "the expected line with another exit code is rejected" 1 bash "$exits" 0 "all 5000 runs correct" "$work/line-then-fails"
case_ "the expected exit code without the line is rejected" 1 bash "$exits" 0 "all 4999 runs correct" "$work/line-and-passes"
case_ "exit 77 is a skip unless expected" 77 bash "$exits" 0 "PASSED" "$work/skips"
case_ "a command past its limit fails" 1 bash "$exits" --timeout 1 0 "never" sleep 5

# A fake compute-sanitizer that cannot run, and one that reports a race (a saved report's lines).
cat >"$work/bin/compute-sanitizer" <<'SANITIZER'
#!/usr/bin/env bash
if [ "${FAKE_SANITIZER:-}" = wrong-then-race ] && [ "$2" = memcheck ]; then
  # Under memcheck the race turns into wrong numbers, without a memcheck finding.
  echo "FAILED: 2 of 8 cases wrong. See the hints on the lesson 03 page."
  echo "========= Target application returned an error"
  echo "========= ERROR SUMMARY: 0 errors"
  exit 1
fi
if [ "${FAKE_SANITIZER:-}" = race ] && [ "$2" != racecheck ]; then
  echo "========= ERROR SUMMARY: 0 errors"  # memcheck and synccheck find nothing
  exit 0
fi
if [ "${FAKE_SANITIZER:-}" = race ] || [ "${FAKE_SANITIZER:-}" = wrong-then-race ]; then
  echo "========= Error: Race reported between Write access at matmul_tiled(...)+0x290 in /src/matmul_tiled.cu:26"
  echo "=========     and Read access at matmul_tiled(...)+0x3a0 in /src/matmul_tiled.cu:31 [128 hazards]"
  exit 99
fi
echo "========= Error: Target application terminated before first instrumented API call"
exit 255
SANITIZER
chmod +x "$work/bin/compute-sanitizer"
races_cmd=("$python" "$races" "$work/passes" --check --races --check --sizes 8)
# No compute-sanitizer anywhere (PATH without it, no CUDA toolkit): right numbers are not a pass.
mkdir -p "$work/no-tool" && for tool in bash cat env; do ln -sf "$(command -v $tool)" "$work/no-tool/$tool"; done
real_python=$("$python" -c 'import sys; print(sys.executable)')  # not a shim that needs PATH
races_cmd=("$real_python" "${races_cmd[@]:1}")
CUDA_HOME=$work/no-cuda PATH="$work/no-tool" case_ "right numbers without compute-sanitizer: skipped, not passed" 77 \
  "${races_cmd[@]}"
if ! grep -q "^SKIP: .*races and barrier errors were NOT checked" "$work/out.txt"; then
  echo "FAIL: the skip without compute-sanitizer does not say what was not checked"; failures=$((failures + 1))
fi
CUDA_HOME=$work/no-cuda PATH="$work/no-tool" case_ "wrong numbers without compute-sanitizer: still failed" 1 \
  "$real_python" "$races" "$work/wrong-element" --check --races --check --sizes 8
PATH="$work/bin:$PATH" case_ "a broken compute-sanitizer is exit 4, not a finding" 4 "${races_cmd[@]}"
if ! grep -q "races were NOT checked" "$work/out.txt"; then
  echo "FAIL: a broken compute-sanitizer is not named as such"; failures=$((failures + 1))
fi
PATH="$work/bin:$PATH" case_ "a planted race is not confirmed by a broken compute-sanitizer" 1 \
  bash "$expect" --cause "race on shared memory" "${races_cmd[@]}"
FAKE_SANITIZER=race PATH="$work/bin:$PATH" case_ "a race is reported as FAILED (exit 1)" 1 "${races_cmd[@]}"
FAKE_SANITIZER=race PATH="$work/bin:$PATH" case_ "a race found is the expected failure" 0 \
  bash "$expect" --cause "FAILED: race on shared memory in matmul_tiled.cu" "${races_cmd[@]}"
FAKE_SANITIZER=wrong-then-race PATH="$work/bin:$PATH" case_ "wrong numbers under memcheck, then racecheck names the race" 0 \
  bash "$expect" --cause "FAILED: race on shared memory in matmul_tiled.cu" "${races_cmd[@]}"
# Wrong numbers from a race (on a GPU where the race shows): the tools still name it.
wrong_cmd=("$real_python" "$races" "$work/verdict" --check --races --check --sizes 8)
FAKE_SANITIZER=race PATH="$work/bin:$PATH" case_ "wrong numbers and a race found: the race is the expected failure" 0 \
  bash "$expect" --cause "FAILED: race on shared memory in matmul_tiled.cu" "${wrong_cmd[@]}"
if ! grep -q "FAILED: race on shared memory in matmul_tiled.cu.*the likely cause of the wrong numbers" "$work/out.txt"; then
  echo "FAIL: wrong numbers from a race do not name the race as their likely cause"; failures=$((failures + 1))
fi
PATH="$work/bin:$PATH" case_ "wrong numbers and a broken compute-sanitizer: still failed, the numbers' verdict" 1 \
  "${wrong_cmd[@]}"
if grep -q "races were NOT checked\|likely cause of the wrong numbers" "$work/out.txt"; then
  echo "FAIL: a broken compute-sanitizer after wrong numbers is reported as a cause"; failures=$((failures + 1))
fi

if [ $failures -ne 0 ]; then
  echo "FAILED: $failures case(s) of the expected-failure scripts are wrong"
  exit 1
fi
echo "PASSED: the expected-failure scripts accept only the failure they expect"
