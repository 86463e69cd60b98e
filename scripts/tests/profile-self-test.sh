#!/usr/bin/env bash
# profile-self-test.sh SOURCE_DIR: scripts/profile never crashes where it cannot measure, and
# reads ncu's numbers right.
#   1. no GPU: it says so and exits 77;
#   2. counters refused (a fake ncu answering ERR_NVGPUCTRPERM): it says so, runs the program's
#      benchmark instead and passes its exit code on;
#   3. a program that fails under ncu (a slow exercise's check): its kernels, then its exit code
#      and last lines;
#   4. a fake ncu CSV: the table and its reading (scattered loads, bank conflicts, divergence).
set -u
src=${1:?usage: profile-self-test.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # description expected-exit grep-pattern command...
  local what=$1 code=$2 pattern=$3
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $what (exit $rc, expected $code; looked for '$pattern'):"; echo "$out" | tail -n 15
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
mkdir -p "$work/bin" "$work/fake"
cat >"$work/bin/program" <<'SCRIPT'
#!/usr/bin/env bash
echo "benchmark ran with: $*"
SCRIPT
chmod +x "$work/bin/program"
expect "no GPU: says so, exit 77" 77 "no usable NVIDIA GPU" \
  env WB_FORCE_NO_GPU=1 python3 "$src/scripts/profile" --build-dir "$work" program --bench
cat >"$work/fake/nvidia-smi" <<'SCRIPT'
#!/usr/bin/env bash
echo "GPU 0: Fake GPU"
SCRIPT
cat >"$work/fake/ncu" <<'SCRIPT'
#!/usr/bin/env bash
echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters"
exit 1
SCRIPT
chmod +x "$work/fake/nvidia-smi" "$work/fake/ncu"
expect "counters refused: falls back to the benchmark" 0 "benchmark ran with: --bench" \
  env PATH="$work/fake:$PATH" python3 "$src/scripts/profile" --build-dir "$work" program --bench
expect "counters refused: says why" 0 "cannot read the hardware counters here: ==ERROR== ERR_NVGPUCTRPERM" \
  env PATH="$work/fake:$PATH" python3 "$src/scripts/profile" --build-dir "$work" program --bench
# A program whose check fails under ncu (a slow exercise): its kernels are still shown, and the
# program's exit code and last lines with them.
mkdir -p "$work/failing"
cp "$work/fake/nvidia-smi" "$work/failing/"
cat >"$work/failing/ncu" <<'SCRIPT'
#!/usr/bin/env bash
echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
echo '"0","1","p","h","void smooth_kernel(const double *, double *, int, int)","1","7","(128, 1, 1)","(132, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","620,800"'
echo "==PROF== Disconnected from process 1"
echo "FAILED: 1 of 9 cases wrong."
exit 1
SCRIPT
chmod +x "$work/failing/ncu"
expect "a failing program: the table, then its exit code" 1 "the program itself exited with code 1" \
  env PATH="$work/failing:$PATH" python3 "$src/scripts/profile" --build-dir "$work" program --check
expect "a failing program: its kernel is still shown" 1 "smooth_kernel  block 128x1x1" \
  env PATH="$work/failing:$PATH" python3 "$src/scripts/profile" --build-dir "$work" program --check
expect "a failing program: its own last line" 1 "FAILED: 1 of 9 cases wrong" \
  env PATH="$work/failing:$PATH" python3 "$src/scripts/profile" --build-dir "$work" program --check
python3 - "$src" <<'PY' || failures=$((failures + 1))
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("profile", sys.argv[1] + "/scripts/profile")
spec = importlib.util.spec_from_loader("profile", loader)
profile = importlib.util.module_from_spec(spec)
loader.exec_module(profile)
rows = ['"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
        '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"']
values = {"gpu__time_duration.sum": "1,000,000", "dram__bytes_read.sum": "2,000,000,000",
          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "100", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "3,200",
          "smsp__inst_executed_op_shared_ld.sum": "10", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "320",
          "smsp__thread_inst_executed_per_inst_executed.ratio": "16", "sm__warps_active.avg.pct_of_peak_sustained_active": "90",
          "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": "3.5"}
for metric, value in values.items():
    rows.append(f'"0","1","p","h","void transpose_kernel<float, 32>(const T1 *, T1 *, int, int)","1","7","(32, 8, 1)",'
                f'"(64, 64, 1)","0","9.0","Command line profiler metrics","{metric}","","{value}"')
kernels = profile.parse_ncu_csv("==PROF== noise\n" + "\n".join(rows))
key = ("transpose_kernel<float, 32>", "32x8x1")
s = profile.summary(kernels[key])
checks = [(abs(s["time_us"] - 1000) < 1e-9, "time in microseconds"), (abs(s["dram_gbs"] - 2000) < 1e-9, "GB/s"),
          (s["sectors_per_request"] == 32, "sectors per request"), (s["wavefronts_per_shared_ld"] == 32, "wavefronts"),
          (s["stalls"][0][1] == "barrier", "largest stall")]
text = profile.reading(s)
checks += [("scattered" in text, "reading: scattered loads"), ("bank conflicts" in text, "reading: bank conflicts"),
           ("divergence" in text, "reading: divergence")]
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "summary.csv")
profile.append_summary(path, "as-given", kernels, ["program", "--profile-run"])
profile.append_summary(path, "fixed", kernels, ["program", "--profile-run"])
lines = open(path).read().splitlines()
checks += [(len(lines) == 8 and lines[5].startswith("label,kernel,block,time_us"), "summary: comments, header, rows"),
           (lines[6].startswith('as-given,"transpose_kernel<float, 32>",32x8x1,1000,2000'), "summary: first row"),
           (lines[7].startswith("fixed,"), "summary: second row appended")]
checks += [(profile.ncu_csv.kernel_name("void (anonymous namespace)::smooth_kernel(const double *, double *)")
            == "smooth_kernel", "kernel name: ncu's (anonymous namespace) form"),
           (profile.ncu_csv.kernel_name("void wb::<unnamed>::stream_read_kernel(const double4 *)")
            == "wb::stream_read_kernel", "kernel name: ncu's <unnamed> form")]
bad = [what for ok, what in checks if not ok]
print("ok: ncu CSV read right" if not bad else "FAIL: " + ", ".join(bad) + f" ({s}, {text})")
sys.exit(1 if bad else 0)
PY
[ "$failures" -eq 0 ] || exit 1
