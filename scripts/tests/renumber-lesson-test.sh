#!/usr/bin/env bash
# renumber-lesson-test.sh NAMES SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]
# A lesson is renumbered by moving what belongs to it alone (CONTRIBUTING.md, "Renumbering a
# lesson"). In a copy of the course (scripts/maintainer/copy-course.sh), each lesson of NAMES
# (names without their numbers, comma-separated: "sciddicat,profiling" for lessons/NN-sciddicat
# and lessons/NN-profiling) moves to a number after the last lesson, nothing else edited by hand:
#   a. its own paths move: lessons/NN-name/, solutions/NN-name/, docs/lessons/NN-name.md,
#      plots/NN-name* (its charts and what they load) and data/<machine>/NN-name*.csv (its
#      reference runs), and inside them the old name and number become the new ones ("NN-name",
#      "Lesson NN", the page's anchors {#lessonNN} and lNN_...);
#   b. the generated files are written again: lint-lessons.py sync (the ladder of README.md, the
#      course map of docs/mainpage.md, docs/instructors.md), update-pristine-manifest
#      (scripts/lib/pristine-exercises.sha256) and count-written-lines.py (data/written-lines.tsv);
#   c. configure succeeds, lint-lessons.py registry, shape and layout pass, scripts/progress
#      (no build, no GPU) gives each lesson's hint from its page and lists its exercise under the
#      new name, not started, the pages render, and those that cite a lesson as {{lesson NAME}} or
#      {{lesson NAME#SECTION}} render its new number, those that name its programs with
#      {{folder NAME}} its new folder;
#   d. outside a lesson's moved paths, no file names it by its old name or number ("NN-name",
#      "lesson NN" or "lessons NN", also across a line break, "lessonNN", "lNN_") except those of
#      the lesson's list in known_files below, each with its reason; a known file that no longer
#      names it, or no longer exists, fails too, so that the list stays true. Pages cite a lesson as {{lesson NAME}} or
#      {{lesson NAME#SECTION}} and quote its runs as NN-NAME.csv (docs/tools/page-figures.py
#      renders the number from its folder), and tests whose scenario is the lesson find it by its
#      name.
# The lessons move together, so that one configure serves them all (about 40 s, nothing built).
# Configure leaves out the optional parts that no lesson needs (Doxygen, gnuplot, GoogleTest); where
# it leaves a lesson out (lesson 08 without MPI or NCCL), sync cannot write that lesson's rows and
# the test skips (exit 77) after configure.
case "${1:-}" in -h | --help) awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
set -u
usage="usage: renumber-lesson-test.sh NAMES SOURCE_DIR WORK_DIR CMAKE [GENERATOR [CUDA_COMPILER]]"
IFS=, read -r -a names <<<"${1:?$usage}"
src=${2:?$usage}
work=${3:?$usage}
cmake=${4:?$usage}
generator=${5:-}
cuda_compiler=${6:-}
fail() { echo "FAIL: $*"; exit 1; }
start=$SECONDS
# folder NAME: the folder NN-NAME of the lesson named NAME. This script names every lesson so, those
# it renumbers (known_files below lists the files that name each by its number) and the others.
folder() { (cd "$src/lessons" && ls -d [0-9][0-9]-"$1" 2>/dev/null | head -n 1); }
[ ${#names[@]} -gt 0 ] || fail "$usage"
for name in "${names[@]}"; do
  [ -n "$(folder "$name")" ] || fail "no lesson NN-$name in $src/lessons"
done

# known_files OLD: for the lesson OLD (NN-name), the files outside its own paths that still name it
# by its number, one "path|why they may" a line. A recorded output is what the lesson's check
# printed, number included, and stays so when the lesson moves; the tests that replay it quote it.
# An example needs some lesson's name, and any lesson's would do. "To convert": a file that names
# the lesson by its number where its name would do, left for now (some are being edited elsewhere).
known_files() {
  local n=${1:0:2} example="an example of a lesson's name in its documentation; any lesson's would do"
  local recorded="a recorded output of the lesson's check, kept as printed" todo="cites lesson ${1:0:2} by number"
  local scenario="a scenario of scripts/progress on particular lessons, in the course's order"
  case "${1:3}" in
    sciddicat) cat <<EOF
common/cmake/Workbook.cmake|$example (workbook_test's usage)
docs/tools/page-figures.py|$example (a page's figures block)
scripts/gpu-check.sh|$example (the targets of one lesson)
scripts/lib/bench_csv.py|$example
EOF
      ;;
    tiled-matmul) cat <<EOF
lessons/$(folder nonsquare-matmul)/matmul_bounds.cu|an exercise file that $todo; to convert, with its pristine hash
solutions/$(folder nonsquare-matmul)/full_tiles.cu|a given kernel that $todo in comments; to convert
common/cmake/Workbook.cmake|$example (workbook_planted_bug's usage, a reference-only run)
common/include/wb/csv.h|$example
common/include/wb/lesson.h|$example
common/include/wb/lesson_name.h|$example
common/tests/test_csv.cpp|a lesson's name as a unit test's sample value; any lesson's would do
scripts/check|$example (its usage)
scripts/profile|$example (its usage)
scripts/progress|$example (the report's schema, a usage message)
scripts/maintainer/mutate.py|$example (a comment)
scripts/gpu-check.sh|$example (the runs of its step bench, a command that writes some again)
scripts/tests/check-outputs/$n-banks-conflict.txt|$recorded
scripts/tests/check-outputs/$n-kernel-never-finished.txt|$recorded
scripts/tests/check-outputs/$n-occupancy-first-wrong.txt|$recorded
scripts/tests/check-outputs/$n-occupancy-untouched.txt|$recorded
scripts/tests/sanitizer-samples/racecheck-missing-barrier.txt|a recorded racecheck report of the lesson's check
cmake/CourseTests.cmake|replays the racecheck report above with the program it ran on
scripts/tests/expect-check-failure-self-test.sh|replays a recorded verdict of the lesson's check
scripts/tests/progress-failure-summary-test.py|replays the recorded outputs above, quoting their lines
scripts/tests/progress-report-test.sh|$scenario
scripts/tests/progress-where-test.sh|$scenario
EOF
      ;;
    profiling) cat <<EOF
scripts/tests/check-outputs/$1-too-slow.txt|$recorded
scripts/tests/expect-check-failure-self-test.sh|replays the recorded output above
scripts/tests/progress-failure-summary-test.py|replays the recorded output above, quoting its lines
EOF
      ;;
  esac
}
rm -rf "$work" && mkdir -p "$work" || exit 1
tree=$work/tree build=$work/build
bash "$src/scripts/maintainer/copy-course.sh" "$src" "$tree" || fail "cannot copy the course"
# scripts/progress runs the ctest beside this cmake.
PATH="$(dirname "$cmake"):$PATH"
last=$(cd "$tree/lessons" && ls -d [0-9][0-9]-* | tail -n 1)

# For each lesson NAME: old[NAME] and new[NAME], its folder names, and moved[NAME], its paths once
# moved (one a line); renamed: "old path|new path" of every path moved, one a line.
declare -A old new moved
renamed=""
echo "== a. the lessons' own paths move"
move() {  # move NAME PATH NEW_PATH (relative to the tree)
  mkdir -p "$(dirname "$tree/$3")" && mv "$tree/$2" "$tree/$3" || fail "cannot move $2"
  moved[$1]+="$3"$'\n'
  renamed+="$2|$3"$'\n'
  echo "  $2 -> $3"
}
count=0
for name in "${names[@]}"; do
  old[$name]=$(folder "$name")
  count=$((count + 1))
  new[$name]=$(printf '%02d' $((10#${last:0:2} + count)))-$name
  o=${old[$name]} n=${new[$name]}
  move "$name" "lessons/$o" "lessons/$n"
  move "$name" "solutions/$o" "solutions/$n"
  move "$name" "docs/lessons/$o.md" "docs/lessons/$n.md"
  for file in "$tree"/plots/"$o"* "$tree"/data/*/"$o"*.csv; do
    [ -e "$file" ] || continue
    relative=${file#"$tree/"}
    move "$name" "$relative" "$(dirname "$relative")/$n${relative##*/$o}"
  done
  # Inside them, the old name and number become the new ones.
  mapfile -t paths <<<"${moved[$name]%$'\n'}"
  while IFS= read -r -d '' file; do
    sed -i -E -e "s/\\b$o\\b/$n/g" -e "s/\\b([Ll]esson) ${o:0:2}\\b/\\1 ${n:0:2}/g" \
      -e "s/\\blesson${o:0:2}\\b/lesson${n:0:2}/g" -e "s/\\bl${o:0:2}_/l${n:0:2}_/g" "$file" ||
      fail "cannot rewrite $file"
  done < <(cd "$tree" && find "${paths[@]}" -type f -print0 | sed -z "s|^|$tree/|")
done
# known NAME: the lesson's known files ("path|why"), each path where it lies once the lessons moved.
known() {
  local entry path pair
  while IFS= read -r entry; do
    path=${entry%%|*}
    while IFS= read -r pair; do
      [ -n "$pair" ] || continue
      [ "$path" = "${pair%%|*}" ] && path=${pair#*|}
      [ "${path#"${pair%%|*}/"}" != "$path" ] && path=${pair#*|}/${path#"${pair%%|*}/"}
    done <<<"$renamed"
    echo "$path|${entry#*|}"
  done < <(known_files "${old[$1]}")
}

# Every file the lists name exists (a file deleted or moved since would otherwise read as one that
# no longer names its lesson, only after configure).
absent=""
for name in "${names[@]}"; do
  while IFS= read -r entry; do
    [ -e "$tree/${entry%%|*}" ] || absent+="${entry%%|*} "
  done < <(known "$name")
done
[ -z "$absent" ] || fail "known_files lists files that do not exist: take them off the list: $absent"

echo "== b. the generated files, written again"
bash "$tree/scripts/maintainer/update-pristine-manifest" >/dev/null || fail "update-pristine-manifest failed"
python3 "$tree/scripts/maintainer/count-written-lines.py" >/dev/null || fail "count-written-lines.py failed"

source "$src/scripts/tests/configure-copy.sh"
echo "== c. configure, the lesson lints, scripts/progress"
configure_copy "$work/configure.txt" ||
  { tail -n 20 "$work/configure.txt"; fail "configure of the renumbered course fails"; }
for name in "${names[@]}"; do
  grep -q "^[^|]*|${new[$name]}|" "$build/workbook-exercises.txt" ||
    fail "the build's exercise list has no row for ${new[$name]}"
  grep -q "|${old[$name]}|" "$build/workbook-exercises.txt" &&
    fail "the build's exercise list still has a row for ${old[$name]}"
done
skip_if_lessons_left_out "the lints, progress and the search for stale references were not run"
lint() { python3 "$tree/scripts/maintainer/lint-lessons.py" "$@"; }
lint sync "$tree" "$build" || fail "sync exits $?"
for name in "${names[@]}"; do
  grep -Fq "| ${new[$name]:0:2} | \`${new[$name]}\` |" "$tree/README.md" ||
    fail "sync wrote no ladder row for ${new[$name]}"
done
for check in "registry $tree $build" "shape $tree" "layout $tree"; do
  # shellcheck disable=SC2086 # the words of each check
  lint $check >"$work/lint.txt" 2>&1 || { cat "$work/lint.txt"; fail "lint-lessons.py ${check%% *} exits 1"; }
done
progress() { WB_FORCE_NO_GPU=1 python3 "$tree/scripts/progress" "$@"; }
for name in "${names[@]}"; do
  progress --build-dir "$work/no-build" hint "${new[$name]}" >"$work/hint.txt" 2>&1 ||
    { cat "$work/hint.txt"; fail "'progress hint ${new[$name]}' fails"; }
  grep -Fq "Hint 1 of " "$work/hint.txt" || fail "'progress hint ${new[$name]}' does not give the page's first hint"
done
renumbered=$(for name in "${names[@]}"; do echo "${new[$name]}"; done)
progress --build-dir "$build" --no-build --no-bench --only "^($(paste -sd '|' <<<"$renumbered"))\$" \
  --report "$work/report.json" >"$work/progress.txt" 2>&1
rc=$?
cat "$work/progress.txt"
[ $rc -eq 0 ] || fail "'progress --no-build --report' exits $rc"
python3 - "$work/report.json" $renumbered <<'EOF' || fail "the report's entries for the renumbered lessons"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
for name in sys.argv[2:]:
    entries = [e for e in report["exercises"] if e["name"] == name]
    assert len(entries) == 1, f"{len(entries)} entries named {name}"
    e = entries[0]
    assert e["lesson"] == name and e["verdict"] == "not started", e
    assert e["files"] and all(f.startswith(f"lessons/{name}/") for f in e["files"]), e["files"]
EOF
# The pages render (those quoting a lesson's runs as NN-NAME.csv read the moved files), and each
# citation of a lesson by its name, or of a section of its page, renders its new number. A page of
# known_files may quote a lesson's runs by their old names, which no longer render: it is rendered
# on its own, and left out where it fails.
known_pages=$(for name in "${names[@]}"; do known "$name"; done | cut -d '|' -f 1 | grep -E '^docs/.*\.md$' | sort -u)
pages=()
for page in "$tree"/docs/*.md "$tree"/docs/lessons/*.md; do
  grep -qxF "${page#"$tree/"}" <<<"$known_pages" || pages+=("$page")
done
render() {
  python3 "$tree/docs/tools/page-figures.py" render "$tree/data" "$work/pages" "$@" >"$work/render.txt" 2>&1
}
render "${pages[@]}" || { cat "$work/render.txt"; fail "the pages do not render"; }
while IFS= read -r page; do
  [ -z "$page" ] || render "$tree/$page" || echo "  $page (known_files) does not render: left out"
done <<<"$known_pages"
for name in "${names[@]}"; do
  number=${new[$name]:0:2}
  cited=$(cd "$tree/docs" && grep -lE "\{\{[Ll]esson $name(#\w+)?\}\}" ./*.md lessons/*.md)
  [ -n "$cited" ] || fail "no page cites {{lesson $name}}: there is no cross-reference to check"
  for page in $cited; do
    [ -f "$work/pages/${page##*/}" ] || continue  # a known page that does not render (above)
    sections=$(grep -oE "\{\{[Ll]esson $name#\w+\}\}" "$tree/docs/$page" | sed -E 's/.*#//; s/\}\}$//' | sort -u)
    for section in "" $sections; do
      anchor=lesson$number what="lesson $name"
      [ -z "$section" ] || anchor=l${number}_$section what="section $section of lesson $name"
      [ -n "$section" ] || grep -qE "\{\{[Ll]esson $name\}\}" "$tree/docs/$page" || continue
      grep -Fq "\\ref $anchor \"" "$work/pages/${page##*/}" ||
        fail "docs/${page#./}, rendered, does not cite $what as \\ref $anchor"
    done
  done
  for page in $(cd "$tree/docs" && grep -lF "{{folder $name}}" ./*.md lessons/*.md); do
    [ -f "$work/pages/${page##*/}" ] || continue
    grep -Fq "${new[$name]}" "$work/pages/${page##*/}" ||
      fail "docs/${page#./}, rendered, does not name the folder ${new[$name]} for {{folder $name}}"
  done
done

failures=""
for name in "${names[@]}"; do
  o=${old[$name]}
  echo "== d. references to $o by hand outside its own paths"
  stale="\\b$o\\b|\\b[Ll]essons? ${o:0:2}\\b|\\blesson${o:0:2}\\b|\\bl${o:0:2}_"
  across="\\b[Ll]essons?[[:space:]]+${o:0:2}\\b"
  # Every file of the copy but the lesson's moved paths (the build lies outside the copy); the
  # second search reads each file whole (-z), for "lesson" and the number on two lines.
  found=$(cd "$tree" && { grep -rlE "$stale" .; grep -rlzE "$across" .; } |
    sed 's|^\./||' | sort -u | while IFS= read -r file; do
    while IFS= read -r path; do
      [ -n "$path" ] && { [ "$file" = "$path" ] || [ "${file#"$path/"}" != "$file" ]; } && continue 2
    done <<<"${moved[$name]}"
    echo "$file"
  done)
  mapfile -t KNOWN < <(known "$name")
  unexpected="" gone=""
  while IFS= read -r file; do
    [ -n "$file" ] || continue
    printf '%s\n' "${KNOWN[@]%%|*}" | grep -qxF "$file" || unexpected+="$file "
    grep -nE "$stale" "$tree/$file" | cut -c1-140 | sed "s|^|  $file:|" | grep . ||
      echo "  $file: \"lesson\" and ${o:0:2} on two lines"
  done <<<"$found"
  for entry in "${KNOWN[@]}"; do
    grep -qxF "${entry%%|*}" <<<"$found" || gone+="${entry%%|*} "
  done
  [ -z "$unexpected" ] || failures+="FAIL: these files name $o by hand (a page cites it as {{lesson $name}}, a test \
finds it by its name, or add them to known_files with the reason): $unexpected"$'\n'
  [ -z "$gone" ] || failures+="FAIL: these known files no longer name $o: take them off the list: $gone"$'\n'
  echo "  ${new[$name]}: ${#KNOWN[@]} files name $o by hand (known_files)"
done
[ -z "$failures" ] || { printf '%s' "$failures"; exit 1; }
echo "OK: $(for name in "${names[@]}"; do printf '%s -> %s, ' "${old[$name]}" "${new[$name]}"; done)renumbered by" \
  "their own paths in $((SECONDS - start)) s"
