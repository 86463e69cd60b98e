#!/usr/bin/env bash
# gpu-arch-compile.sh SOURCE_DIR NVCC BUILD_DIR [INCLUDE_DIR...]: every lesson builds for each
# compute capability its manifest claims, proven by the fatbinary. For each lesson of the build's
# workbook-lessons.tsv, its MIN_CC (workbook_lesson_manifest) and every compute capability of
# data/gpus.csv from MIN_CC on (75 80 86 89 90 100 120; WORKBOOK_ARCHS="75 90" for fewer) are claimed; a lesson whose code is
# ARCH_SPECIFIC builds MIN_CC as sm_90a-style code (lesson 13: wgmma, TMA). Each CUDA file with
# device code under lessons/NN-name/ and solutions/NN-name/ (what a student builds and what the
# reference solution builds) compiles once for all its claimed architectures, and its fatbinary
# must hold a cubin for each, plus the PTX of the highest (which later GPUs compile when they load
# it), as scripts/lib/fatbin.py reads it (cuobjdump --list-elf/--list-ptx says the same, where the
# toolkit has it); first, that reader must see exactly what a probe compiled for one architecture holds.
# The files that a manifest's OLDER_GPUS names (workbook-older-gpu-files.tsv: lesson 07's FP64
# tensor cores and cp.async, lesson 10's warp OR reduction and programmatic dependent launch,
# lesson 13's bf16 mma.sync and its sm_90a-only kernels, which compile to traps there, lesson 16's
# bf16 mma.sync: the drivers leave them out where they cannot run) are claimed from 7.5 whatever
# the lesson's MIN_CC, and so are common/'s CUDA files. INCLUDE_DIR: more folders for the include
# path (lesson 08's MPI and NCCL headers). A lesson left out at configure time (workbook-left-out.tsv:
# lesson 08 without MPI or NCCL) is not compiled: the rest is checked, then the script exits 77.
# WORKBOOK_ARCH_SET=all compiles every claimed architecture (the full matrix: about seven
# compilations per file); by default (representative) each file compiles for the least it claims,
# its lesson's MIN_CC and the newest (12.0), the architectures docs/which-gpu.md shows in bold.
# WORKBOOK_ARCH_JOBS (default 2) files compile at once.
set -euo pipefail
usage="usage: gpu-arch-compile.sh SOURCE_DIR NVCC BUILD_DIR [INCLUDE_DIR...]"
src=${1:?$usage}
nvcc=${2:?$usage}
build=${3:?$usage}
shift 3
fatbin="$src/scripts/lib/fatbin.py"
lessons_tsv="$build/workbook-lessons.tsv"
[ -s "$lessons_tsv" ] || { echo "FAIL: $lessons_tsv lists no lesson (configure writes it from the manifests)"; exit 1; }
# The architectures: the compute capabilities of data/gpus.csv's GPUs, unless WORKBOOK_ARCHS names some.
gpu_archs=$(awk -F, '!/^#/ && NR > 1 && $2 ~ /^[0-9]+[.][0-9]$/ { sub(/[.]/, "", $2); print $2 }' "$src/data/gpus.csv" |
            sort -n -u | tr '\n' ' ')
