#!/usr/bin/env bash
# expect-check-failure-self-test.sh SOURCE_DIR WORK_DIR PYTHON: the tests that expect a check to
# fail accept only that failure. scripts/lib/expect-check-failure.sh must accept exit 1 with a
# FAILED verdict (and a matching --cause), pass exit 77 on as a skip, and reject a check that
# passes, exits 1 without its verdict, or fails for another cause. scripts/lib/check-with-races.py
# must report a compute-sanitizer that breaks as its own exit code (4), which the first script
# rejects, and a race as "FAILED: race on shared memory ...", which it accepts (both with a fake
# compute-sanitizer first in PATH).
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

fake silent-1 1 ''
fake crash-like 1 'note: the last run FAILED to start\nSegmentation fault\n'
fake verdict 1 'case 3: wrong\nFAILED: 1 of 4 cases wrong. See the hints on the lesson 02 page.\n'
fake driver-verdict 1 '  FAILED: your kernel is right but only 1.2x faster than the strided one.\n'
fake bare-verdict 1 'FAILED\n'
fake passes 0 'PASSED: every case.\n'
fake skips 77 'SKIP: no usable CUDA GPU\n'
fake cuda-error 3 'error: CUDA error: an illegal memory access was encountered\n'

case_ "exit 1 with no output is not the expected failure" 1 bash "$expect" "$work/silent-1"
case_ "exit 1 with FAILED only inside a line is rejected" 1 bash "$expect" "$work/crash-like"
case_ "exit 1 with the tally's FAILED verdict is accepted" 0 bash "$expect" "$work/verdict"
case_ "a driver's indented FAILED verdict is accepted" 0 bash "$expect" "$work/driver-verdict"
case_ "a bare FAILED line is accepted" 0 bash "$expect" "$work/bare-verdict"
case_ "the expected cause is accepted" 0 bash "$expect" --cause "1 of 4 cases wrong" "$work/verdict"
case_ "another cause is rejected" 1 bash "$expect" --cause "race on shared memory" "$work/verdict"
case_ "exit 77 is a skip" 77 bash "$expect" "$work/skips"
case_ "a check that passes is rejected" 1 bash "$expect" "$work/passes"
case_ "a CUDA error is rejected" 1 bash "$expect" "$work/cuda-error"

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

if [ $failures -ne 0 ]; then
  echo "FAILED: $failures case(s) of the expected-failure scripts are wrong"
  exit 1
fi
echo "PASSED: the expected-failure scripts accept only the failure they expect"
