#!/usr/bin/env bash
# renumber-lesson-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]
# A lesson is renumbered by moving what belongs to it alone (CONTRIBUTING.md, "Renumbering a
# lesson"). In a copy of the course (scripts/maintainer/copy-course.sh), the profiling lesson
# (lessons/NN-profiling) moves to the number after the last lesson, nothing else edited by hand:
#   a. its own paths move: lessons/NN-name/, solutions/NN-name/, docs/lessons/NN-name.md,
#      plots/NN-name*.gp and data/<machine>/NN-name*.csv (its reference runs), and inside them
#      the old name and number become the new ones ("NN-profiling", "Lesson NN", the page's
#      anchors {#lessonNN} and lNN_...);
#   b. the generated files are written again: lint-lessons.py sync (the ladder of README.md, the
#      course map of docs/mainpage.md, docs/instructors.md), update-pristine-manifest
#      (scripts/lib/pristine-exercises.sha256) and count-written-lines.py (data/written-lines.tsv);
#   c. configure succeeds, lint-lessons.py registry, shape and layout pass, scripts/progress
#      (no build, no GPU) gives the new lesson's hint from its page and lists its exercise under
#      the new name, not started, and the pages that cite it as {{lesson profiling}} render the
#      new number;
#   d. outside the moved paths, no file names the lesson by its old name or number ("NN-profiling",
#      "lesson NN", "lessonNN", "lNN_") except those of KNOWN below, each with its reason; a known
#      file that no longer names it fails too, so that the list stays true. Pages cite the lesson
#      as {{lesson profiling}} (docs/tools/page-figures.py renders the number from its folder), and
#      tests whose scenario is the lesson find it by its name.
# Nothing is built. Configure leaves out the optional parts that no lesson needs (Doxygen,
# gnuplot, GoogleTest); where it leaves a lesson out (lesson 08 without MPI or NCCL), sync cannot
# write that lesson's rows and the test skips (exit 77) after configure.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
usage="usage: renumber-lesson-test.sh SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]"
src=${1:?$usage}
work=${2:?$usage}
cmake=${3:?$usage}
generator=${4:-}
cuda_compiler=${5:-}
fail() { echo "FAIL: $*"; exit 1; }
start=$SECONDS
# The lesson it renumbers, by its name: KNOWN below lists the files that name it by its number.
old=$(cd "$src/lessons" && ls -d [0-9][0-9]-profiling 2>/dev/null | head -n 1)
[ -n "$old" ] || fail "no lesson NN-profiling in $src/lessons"

# Files outside the lesson's own paths that still name it by its number, and why they may. A
# recorded output is what the lesson's check printed, number included, and stays so when the
# lesson moves; the tests that replay it quote it.
KNOWN=(
  "scripts/tests/check-outputs/$old-too-slow.txt|a recorded output of the lesson's check, kept as printed"
  "scripts/tests/expect-check-failure-self-test.sh|replays the recorded output above"
  "scripts/tests/progress-failure-summary-test.py|replays the recorded output above, quoting its lines"
)