read -r -a archs <<<"${WORKBOOK_ARCHS:-$gpu_archs}"
course_floor=${gpu_archs%% *}  # the course's floor: the least compute capability of data/gpus.csv
jobs=${WORKBOOK_ARCH_JOBS:-2}
set=${WORKBOOK_ARCH_SET:-representative}
[ "$set" = all ] || [ "$set" = representative ] ||
  { echo "error: WORKBOOK_ARCH_SET='$set': all or representative"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
older=()
[ -f "$build/workbook-older-gpu-files.tsv" ] && mapfile -t older < <(cut -f1 "$build/workbook-older-gpu-files.tsv")
left_out=()
[ -f "$build/workbook-left-out.tsv" ] && mapfile -t left_out < <(cut -f1 "$build/workbook-left-out.tsv")

# The CUDA files of FOLDER with device code (the rule of workbook_host_only_sources).
device_files() {
  [ -d "$src/$1" ] || return 0
  (cd "$src" && find "$1" -name '*.cu' -print0 | xargs -0 -r grep -lE '__global__|__device__|__shared__|<<<|[.]cuh"|thrust/|cub/' | sort)
}
# The architectures claimed from FLOOR (75: compute capability 7.5) on, one a line; SPECIFIC: the
# architecture built as its "a" code (90 -> 90a), or empty.
claimed_from() {
  local floor=$1 specific=$2 arch
  for arch in "${archs[@]}"; do
    if [ "$arch" -ge "$floor" ]; then
      if [ "$arch" = "$specific" ]; then echo "${arch}a"; else echo "$arch"; fi
    fi
  done
}
# The architectures compiled (space-separated) of those claimed from FLOOR on, for a lesson of
# MIN_CC LEAST (80): all of them with WORKBOOK_ARCH_SET=all, else the least, LEAST's and the
# newest. SPECIFIC as above.
chosen() {
  local -a claimed
  mapfile -t claimed < <(claimed_from "$1" "$3")
  [ ${#claimed[@]} -gt 0 ] || return 0
  if [ "$set" = all ]; then
    echo "${claimed[*]}"
  else
    printf '%s\n' "${claimed[0]}" "$(printf '%s\n' "${claimed[@]}" | grep -E "^$2a?\$")" "${claimed[-1]}" |
      awk 'NF && !seen[$0]++' | tr '\n' ' '
  fi
}
# One job per file: "file<TAB>lesson<TAB>archs" (archs separated by spaces).
: >"$work/jobs.tsv"
skipped=()
# (awk keeps empty fields, which read would merge: tabs are white space to it)
while read -r lesson min_cc specific; do
  [ "$min_cc" = - ] && min_cc=""
  [ "$specific" = - ] && specific=""
  files=$(device_files "lessons/$lesson"; device_files "solutions/$lesson")
  if printf '%s\n' "${left_out[@]}" | grep -qx "$lesson"; then
    skipped+=("$lesson")
    continue
  fi
  if [ -z "$min_cc" ]; then
    [ -z "$files" ] && continue  # a CPU lesson
    echo "FAIL: $lesson has device code ($(echo "$files" | head -n 1)) but its manifest declares no MIN_CC"
    exit 1
  fi
  [ -n "$files" ] || { echo "FAIL: $lesson declares MIN_CC $min_cc but has no CUDA file with device code"; exit 1; }
  for file in $files; do
    floor=${min_cc/./}
    printf '%s\n' "${older[@]}" | grep -qx "$file" && floor=$course_floor
    printf '%s\t%s\t%s\n' "$file" "$lesson" "$(chosen "$floor" "${min_cc/./}" "${specific:+${min_cc/./}}")" >>"$work/jobs.tsv"
  done
done < <(awk -F'\t' '!/^#/ && NF { print $1, ($6 == "" ? "-" : $6), ($7 == "" ? "-" : $7) }' "$lessons_tsv")
for file in $(device_files common); do
  printf '%s\t%s\t%s\n' "$file" "common" "$(chosen "$course_floor" "$course_floor" "")" >>"$work/jobs.tsv"
done
[ -n "${archs[*]}" ] && [ -s "$work/jobs.tsv" ] || { echo "FAIL: nothing to compile (WORKBOOK_ARCHS='${archs[*]}')"; exit 1; }

# The reader first: a probe built for the floor alone holds that cubin and nothing else.
printf '__global__ void probe(int* x) { *x = 1; }\n' >"$work/probe.cu"
"$nvcc" -gencode "arch=compute_$course_floor,code=sm_$course_floor" -c "$work/probe.cu" -o "$work/probe.o"
probe=$(python3 "$fatbin" "$work/probe.o" | tr '\n' ' ')
[ "$probe" = "sm_$course_floor cubin " ] ||
  { echo "FAIL: scripts/lib/fatbin.py reads '$probe' in a probe built for sm_$course_floor alone"; exit 1; }
echo "ok: scripts/lib/fatbin.py reads a probe built for sm_$course_floor alone as just that cubin"

# compile_one N: job N of jobs.tsv; writes N.txt (one line: ok or FAIL) and N.err.
compile_one() {
  local n=$1 file lesson list side other
  IFS=$'\t' read -r file lesson list < <(sed -n "${n}p" "$work/jobs.tsv")
  local -a claimed gencode=() includes=()
  read -r -a claimed <<<"$list"
  local last=${claimed[${#claimed[@]}-1]}
  for arch in "${claimed[@]}"; do
    if [ "$arch" = "$last" ]; then
      gencode+=(-gencode "arch=compute_$arch,code=[sm_$arch,compute_$arch]")
    else
      gencode+=(-gencode "arch=compute_$arch,code=sm_$arch")
    fi
  done
  if [ "$lesson" != common ]; then  # the file's own folders first, then the other side's
    side=${file%%/*}
    other=$([ "$side" = lessons ] && echo solutions || echo lessons)
    includes+=(-I "$src/$side/$lesson" -I "$src/$other/$lesson")
  fi
  for dir in $EXTRA_INCLUDES; do includes+=(-I "$dir"); done
  if ! "$nvcc" -std=c++17 "${gencode[@]}" -I "$src/common/include" -I "$src/common/sciddicat/include" \
       "${includes[@]}" -c "$src/$file" -o "$work/$n.o" 2>"$work/$n.err"; then
    echo "FAIL: $file does not compile for ${claimed[*]}:" >"$work/$n.txt"
    return 0
  fi
  local images missing=()
  images=$(python3 "$fatbin" "$work/$n.o" 2>>"$work/$n.err" || true)
  for arch in "${claimed[@]}"; do
    grep -qx "sm_$arch cubin" <<<"$images" || missing+=("sm_$arch cubin")
  done
  grep -qx "compute_$last ptx" <<<"$images" || missing+=("compute_$last PTX")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "FAIL: $file: its fatbinary lacks ${missing[*]}" >"$work/$n.txt"
  else
    echo "ok: $file: $(printf 'sm_%s ' "${claimed[@]}")+ compute_$last PTX" >"$work/$n.txt"
  fi
  rm -f "$work/$n.o"
}
export -f compile_one
export src nvcc fatbin work
export EXTRA_INCLUDES="$*"
count=$(wc -l <"$work/jobs.tsv")
seq 1 "$count" | xargs -P "$jobs" -I{} bash -c 'compile_one {}'
failed=0
for n in $(seq 1 "$count"); do
  cat "$work/$n.txt"
  if grep -q '^FAIL' "$work/$n.txt"; then
    failed=1
    head -n 10 "$work/$n.err"
  fi
done
# What each lesson was proven to build for: the architectures compiled for its files, together.
while IFS=$'\t' read -r _ lesson list; do for arch in $list; do echo "$lesson $arch"; done; done <"$work/jobs.tsv" |
  awk '!seen[$0]++ { if (!($1 in archs)) names[++n] = $1; archs[$1] = archs[$1] " sm_" $2 }
       END { for (i = 1; i <= n; i++) print "built: " names[i] ":" archs[names[i]] }'
[ $failed = 0 ] || { echo "FAILED: some file does not build for every architecture its lesson claims"; exit 1; }
if [ ${#skipped[@]} -gt 0 ]; then
  echo "SKIP: ${skipped[*]} left out at configure time (workbook-left-out.tsv): not compiled here"
  exit 77
fi
if [ "$set" = all ]; then
  echo "PASSED: $count files build for every architecture their lessons claim (${archs[*]})"
else
  echo "PASSED: $count files build for the representative architectures of their lessons' claims" \
       "(the least, the lesson's MIN_CC, the newest; WORKBOOK_ARCH_SET=all compiles every one of ${archs[*]})"
fi
