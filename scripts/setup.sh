#!/usr/bin/env bash
# Installs the Debian packages the course uses beyond CMake, a C++ compiler and the CUDA
# toolkit: gnuplot (charts), Doxygen and Graphviz (docs), GoogleTest (unit tests of the
# harness), an MPI (lesson 08) and Chromium (the docs' browser test). Safe to run again:
# it installs only what is missing. Needs root (or sudo) when something is missing.
set -euo pipefail

packages=(cmake g++ make gnuplot-nox doxygen graphviz libgtest-dev libopenmpi-dev openmpi-bin)
if [ "${WORKBOOK_SETUP_BROWSER:-0}" = 1 ]; then packages+=(chromium); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present (${packages[*]})"
else
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: warning: no CUDA toolkit found (nvcc); install it from NVIDIA's packages first" >&2
fi
