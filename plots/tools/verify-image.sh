#!/usr/bin/env bash
# verify-image.sh FILE...: each file must be a non-trivial PNG (signature, size) or SVG.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
status=0
for f in "$@"; do
  if [ ! -s "$f" ]; then echo "FAIL: $f is missing or empty"; status=1; continue; fi
  size=$(stat -c %s "$f")
  case "$f" in
    *.png)
      sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
      if [ "$sig" != "89504e470d0a1a0a" ]; then echo "FAIL: $f is not a PNG"; status=1; continue; fi
      if [ "$size" -lt 4000 ]; then echo "FAIL: $f is only $size bytes (an empty chart?)"; status=1; continue; fi ;;
    *.svg)
      if ! grep -q '<svg' "$f"; then echo "FAIL: $f is not an SVG"; status=1; continue; fi
      # A chart with data has many path elements; an empty frame has few.
      if [ "$(grep -c '<path' "$f")" -lt 10 ]; then echo "FAIL: $f has almost no drawing"; status=1; continue; fi ;;
    *) echo "FAIL: $f: unknown image type"; status=1; continue ;;
  esac
  echo "OK: $f ($size bytes)"
done
exit $status
