#!/usr/bin/env bash
# older-gpu-compile.sh SOURCE_DIR NVCC FILES_TSV: the files that use features of newer GPUs still
# compile for compute capability 7.5 (what a hosted notebook may offer). FILES_TSV is the build's
# workbook-older-gpu-files.tsv: one "path<TAB>lesson" per file that a lesson's manifest lists
# (OLDER_GPUS: lesson 07's FP64 tensor cores and cp.async, lesson 10's warp OR reduction and
# programmatic dependent launch, lesson 13's bf16 mma.sync and the sm_90a-only wgmma, TMA,
# setmaxnreg and clusters, which compile to traps there; the driver leaves them out). Each compiles
# with its lesson's solutions/ and lessons/ folders on the include path. Also the roofline probes
# of common/ (FP64 tensor cores).
set -euo pipefail
src=${1:?usage: older-gpu-compile.sh SOURCE_DIR NVCC FILES_TSV}
nvcc=${2:?}
list=${3:?usage: older-gpu-compile.sh SOURCE_DIR NVCC FILES_TSV}
[ -s "$list" ] || { echo "FAIL: $list lists no file (configure writes it from the manifests)"; exit 1; }
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
while IFS=$'\t' read -r file lesson; do
  compile "$file" "solutions/$lesson" "lessons/$lesson"
done <"$list"
compile common/src/roofs.cu
