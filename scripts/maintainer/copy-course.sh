#!/usr/bin/env bash
# copy-course.sh SOURCE_DIR DEST_DIR
# Copies the course as a clean clone would hold it, with the working tree's edits: in a git
# checkout, the files git tracks or would track (what git ignores, such as build folders, local
# data and the browser test's node_modules, is left out); in a tree without git (a copy of
# one), everything but those same folders. DEST_DIR is emptied first.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
src=${1:?usage: copy-course.sh SOURCE_DIR DEST_DIR}
dest=${2:?usage: copy-course.sh SOURCE_DIR DEST_DIR}
rm -rf "$dest" && mkdir -p "$dest" || exit 1
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # A tracked file deleted in the working tree is listed but cannot be copied: skipped.
  (cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 cp --parents -t "$dest" 2>/dev/null || true)
else
  tar -C "$src" --exclude='./build' --exclude='./build-*' --exclude='./.git' --exclude='./.data' \
    --exclude='./.workbook' --exclude='node_modules' -cf - . | tar -C "$dest" -xf - || exit 1
fi
