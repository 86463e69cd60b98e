#!/usr/bin/env bash
# older-gpu-compile.sh SOURCE_DIR NVCC: the files that use features of newer GPUs still compile
# for compute capability 7.5 (what a hosted notebook may offer): lesson 07's kernels 08 (FP64
# tensor cores, cp.async; exercise and solution), 09 (the sm_90 DMMA shape) and 10 (cp.async),
# lesson 10's active tiles (warp OR reduction, programmatic dependent launch), the roofline
# probes (FP64 tensor cores) and lesson 13's kernels (bf16 mma.sync, and the sm_90a-only
# wgmma, TMA, setmaxnreg and clusters, which compile to traps there; the driver leaves them out).
set -euo pipefail
src=${1:?usage: older-gpu-compile.sh SOURCE_DIR NVCC}
nvcc=${2:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compile() {  # file include-dirs...
  local file=$1
  shift
  local includes=()
  for dir in "$@"; do includes+=(-I "$src/$dir"); done
  if ! "$nvcc" -std=c++17 -arch=sm_75 -I "$src/common/include" -I "$src/common/sciddicat/include" "${includes[@]}" \
       -c "$src/$file" -o "$work/out.o" 2>"$work/err.txt"; then
    echo "FAIL: $file does not compile for sm_75:"; head -n 10 "$work/err.txt"; exit 1
  fi
  echo "ok: $file compiles for sm_75"
}
compile lessons/07-toward-cublas/kernels/08_dmma.cu lessons/07-toward-cublas
compile solutions/07-toward-cublas/kernels/08_dmma.cu lessons/07-toward-cublas
compile solutions/07-toward-cublas/kernels/09_dmma_pipelined.cu lessons/07-toward-cublas
compile solutions/07-toward-cublas/kernels/10_ffma_pipelined.cu lessons/07-toward-cublas
compile lessons/10-sciddicat-active-tiles/active_tiles.cu solutions/10-sciddicat-active-tiles lessons/10-sciddicat-active-tiles
compile common/src/roofs.cu
for file in lessons/13-hopper-tensor-cores/kernels/01_mma_sync.cu lessons/13-hopper-tensor-cores/kernels/02_wgmma_tma.cu \
            lessons/13-hopper-tensor-cores/kernels/03_warp_specialized.cu \
            solutions/13-hopper-tensor-cores/kernels/03_warp_specialized.cu \
            solutions/13-hopper-tensor-cores/kernels/04_persistent.cu \
            solutions/13-hopper-tensor-cores/kernels/05_cluster_multicast.cu \
            solutions/13-hopper-tensor-cores/kernels/06_tma_epilogue.cu \
            lessons/13-hopper-tensor-cores/kernels/cluster_share.cu \
            solutions/13-hopper-tensor-cores/kernels/cluster_share.cu; do
  compile "$file" lessons/13-hopper-tensor-cores
done
