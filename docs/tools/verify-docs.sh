#!/usr/bin/env bash
# verify-docs.sh DOCS_OUT: the docs were built, every page exists, and Doxygen warned about nothing.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
out=$1
[ -s "$out/html/index.html" ] || { echo "FAIL: $out/html/index.html missing (build the 'docs' target)"; exit 1; }
if [ -s "$out/warnings.log" ]; then echo "FAIL: Doxygen warnings:"; cat "$out/warnings.log"; exit 1; fi
# Every image a page refers to must have been copied next to it.
status=0
for img in $(grep -oh 'src="[^"]*\.\(png\|svg\)"' "$out"/html/*.html | sed 's/src="//;s/"$//' | sort -u); do
  case "$img" in http*) continue ;; esac
  [ -s "$out/html/$img" ] || { echo "FAIL: image $img is referenced but missing"; status=1; }
done
[ $status -eq 0 ] && echo "OK: docs built without warnings"
exit $status
