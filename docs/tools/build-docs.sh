#!/usr/bin/env bash
# build-docs.sh DOXYGEN DOCS_OUT SOURCE_DIR CHART_DIR: runs Doxygen when a page (as rendered
# into DOCS_OUT/pages, figures filled in), a documented header or a chart is newer than the last
# build.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
doxygen=$1 out=$2 src=$3 charts=$4
stamp="$out/html/index.html"
if [ -s "$stamp" ]; then
  newer=$(find "$out/pages" "$src/common/include" "$src/common/sciddicat/include" "$charts" "$out/Doxyfile" -newer "$stamp" -type f 2>/dev/null | head -n 1)
  [ -z "$newer" ] && exit 0
fi
cd "$out" && "$doxygen" Doxyfile || exit 1
if [ -s "$out/warnings.log" ]; then
  echo "Doxygen warnings (see $out/warnings.log):"
  head -n 20 "$out/warnings.log"
fi
echo "docs: $stamp"
