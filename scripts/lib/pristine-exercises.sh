#!/usr/bin/env bash
# pristine-exercises.sh DEST_DIR [FILE...]
# Writes the pristine version of each exercise FILE (relative, e.g.
# lessons/01-cpu-matmul/matmul_cpu.cpp; default: every file of scripts/lib/pristine-exercises.sha256)
# to DEST_DIR/FILE, whatever the working tree holds: a student's edits stay where they are.
# A file is taken from the working tree when it still matches the manifest's SHA-256, otherwise
# from git: from the commit that last changed the manifest (which recorded those files), else
# from HEAD or an earlier commit of the file; every copy is checked against the manifest.
# Exit 0: all written; 77: one cannot be recovered here (no git history, such as an unpacked
# archive, or no commit holds it), with the reason; 2: FILE is not a pristine exercise file.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
dest=${1:?usage: pristine-exercises.sh DEST_DIR [FILE...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
manifest="$root/scripts/lib/pristine-exercises.sha256"
[ -f "$manifest" ] || { echo "error: $manifest not found" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(grep -v '^#' "$manifest" | awk '{print $2}')

# The course's own history only: a copy of the course inside another repository has none.
have_git=0
if git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
   [ "$(cd "$(git -C "$root" rev-parse --show-toplevel)" && pwd -P)" = "$(cd "$root" && pwd -P)" ]; then
  have_git=1
fi
commits=()
if [ $have_git = 1 ]; then
  recorded=$(git -C "$root" log -1 --format=%H -- scripts/lib/pristine-exercises.sha256 2>/dev/null)
  [ -n "$recorded" ] && commits+=("$recorded")
  commits+=(HEAD)
fi
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

status=0
for file in "${files[@]}"; do
  expected=$(awk -v f="$file" '$2 == f {print $1}' "$manifest")
  if [ -z "$expected" ]; then
    echo "error: $file is not in scripts/lib/pristine-exercises.sha256" >&2
    exit 2
  fi
  mkdir -p "$dest/$(dirname "$file")" || exit 2
  if [ -f "$root/$file" ] && [ "$(sha256sum <"$root/$file" | cut -d' ' -f1)" = "$expected" ]; then
    [ "$root/$file" -ef "$dest/$file" ] || cp "$root/$file" "$dest/$file" || exit 2
    continue
  fi
  if [ $have_git = 0 ]; then
    echo "cannot recover the pristine $file: it differs from scripts/lib/pristine-exercises.sha256 and there is no git history here"
    status=77
    continue
  fi
  found=0
  for commit in "${commits[@]}" $(git -C "$root" log --format=%H -n 50 -- "$file" 2>/dev/null); do
    git -C "$root" show "$commit:$file" >"$tmp" 2>/dev/null || continue
    if [ "$(sha256sum <"$tmp" | cut -d' ' -f1)" = "$expected" ]; then
      cp "$tmp" "$dest/$file" || exit 2
      found=1
      break
    fi
  done
  if [ $found = 0 ]; then
    echo "cannot recover the pristine $file: no commit of this clone holds the copy that scripts/lib/pristine-exercises.sha256 records"
    status=77
  fi
done
exit $status
