#!/usr/bin/env bash
# scripts/setup.sh: installs the Debian packages the course uses beyond CMake, a C++ compiler
# and the CUDA toolkit: Ninja (parallel builds), gnuplot (charts), Doxygen and Graphviz (docs), GoogleTest (unit tests of the
# harness), an MPI (lesson 08), clang-format (scripts/maintainer/format and its test) and Chromium (the
# docs' browser test). Safe to run again: it installs only what is missing. Needs root (or
# sudo) when something is missing.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -euo pipefail

packages=(cmake g++ make ninja-build python3 gnuplot-nox doxygen graphviz libgtest-dev libopenmpi-dev openmpi-bin clang-format)
# The docs' browser test: Chromium, and Node.js to drive it. WORKBOOK_SETUP_BROWSER=0 leaves
# them out (the test then reports "skipped").
if [ "${WORKBOOK_SETUP_BROWSER:-1}" = 1 ]; then
  packages+=(chromium)
  # A Node.js from elsewhere (e.g. NodeSource, which bundles npm) is fine: Debian's only when absent.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

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

# The browser test's one npm package (playwright-core, pinned by docs/tools/browser/package-lock.json).
browser_dir="$(cd "$(dirname "$0")/.." && pwd)/docs/tools/browser"
if [ "${WORKBOOK_SETUP_BROWSER:-1}" = 1 ] && command -v npm >/dev/null 2>&1 &&
   [ ! -f "$browser_dir/node_modules/playwright-core/package.json" ]; then
  echo "setup: npm ci in $browser_dir"
  (cd "$browser_dir" && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "setup: warning: npm ci failed; the docs' browser test will try again or skip" >&2
fi
