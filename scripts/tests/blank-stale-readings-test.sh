#!/usr/bin/env bash
# blank-stale-readings.py empties the clock and power of a row that one stale NVML reading
# describes (all its readings one clock and one power, its rate above what that clock allows),
# says so in a '# blanked:' line, keeps every other row as written, and changes nothing when run
# again; the file then passes verify-roofs.py --runs, which it failed before.
set -uo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
run="$work/07-toward-cublas-power.csv"
# A committed H200 run whose cublas row gets readings of one clock (1380 MHz) and one power.
awk -F, -v OFS=, '/^[^#]/ && $2 == "cublas" && $30 == "random" { $31 = 1380; $32 = 1380; $33 = 1380;
  $34 = 505.5; $35 = 505.5; $36 = 505.5; $38 = "sw-power-cap"; $39 = 102 } { print }' \
  "$src/data/h200/07-toward-cublas-power.csv" | grep -v '^# blanked:' >"$run"
grep -q ',random,1380,1380,1380,505.5' "$run" || { echo "FAIL: could not fabricate the stale row"; exit 1; }
if python3 "$src/scripts/maintainer/verify-roofs.py" --runs "$src/data" "$run" >"$work/before.log" 2>&1; then
  echo "FAIL: verify-roofs.py passed the fabricated row"; exit 1
fi
cp "$run" "$work/fabricated.csv"
python3 "$src/scripts/maintainer/blank-stale-readings.py" "$src/data" "$run" >"$work/blank.log" 2>&1 ||
  { cat "$work/blank.log"; echo "FAIL: blank-stale-readings.py exited $?"; exit 1; }
grep -q 'blanked cublas 8192x8192x8192 (random)' "$work/blank.log" || { cat "$work/blank.log"; echo "FAIL: no row reported blanked"; exit 1; }
grep -q '^# blanked: the cublas row' "$run" || { echo "FAIL: no '# blanked:' line"; exit 1; }
grep -q ',fp64-tensor,random,,,,,,,700,,$' "$run" || { grep cublas "$run"; echo "FAIL: the row's clock and power are not emptied (power_limit_w kept)"; exit 1; }
changed=$(diff <(grep -v '^# blanked:' "$run") "$work/fabricated.csv" | grep -c '^>')
[ "$changed" -eq 1 ] || { echo "FAIL: $changed rows changed, not 1"; exit 1; }
cp "$run" "$work/once.csv"
python3 "$src/scripts/maintainer/blank-stale-readings.py" "$src/data" "$run" >/dev/null 2>&1 && cmp -s "$run" "$work/once.csv" ||
  { echo "FAIL: a second run changed the file"; exit 1; }
python3 "$src/scripts/maintainer/verify-roofs.py" --runs "$src/data" "$run" >"$work/after.log" 2>&1 ||
  { cat "$work/after.log"; echo "FAIL: verify-roofs.py fails the blanked run"; exit 1; }
echo "PASSED: the stale row was blanked and said so, the others kept, and the run is possible"