rm -rf "$work" && mkdir -p "$work" || exit 1
tree=$work/tree build=$work/build
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$tree" || fail "cannot copy the course"
# scripts/progress runs the ctest beside this cmake.
PATH="$(dirname "$cmake"):$PATH"
[ -d "$tree/lessons/$old" ] || fail "no lesson $old in the copy of the course"
last=$(cd "$tree/lessons" && ls -d [0-9][0-9]-* | tail -n 1)
old_number=${old:0:2}
number=$(printf '%02d' $((10#${last:0:2} + 1)))
new=$number${old:2}

echo "== a. $old becomes $new: its own paths"
moved=()
move() {  # move PATH NEW_PATH (relative to the tree)
  mkdir -p "$(dirname "$tree/$2")" && mv "$tree/$1" "$tree/$2" || fail "cannot move $1"
  moved+=("$2")
  echo "  $1 -> $2"
}
move "lessons/$old" "lessons/$new"
move "solutions/$old" "solutions/$new"
move "docs/lessons/$old.md" "docs/lessons/$new.md"
for file in "$tree"/plots/"$old"*.gp "$tree"/data/*/"$old"*.csv; do
  [ -e "$file" ] || continue
  relative=${file#"$tree/"}
  move "$relative" "$(dirname "$relative")/$new${relative##*/$old}"
done
# Inside them, the old name and number become the new ones.
while IFS= read -r -d '' file; do
  sed -i -E -e "s/\\b$old\\b/$new/g" -e "s/\\b([Ll]esson) $old_number\\b/\\1 $number/g" \
    -e "s/\\blesson$old_number\\b/lesson$number/g" -e "s/\\bl${old_number}_/l${number}_/g" "$file" ||
    fail "cannot rewrite $file"
done < <(cd "$tree" && find "${moved[@]}" -type f -print0 | sed -z "s|^|$tree/|")

echo "== b. the generated files, written again"
bash "$tree/scripts/maintainer/update-pristine-manifest" >/dev/null || fail "update-pristine-manifest failed"
python3 "$tree/scripts/maintainer/count-written-lines.py" >/dev/null || fail "count-written-lines.py failed"

source "$src/scripts/tests/configure-copy.sh"
echo "== c. configure, the lesson lints, scripts/progress"
configure_copy "$work/configure.txt" ||
  { tail -n 20 "$work/configure.txt"; fail "configure of the renumbered course fails"; }
grep -q "^[^|]*|$new|" "$build/workbook-exercises.txt" || fail "the build's exercise list has no row for $new"
grep -q "|$old|" "$build/workbook-exercises.txt" && fail "the build's exercise list still has a row for $old"
skip_if_lessons_left_out "the lints, progress and the search for stale references were not run"
lint() { python3 "$tree/scripts/maintainer/lint-lessons.py" "$@"; }
lint sync "$tree" "$build" || fail "sync exits $?"
grep -Fq "| $number | \`$new\` |" "$tree/README.md" || fail "sync wrote no ladder row for $new"
for check in "registry $tree $build" "shape $tree" "layout $tree"; do
  # shellcheck disable=SC2086 # the words of each check
  lint $check >"$work/lint.txt" 2>&1 || { cat "$work/lint.txt"; fail "lint-lessons.py ${check%% *} exits 1"; }
done
progress() { WB_FORCE_NO_GPU=1 python3 "$tree/scripts/progress" "$@"; }
progress --build-dir "$work/no-build" hint "$new" >"$work/hint.txt" 2>&1 ||
  { cat "$work/hint.txt"; fail "'progress hint $new' fails"; }
grep -Fq "Hint 1 of " "$work/hint.txt" || fail "'progress hint $new' does not give the page's first hint"
progress --build-dir "$build" --no-build --no-bench --only "^$new\$" --report "$work/report.json" \
  >"$work/progress.txt" 2>&1
rc=$?
cat "$work/progress.txt"
[ $rc -eq 0 ] || fail "'progress --no-build --report' exits $rc"
python3 - "$work/report.json" "$new" <<'EOF' || fail "the report's entry for $new"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
entries = [e for e in report["exercises"] if e["name"] == sys.argv[2]]
assert len(entries) == 1, f"{len(entries)} entries named {sys.argv[2]}"
e = entries[0]
assert e["lesson"] == sys.argv[2] and e["verdict"] == "not started", e
assert e["files"] and all(f.startswith(f"lessons/{sys.argv[2]}/") for f in e["files"]), e["files"]
EOF
# The pages that cite the lesson by its name cite the new number once rendered.
python3 "$tree/docs/tools/page-figures.py" render "$tree/data" "$work/pages" "$tree"/docs/*.md \
  "$tree"/docs/lessons/*.md >"$work/render.txt" 2>&1 || { cat "$work/render.txt"; fail "the pages do not render"; }
cited=$(cd "$tree/docs" && grep -lE "\{\{[Ll]esson ${new:3}\}\}" ./*.md lessons/*.md)
[ -n "$cited" ] || fail "no page cites {{lesson ${new:3}}}: there is no cross-reference to check"
for page in $cited; do
  grep -Fq "\\ref lesson$number \"" "$work/pages/${page##*/}" ||
    fail "docs/${page#./}, rendered, does not cite the lesson as \\ref lesson$number"
done

echo "== d. references to $old by hand outside its own paths"
stale="\\b$old\\b|\\b[Ll]esson $old_number\\b|\\blesson$old_number\\b|\\bl${old_number}_"
# Every file of the copy but the moved paths (the build lies outside the copy).
found=$(cd "$tree" && grep -rlE "$stale" . | sed 's|^\./||' | sort | while IFS= read -r file; do
  for path in "${moved[@]}"; do [ "$file" = "$path" ] || [ "${file#"$path/"}" != "$file" ] && continue 2; done
  echo "$file"
done)
unexpected="" gone=""
while IFS= read -r file; do
  [ -n "$file" ] || continue
  printf '%s\n' "${KNOWN[@]}" | grep -q "^$file|" || unexpected+="$file "
done <<<"$found"
for entry in "${KNOWN[@]}"; do
  file=${entry%%|*}
  grep -qxF "$file" <<<"$found" || gone+="$file "
done
while IFS= read -r file; do
  [ -n "$file" ] && grep -nE "$stale" "$tree/$file" | cut -c1-140 | sed "s|^|  $file:|"
done <<<"$found"
[ -z "$unexpected" ] || fail "these files name $old by hand (a page cites it as {{lesson ${old:3}}}, a test finds it \
by its name, or add them to KNOWN with the reason): $unexpected"
[ -z "$gone" ] || fail "these files of KNOWN no longer name $old: take them off the list: $gone"
echo "OK: $old renumbered $new by its own paths in $((SECONDS - start)) s; ${#KNOWN[@]} files name it by hand (KNOWN)"
