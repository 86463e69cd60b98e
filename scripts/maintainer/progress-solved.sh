#!/usr/bin/env bash
# progress-solved.sh WORK_DIR [ONLY_REGEX [PROGRESS_OPTIONS...]]
# Shows what scripts/progress tells a student who has solved every exercise: copies the course
# (without build folders) to WORK_DIR, writes each reference solution over its exercise file,
# builds and runs `scripts/progress` there (checks, then each exercise's benchmark and the
# reference solution's, and the speed line against the manifests' speed goals). ONLY_REGEX limits
# it to some exercises (progress --only; empty or left out: all of them, as a bare `progress`); PROGRESS_OPTIONS go to progress (e.g. --no-bench,
# --jobs 1). On a GPU every GPU exercise must end "done" with a speed line; without one,
# "skipped" and no speed line. Exit: progress's.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -uo pipefail
work=${1:?usage: progress-solved.sh WORK_DIR [ONLY_REGEX [PROGRESS_OPTIONS...]]}
only=()
[ -n "${2:-}" ] && only=(--only "$2")
shift $(($# < 2 ? $# : 2))
src=$(cd "$(dirname "$0")/../.." && pwd)
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$work" || exit 1
# Every exercise file of the course (scripts/lib/exercise_list.py: lesson 07's kernels/ too).
python3 "$src/scripts/lib/exercise_list.py" "$src" | while read -r file; do
  cp "$src/solutions/${file#lessons/}" "$work/$file"
done
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
# No maintainer tests: progress builds and runs only the exercises' own checks.
cmake -S "$work" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DWORKBOOK_MAINTAINER_TESTS=OFF \
  >"$work/configure.log" 2>&1 || { tail -n 20 "$work/configure.log"; exit 1; }
cd "$work" && python3 scripts/progress --build-dir build "${only[@]}" --jobs "$(nproc)" "$@"
