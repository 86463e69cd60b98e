#!/usr/bin/env bash
# bench-csv-self-test.sh SOURCE_DIR: proves that scripts/lib/validate-bench-csv.py can fail.
# Fake benchmarks (shell scripts that take --out FILE last) write a good CSV, a CSV and exit 1,
# a truncated CSV, no file, a header without rows, a row with a zero time, or lack a kernel; only
# the good one may pass, and only with its kernels named whole: a part of a name ("cpu" of
# "cpu-ikj") or a regular expression ("^cpu-ikj$") is no kernel of it.
set -u
src=${1:?usage: bench-csv-self-test.sh SOURCE_DIR}
checker="$src/scripts/lib/validate-bench-csv.py"
sample="$src/data/h100/01-cpu-matmul.csv"  # a real CSV of the common schema
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fake NAME EXIT_CODE FILTER: a program that writes `sample` through FILTER to its --out file.
fake() {
  cat >"$work/$1" <<SCRIPT
#!/usr/bin/env bash
out="\${@: -1}"
$3 <"$sample" >"\$out"
exit $2
SCRIPT
  chmod +x "$work/$1"
}
fake good 0 cat
fake exit-code-1 0 cat && sed -i 's/^exit 0$/exit 1/' "$work/exit-code-1"
fake truncated 0 "head -c 700"
fake header-only 0 "grep -m1 -B99 ^lesson,"
fake zero-time 0 "sed -E '0,/^01-cpu-matmul,([^,]*,){6}[^,]*/s//&X/; s/,[0-9.]+X,/,0,/'"
cat >"$work/no-file" <<'SCRIPT'
#!/usr/bin/env bash
echo "pretends to benchmark, writes nothing"
SCRIPT
chmod +x "$work/no-file"

failures=0
expect() {  # expect pass|fail NAME KERNELS
  python3 "$checker" --kernels "$3" "$work/$2" >"$work/$2.log" 2>&1
  local rc=$?
  if { [ "$1" = pass ] && [ $rc -eq 0 ]; } || { [ "$1" = fail ] && [ $rc -eq 1 ]; }; then
    echo "ok: $2 ($1): $(grep -E '^(OK|FAIL)' "$work/$2.log")"
  else
    echo "WRONG: $2 should $1, the checker exited $rc"; cat "$work/$2.log"; failures=$((failures + 1))
  fi
}
expect pass good cpu-ikj
expect fail exit-code-1 cpu-ikj
expect fail truncated cpu-ikj
expect fail header-only cpu-ikj
expect fail zero-time cpu-ikj
expect fail no-file cpu-ikj
expect fail good no-such-kernel
expect pass good cpu-ijk,cpu-ikj
expect fail good cpu
expect fail good ikj
expect fail good cpu-ikj,cpu
expect fail good '^cpu-ikj$'
[ $failures -eq 0 ] && echo "PASSED: the benchmark CSV check fails on each planted defect" || exit 1
