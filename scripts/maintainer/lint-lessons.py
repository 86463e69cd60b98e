#!/usr/bin/env python3
"""lint-lessons.py: every list of lessons agrees with the lessons' manifests, and every lesson
keeps the course's shape.

Usage:
  lint-lessons.py registry SOURCE_DIR BUILD_DIR    the manifests (workbook_lesson_manifest, read from
                                                   BUILD_DIR/workbook-*.tsv|txt) against the lesson
                                                   folders, solutions/, pages, charts, the ladder of
                                                   README.md, the course map of docs/mainpage.md,
                                                   the committed runs placed under the roofline, the
                                                   table of docs/which-gpu.md (from the manifests'
                                                   MIN_CC, data/gpus.csv and the committed runs; a
                                                   GPU lesson must declare MIN_CC), its table of
                                                   speed checks (each bound a lesson's code prints,
                                                   "(at least %.1fx", declared by a SPEED_CHECK with
                                                   the constant that holds it), and
                                                   every file of each machine's folder (data/FOLDER/,
                                                   data/machines.csv: data/h200/, data/h100/) written
                                                   by a step of scripts/gpu-check.sh: a reference run
                                                   declared in BUILD_DIR/gpu-jobs.txt, its
                                                   "# command:" line that run's, or the steps counters
                                                   or profiles; every file of data/FOLDERx<n>/ by a
                                                   declared run of n MPI ranks (its command line
                                                   rank 0's). A lesson
                                                   left out at configure time (BUILD_DIR/
                                                   workbook-left-out.tsv: lesson 08 without MPI) has
                                                   no programs or runs there: the rest is checked,
                                                   and then the test skips (exit 77), never passes
  lint-lessons.py sync SOURCE_DIR BUILD_DIR        writes the ladder, the course map, the instructors'
                                                   table and docs/which-gpu.md's from the manifests (after adding a lesson or editing a text;
                                                   refused where a lesson was left out)
  lint-lessons.py shape SOURCE_DIR                 drivers of at most 250 lines with no __global__
                                                   kernel, no namespace wb inside lessons/; no
                                                   lesson name or "Lesson NN"/"lesson NN" typed in a
                                                   string of lessons/ or solutions/ (they come from
                                                   the build), no lesson number typed in a string of
                                                   common/src/ or common/include/,
                                                   each Hints line naming its own lesson; every
                                                   file of a lesson folder of a kind: exercise,
                                                   driver, kernel, header, harness, test data, a
                                                   table (bad-inputs.tsv, counters.tsv,
                                                   allowed-skips.tsv) or a source that its
                                                   CMakeLists.txt builds; every header of lessons/,
                                                   solutions/ and common/ that names std::uint64_t
                                                   or its kin includes <cstdint> itself
  lint-lessons.py layout SOURCE_DIR                every tool in its home (CONTRIBUTING.md, "Where
                                                   the tools live"): the top of scripts/ holds only
                                                   the students' and instructors' commands, its
                                                   CMakeLists.txt and the folders lib/, maintainer/
                                                   and tests/; no docs or chart tool under
                                                   scripts/; no tool but the student's check named
                                                   check*; common/ holds the C++ library: no script
                                                   there, and only C++ unit tests in common/tests/;
                                                   no list of lessons typed in code or data outside
                                                   the lessons' folders (three lessons named within
                                                   six lines, comments left out), but the few files
                                                   HAND_LIST_EXEMPT names with the reason
  lint-lessons.py self-test SOURCE_DIR BUILD_DIR   planted drift (a ladder row missing, a program
                                                   left out of the roofline, a roofline with no
                                                   point, the tiled-matmul lesson's sweep or
                                                   lesson 11's timeline undeclared, a lesson's row
                                                   missing from docs/which-gpu.md or stale after a
                                                   GPU's compute capability changed in
                                                   data/gpus.csv, a GPU lesson without MIN_CC,
                                                   a speed check undeclared, its bound changed
                                                   or its constant missing,
                                                   a reference run other than the
                                                   committed one, lesson 08's two-rank run
                                                   undeclared, on other ranks or other than the
                                                   committed one, a run of three ranks no lesson
                                                   declares, lesson 08 missing from the build's
                                                   lists without being left out, a counters table no step
                                                   measures, a file no step writes in the reference
                                                   machine's folder, a 251-line driver, a
                                                   source its lesson does not build, a
                                                   kernel in a driver, namespace wb in a lesson,
                                                   a lesson number typed in a harness or in common/,
                                                   a stray file at the top of scripts/, a docs or
                                                   chart tool under scripts/, a tool named check-*,
                                                   a test of a script or a test's data under
                                                   common/, a list of lessons typed in a script)
                                                   must each fail
Exit 0 when everything agrees, 1 with one line per disagreement, 77 when everything checked
agrees but a lesson was left out at configure time, so that its part was not checked."""
import csv
import glob
import os
import re
import shutil
import sys
import tempfile

# The course's one reader of its CSVs (scripts/lib/bench_csv.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import bench_csv  # noqa: E402  (after the path to it)
import exercise_list  # noqa: E402
import machines  # noqa: E402

MAX_DRIVER_LINES = 250
# The exit code of a test that could not check everything: skipped, never passed.
SKIPPED = 77


def placeable_rows(table):
    """How many rows of a benchmark CSV the roofline chart (plots/roofline.gp) places: FP64 or
    FP32 work with a positive arithmetic intensity, in a run that measured its roofs."""
    if "roofs" not in table.comments:
        return 0
    return sum(1 for row in table.rows
               if row.get("precision") in ("double", "float") and (bench_csv.number(row.get("intensity", "")) or 0) > 0)


# The lessons' folders, and one lesson's folder found by its name (exercise_list.py).
lesson_folders = exercise_list.lesson_folders
lesson_named = exercise_list.lesson_named


def read_rows(path, columns):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                fields = line.rstrip("\n").split("\t")
                rows.append(fields + [""] * (columns - len(fields)))
    return rows


def exercise_rows(build):
    """The rows of workbook-exercises.txt: test id, lesson, program, kind, files, target id."""
    return [e.row().split("|") for e in exercise_list.read_list(build) or []]


def left_out(source, build):
    """{lesson: why}: the lessons left out at configure time (BUILD/workbook-left-out.tsv, written
    by workbook_left_out; its other parts, such as the charts, are not lessons)."""
    path = os.path.join(build, "workbook-left-out.tsv")
    if not os.path.exists(path):
        return {}
    folders = lesson_folders(source)
    return {part: why for part, why in read_rows(path, 2) if part in folders}


def lesson_of(name, lessons):
    """The lesson among `lessons` that a program, run or file name belongs to ("08-sciddicat-multigpu"
    for "08-sciddicat-multigpu-solution"), or None."""
    return next((lesson for lesson in lessons if name == lesson or name.startswith(lesson + "-")), None)


def lesson_programs(build):
    """{lesson: [(program, kind, optional)]} in the order of workbook-exercises.txt."""
    programs = {}
    for fields in exercise_rows(build):
        programs.setdefault(fields[1], []).append((fields[2], fields[3], fields[6:] == ["optional"]))
    return programs


def needs_cell(manifest_needs, programs):
    """The course map's "Needs a GPU" cell: the manifest's NEEDS, or what the programs' kinds say."""
    if manifest_needs:
        return manifest_needs
    kinds = [kind for _, kind, _ in programs]
    if all(kind == "cpu" for kind in kinds):
        return "no"
    on_cpu = [program for program, kind, _ in programs if kind == "cpu"]
    return "yes, except " + ", ".join(f"*{program}*" for program in on_cpu) if on_cpu else "yes"


# The manifest's columns in BUILD/workbook-lessons.tsv (workbook_lesson_manifest).
MANIFEST_COLUMNS = 9


def manifest_rows(build):
    """[[lesson, teaches, learn, needs, where, min_cc, arch_specific, gpus, mpi]] in the course's order."""
    return read_rows(os.path.join(build, "workbook-lessons.tsv"), MANIFEST_COLUMNS)


def part_min_cc(build):
    """{lesson: [(part, cc)]}: the parts of a lesson that need more than its MIN_CC (PART_MIN_CC)."""
    parts = {}
    path = os.path.join(build, "workbook-part-min-cc.tsv")
    for lesson, part, cc in read_rows(path, 3) if os.path.exists(path) else []:
        parts.setdefault(lesson, []).append((part, cc))
    return parts


def cc_key(cc):
    """A compute capability "x.y" as a number to compare: "8.9" -> (8, 9)."""
    major, _, minor = cc.partition(".")
    return int(major), int(minor or 0)


def read_gpus(source):
    """[(name, cc, where)] of data/gpus.csv: the common GPUs, whose compute capabilities are also the
    architectures every lesson is built for from its MIN_CC on (scripts/tests/gpu-arch-compile.sh)."""
    with open(os.path.join(source, "data", "gpus.csv"), encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return [(row["name"], row["cc"], row["where"]) for row in csv.DictReader(lines)]


def ran_on(source, lesson):
    """The machines of data/machines.csv with a committed run of LESSON (data/FOLDER/LESSON*.csv),
    "H200 x2" for a run of two ranks on two GPUs (data/FOLDERx2/)."""
    found = machines.read(os.path.join(source, "data"))
    labels = []
    for folder, ranks in data_folders(source):
        if glob.glob(os.path.join(source, "data", folder, lesson + "*.csv")):
            owner = machines.of_folder(found, folder)[0]
            labels.append(owner.label + (f" x{ranks}" if ranks > 1 else ""))
    order = [m.label for m in found]
    return sorted(labels, key=lambda label: (order.index(label.split(" ")[0]), label))


def which_gpu_row(source, manifest, parts, gpus):
    """The row of docs/which-gpu.md of one lesson: its least compute capability, the common GPUs
    that have it, how many GPUs and MPI, its parts that need more, the architectures the build test
    proves and the machines with a committed run."""
    lesson, min_cc, specific, gpu_count, mpi = manifest[0], manifest[5], manifest[6], manifest[7], manifest[8]
    ran = ", ".join(ran_on(source, lesson)) or "none committed"
    if not min_cc:
        return f"| \\ref lesson{lesson[:2]} | none: the CPU | any machine | none | none | none | {ran} |"
    fits = (lambda cc: cc_key(cc) == cc_key(min_cc)) if specific else (lambda cc: cc_key(cc) >= cc_key(min_cc))
    names = ", ".join(name for name, cc, _ in gpus if fits(cc)) or "none of the list"
    least = min_cc + (" only" if specific else "")
    count = (gpu_count or "1") + (", MPI and NCCL" if mpi else "")
    more = "; ".join(f"{part}: {cc}" for part, cc in parts) or "none"
    claimed = sorted({cc for _, cc, _ in gpus if cc_key(cc) >= cc_key(min_cc)}, key=cc_key)
    # In bold the architectures that every run of the test compiles (the least and the newest);
    # the others with WORKBOOK_ALL_GPU_ARCHS=ON (scripts/tests/gpu-arch-compile.sh).
    built = ", ".join(("**{}**" if cc in (claimed[0], claimed[-1]) else "{}").format(
        "sm_" + cc.replace(".", "") + ("a" if specific and cc == min_cc else "")) for cc in claimed)
    return f"| \\ref lesson{lesson[:2]} | {least} | {names} | {count} | {more} | {built} | {ran} |"


def min_cc_problems(source, build, absent):
    """A lesson with a GPU program declares MIN_CC, a lesson of CPU programs alone none, and no
    MIN_CC is below the least compute capability of data/gpus.csv (the course's floor)."""
    problems = []
    floor = min((cc for _, cc, _ in read_gpus(source)), key=cc_key)
    programs_of = lesson_programs(build)
    for manifest in manifest_rows(build):
        lesson, min_cc = manifest[0], manifest[5]
        kinds = {kind for _, kind, _ in programs_of.get(lesson, [])}
        if lesson in absent and not kinds:
            continue
        if "gpu" in kinds and not min_cc:
            problems.append(f"{lesson}: a GPU program but no MIN_CC in its manifest (the least compute capability "
                            "its exercises run on: docs/which-gpu.md)")
        if "gpu" not in kinds and min_cc:
            problems.append(f"{lesson}: MIN_CC {min_cc}, but no program of it runs on a GPU")
        if min_cc and cc_key(min_cc) < cc_key(floor):
            problems.append(f"{lesson}: MIN_CC {min_cc} is below the course's floor, {floor} (data/gpus.csv)")
    return problems


def ladder_row(lesson, teaches):
    return f"| {lesson[:2]} | `{lesson}` | {teaches} |"


def course_map_row(lesson, learn, needs):
    return f"| \\subpage lesson{lesson[:2]} | {learn} | {needs} |"


def instructors_row(lesson, programs, needs):
    """The instructors' table row: the lesson's exercises as scripts/progress names them, the
    optional ones ("going further") marked so."""
    names = ", ".join(f"`{program or lesson}`" + " (optional)" * optional for program, _, optional in programs)
    return f"| \\ref lesson{lesson[:2]} | {names} | {needs} |"


def program_ids(build):
    """{program (target) id: kind} from workbook-exercises.txt."""
    return {fields[5]: fields[3] for fields in exercise_rows(build)}


# In a reference run's arguments, the folder that scripts/gpu-check.sh's step bench writes to.
BENCH_DIR = "{bench-dir}"


def reference_runs(build):
    """{ranks: [(name, program, arguments)]}: the runs of scripts/gpu-check.sh's step bench
    (workbook_benchmark), the "reference" rows of BUILD/gpu-jobs.txt (one process, ranks 1) and the
    "reference-ranks NAME PROGRAM RANKS ARGS" rows (RANKS MPI ranks, one a GPU)."""
    runs = {}
    with open(os.path.join(build, "gpu-jobs.txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[0] == "reference":
                runs.setdefault(1, []).append((words[1], words[2], words[3:]))
            elif len(words) >= 4 and words[0] == "reference-ranks" and words[3].isdigit():
                runs.setdefault(int(words[3]), []).append((words[1], words[2], words[4:]))
    return runs


# The committed reference runs, for every machine of data/machines.csv: data/FOLDER/ those of one
# process, data/FOLDERx<n>/ those of n MPI ranks on n GPUs of one machine (scripts/gpu-check.sh
# writes them to OUTDIR/bench/x<n>/).
def data_folders(source):
    """[(folder, ranks)]: the folders of committed reference runs under SOURCE/data, those of
    every machine data/machines.csv names."""
    found = machines.read(os.path.join(source, "data"))
    folders = []
    for path in sorted(glob.glob(os.path.join(source, "data", "*"))):
        owner = machines.of_folder(found, os.path.basename(path))
        if owner and os.path.isdir(path):
            folders.append((os.path.basename(path), owner[1]))
    return folders


def machine_files(source, name):
    """The committed files NAME of every machine's folder of one process (SOURCE/data/FOLDER/NAME)."""
    return [path for folder, ranks in data_folders(source) if ranks == 1
            for path in glob.glob(os.path.join(source, "data", folder, name))]


def run_outputs(runs):
    """{file name: [(run, option)]}: the files the reference runs write, each run's CSV (--out
    NAME.csv) and any file its arguments put under {bench-dir} (written through the option before
    it, lesson 11's --timeline)."""
    outputs = {}
    for run in runs:
        name, _, args = run
        outputs.setdefault(name + ".csv", []).append((run, "--out"))
        for option, value in zip(args, args[1:]):
            if value.startswith(BENCH_DIR + "/"):
                outputs.setdefault(os.path.basename(value), []).append((run, option))
    return outputs


def step_outputs(source):
    """{file name: step}: the tables that scripts/gpu-check.sh's steps counters and profiles write
    for a machine's folder (one per row of a lesson's counters.tsv, which measure-counters.sh reads;
    the files measure-profiles.sh writes at the top of its output folder)."""
    outputs = {}
    maintainer = os.path.join(source, "scripts", "maintainer")
    for table in sorted(glob.glob(os.path.join(source, "lessons", "[0-9][0-9]-*", "counters.tsv"))):
        lesson = os.path.basename(os.path.dirname(table))
        with open(table, encoding="utf-8") as f:
            for name in re.findall(r"^([^#\s]\S*)\t", f.read(), re.M):
                outputs[f"{lesson}-{name}-counters.csv"] = "counters"
    # measure-profiles.sh names its files after the profiling lesson's folder ($lesson).
    profiling = lesson_named(source, "profiling")
    with open(os.path.join(maintainer, "measure-profiles.sh"), encoding="utf-8") as f:
        for name in re.findall(r'"\$out/([^/"]+\.csv)"', f.read()):
            if "$lesson" in name and profiling:
                name = name.replace("$lesson", profiling)
            if "$" not in name:
                outputs[name] = "profiles"
    return outputs


# Where a run found its input: the build adds --data-dir to a reference run when the real input
# (the tessina grid) was found at configure time, so a machine without it declares the run
# without the option. Set aside with its path on both sides.
INPUT_OPTIONS = {"--data-dir"}


def same_run(command, run, option, file):
    """Whether COMMAND (a committed file's "# command:" line) is the reference run RUN, wherever its
    files went: the program (in any folder), then the same arguments in order, a path matching any
    path; the output options (--out and those of the run's other files) and INPUT_OPTIONS with
    their paths set aside, FILE written through OPTION. A run that did not write the run's other
    files is the same run (they come after the timed runs: lesson 11's timeline)."""
    _, program, args = run
    words = command.split()
    if not words or os.path.basename(words[0]) != program:
        return False
    outputs = {"--out"} | {a for a, value in zip(args, args[1:]) if value.startswith(BENCH_DIR + "/")}

    def measured(arguments):
        kept, written, skip = [], {}, False
        for i, word in enumerate(arguments):
            if skip:
                skip = False
            elif word in outputs and i + 1 < len(arguments):
                written[word], skip = os.path.basename(arguments[i + 1]), True
            elif word in INPUT_OPTIONS and i + 1 < len(arguments):
                skip = True
            else:
                kept.append(word)
        return kept, written

    committed, written = measured(words[1:])
    declared, _ = measured(args)
    return written.get(option) == file and len(committed) == len(declared) and \
        all(a == b or ("/" in a and "/" in b) for a, b in zip(committed, declared))


def reference_data(source, build, absent=()):
    """One line per file of a machine's folder (data/h200/, data/h100/) that no step of
    scripts/gpu-check.sh writes, or whose "# command:" line is not the reference run that writes
    it; the same for data/FOLDERx<n>/ and the reference runs of n ranks (rank 0's command
    line). The files of the lessons `absent` (left out at configure time: no run of theirs is
    declared) are not checked."""
    problems = []
    runs = reference_runs(build)
    found = machines.read(os.path.join(source, "data"))
    for folder, ranks in data_folders(source):
        machine = machines.of_folder(found, folder)[0]
        if ranks < 2 and folder != machine.folder:
            problems.append(f"data/{folder}/: a folder of runs of one process; those belong in data/{machine.folder}/")
            continue
        by_run = run_outputs(runs.get(ranks, []))
        by_step = step_outputs(source) if ranks == 1 else {}
        declared = "a reference run that a lesson declares, workbook_lesson or workbook_benchmark, nor the steps " \
            "counters and profiles" if ranks == 1 else f"a reference run of {ranks} ranks that a lesson declares, " \
            f"workbook_benchmark RANKS {ranks}"
        for path in sorted(glob.glob(os.path.join(source, "data", folder, "*.csv"))):
            file = os.path.basename(path)
            if file in by_step and file in by_run:
                problems.append(f"data/{folder}/{file}: written by both the step {by_step[file]} and a reference run "
                                "of the step bench: one would overwrite the other (workbook_lesson NO_REFERENCE_RUN)")
                continue
            if file in by_step or lesson_of(file[:-len(".csv")], absent):
                continue
            if file not in by_run:
                problems.append(f"data/{folder}/{file}: no step of scripts/gpu-check.sh writes it (no {declared}): "
                                "a committed file that nothing regenerates")
                continue
            command = bench_csv.read(path).comments.get("command", "")
            if not any(same_run(command, run, option, file) for run, option in by_run[file]):
                bench = "bench" if ranks == 1 else f"bench/x{ranks}"
                expected = "; ".join(f"bin/{program} {' '.join(args)} --out .../{bench}/{name}.csv"
                                     for (name, program, args), _ in by_run[file])
                how = "workbook_benchmark" if ranks == 1 else f"workbook_benchmark RANKS {ranks}"
                problems.append(f"data/{folder}/{file}: its # command: line '{command}' is not the reference run "
                                f"that scripts/gpu-check.sh performs ('{expected}'): declare the run it is "
                                f"({how}) or write the file again with the GPU check")
    return problems


def registry(source, build):
    """One line per disagreement; the lessons left out at configure time (left_out) are checked
    for what does not need their programs: manifest, folders, page, ladder, course map."""
    problems = []
    absent = left_out(source, build)
    folders = lesson_folders(source)
    manifests = {row[0]: row[:4] for row in manifest_rows(build)}
    programs_of = lesson_programs(build)
    for lesson in folders:
        if lesson not in manifests:
            problems.append(f"lessons/{lesson}: no workbook_lesson_manifest in its CMakeLists.txt")
    for lesson in manifests:
        if lesson not in folders:
            problems.append(f"a manifest names {lesson}, which has no folder under lessons/")
    readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    mainpage = open(os.path.join(source, "docs", "mainpage.md"), encoding="utf-8").read()
    ladder = {m.group(2): (m.group(1), m.group(3).strip())
              for m in re.finditer(r"^\| (\d\d) \| `([0-9a-z-]+)` \| (.*?) \|$", readme, re.M)}
    course_map = {m.group(1): m.group(0)
                  for m in re.finditer(r"^\| \\subpage lesson(\d\d) \| .*\|$", mainpage, re.M)}
    instructors = open(os.path.join(source, "docs", "instructors.md"), encoding="utf-8").read()
    needs_table = {m.group(1): m.group(0)
                   for m in re.finditer(r"^\| \\ref lesson(\d\d) \| .*\|$", instructors, re.M)}
    for lesson, (_, teaches, learn, needs) in sorted(manifests.items()):
        number = lesson[:2]
        if not os.path.isdir(os.path.join(source, "solutions", lesson)):
            problems.append(f"{lesson}: no solutions/{lesson}/ folder")
        if not os.path.isfile(os.path.join(source, "docs", "lessons", lesson + ".md")):
            problems.append(f"{lesson}: no page docs/lessons/{lesson}.md")
        has_runs = machine_files(source, lesson + "*.csv")
        if has_runs and not glob.glob(os.path.join(source, "plots", lesson + "*.gp")):
            problems.append(f"{lesson}: a benchmark ({os.path.relpath(has_runs[0], source)}) but no chart "
                            f"plots/{lesson}*.gp")
        if lesson not in ladder:
            problems.append(f"README.md: the ladder has no row for {lesson}")
        elif ladder[lesson] != (number, teaches):
            problems.append(f"README.md: the ladder's row for {lesson} says '{ladder[lesson][1]}', "
                            f"its manifest's TEACHES '{teaches}' (scripts/maintainer/lint-lessons.py sync . BUILD "
                            "writes it)")
        row = course_map_row(lesson, learn, needs_cell(needs, programs_of.get(lesson, [])))
        if number not in course_map:
            problems.append(f"docs/mainpage.md: the course map has no row for lesson{number}")
        elif lesson in absent and not needs:
            pass  # its cell comes from its programs' kinds, which are not in this build
        elif course_map[number] != row:
            problems.append(f"docs/mainpage.md: the course map's row for lesson{number} is '{course_map[number]}', "
                            f"its manifest says '{row}' (scripts/maintainer/lint-lessons.py sync . BUILD writes it)")
        programs = programs_of.get(lesson, [])
        row = instructors_row(lesson, programs, needs_cell(needs, programs))
        if number not in needs_table:
            problems.append(f"docs/instructors.md: the table of what each lesson needs has no row for lesson{number}")
        elif lesson in absent:
            pass  # the row names its programs, which are not in this build
        elif needs_table[number] != row:
            problems.append(f"docs/instructors.md: the row for lesson{number} is '{needs_table[number]}', its "
                            f"manifest says '{row}' (scripts/maintainer/lint-lessons.py sync . BUILD writes it)")
    for lesson in ladder:
        if lesson not in manifests:
            problems.append(f"README.md: the ladder lists {lesson}, which has no manifest")
    problems += min_cc_problems(source, build, absent)
    which_gpu = open(os.path.join(source, WHICH_GPU_PAGE), encoding="utf-8").read()
    found_rows = re.findall(WHICH_GPU_ROW, which_gpu, re.M)
    expected = which_gpu_rows(source, build)
    if [row.rstrip("\n") for row in found_rows] != expected:
        missing = [row for row in expected if row + "\n" not in found_rows]
        problems.append(f"{WHICH_GPU_PAGE}: its table is not what the manifests, data/gpus.csv and the committed "
                        f"runs say (first row that differs: '{(missing or expected)[0]}'; "
                        "scripts/maintainer/lint-lessons.py sync . BUILD writes it)")
    programs = program_ids(build)
    rooflines = {row[0] for row in read_rows(os.path.join(build, "workbook-rooflines.txt"), 1)}
    for program in sorted(rooflines - set(programs)):
        if not lesson_of(program, absent):
            problems.append(f"ROOFLINE names {program}, which is no program of the course")
    for program in sorted(programs):
        for path in machine_files(source, program + ".csv"):
            name = os.path.relpath(path, source)
            placed = placeable_rows(bench_csv.read(path))
            if placed and program not in rooflines:
                problems.append(f"{program}: its reference run ({name}) has {placed} rows the roofline places, "
                                "but its manifest's ROOFLINE does not name it")
            if not placed and program in rooflines:
                problems.append(f"{program}: ROOFLINE names it, but its reference run ({name}) has no row the "
                                "roofline can place (FP64 or FP32 work with a positive intensity, and the run's "
                                "roofs): its chart would show the roofs alone")
    for program, _, goal, stretch, timed in read_rows(os.path.join(build, "workbook-speed-goals.tsv"), 5):
        if programs.get(program) != "gpu" and not lesson_of(program, absent):
            problems.append(f"SPEED_GOAL names {program}, which is no GPU program of the course")
        if timed not in ("kernel", "with-transfers"):
            problems.append(f"SPEED_GOAL of {program}: timed is '{timed}', not kernel or with-transfers")
        try:
            if not 0 < float(goal) <= float(stretch):
                problems.append(f"SPEED_GOAL of {program}: the goal must be above 0 and at most the stretch")
        except ValueError:
            problems.append(f"SPEED_GOAL of {program}: goal and stretch must be numbers")
    problems += challenge_problems(build)
    found_checks = [row.rstrip("\n") for row in re.findall(SPEED_CHECK_ROW, which_gpu, re.M)]
    if found_checks != speed_check_table(source, build):
        problems.append(f"{WHICH_GPU_PAGE}: its table of speed checks is not what the manifests' SPEED_CHECK and "
                        "the lessons' bounds say (scripts/maintainer/lint-lessons.py sync . BUILD writes it)")
    problems += speed_check_problems(source, build, absent)
    return problems + reference_data(source, build, absent)


def challenge_problems(build):
    """Each CHALLENGE names a program with a SPEED_GOAL (its rows are the ones measured) and a
    positive fraction of the ceiling; each lesson with a speed goal has a challenge."""
    problems = []
    goals = {row[0] for row in read_rows(os.path.join(build, "workbook-speed-goals.tsv"), 5)}
    challenged = set()
    for program, fraction in read_rows(os.path.join(build, "workbook-challenges.tsv"), 2):
        challenged.add(program)
        if program not in goals:
            problems.append(f"CHALLENGE names {program}, which has no SPEED_GOAL (its rows are the challenge's)")
        try:
            if not float(fraction) > 0:
                problems.append(f"CHALLENGE of {program}: the fraction of the ceiling must be above 0")
        except ValueError:
            problems.append(f"CHALLENGE of {program}: the fraction of the ceiling must be a number")
    for lesson in sorted({program[:2] for program in goals}):
        if not any(program[:2] == lesson for program in challenged):
            problems.append(f"lesson {lesson}: its manifest has a SPEED_GOAL but no CHALLENGE (an open goal per lesson)")
    return problems


KINDS = re.compile(r"(^|/)(CMakeLists\.txt|[^/]*driver[^/]*\.(cu|cpp)|kernels/.*|harness/.*|testdata/.*|"
                   r"[^/]*\.(h|cuh))$")


# A string literal of C++/CUDA code (its comments left out by code_text below).
STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
LESSON_NUMBER = re.compile(r"\b[Ll]esson \d\d\b")
HINTS_LINE = re.compile(r'Hints: docs page "Lesson (\d\d)[^"]*", or +scripts/progress hint ([0-9a-z.-]+)')


def code_text(text):
    """C++/CUDA source without its comments (string literals kept), line breaks kept."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
    return pattern.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else re.sub(r"[^\n]", " ", m.group(0)), text)


def stale_names(relative, folder, lessons, text):
    """A lesson's code names its lesson only through the build (wb::kLessonName, wb::program_name(),
    wb::lesson_heading(), wb::lesson_hints(): WORKBOOK_LESSON), so that a copied or renumbered
    lesson prints its own name: no "Lesson NN" or "lesson NN" and no lesson's folder name in a
    string literal; and its exercise files' "Hints:" line names its own page and hints."""
    problems = []
    for number, line in enumerate(code_text(text).split("\n"), 1):
        for literal in STRING_LITERAL.findall(line):
            if LESSON_NUMBER.search(literal):
                problems.append(f"{relative}:{number}: \"Lesson NN\" typed in a string: print wb::lesson_heading(), "
                                "wb::kLessonName or wb::lesson_hints(), or name another lesson by its subject")
            for lesson in lessons:
                if re.search(r"(?<![0-9A-Za-z-])" + re.escape(lesson) + r"(?![0-9A-Za-z-])", literal):
                    problems.append(f"{relative}:{number}: the lesson's name {lesson} typed in a string: use "
                                    "wb::kLessonName or wb::program_name() (wb/lesson_name.h)")
    for hint in HINTS_LINE.finditer(text):
        if hint.group(1) != folder[:2] or hint.group(2).split(".")[0] != folder:
            problems.append(f"{relative}: its Hints line names lesson {hint.group(1)} and {hint.group(2)}, "
                            f"not {folder} (a line copied from another lesson?)")
    return problems


# The tables beside a lesson's CMakeLists.txt that other tools read (CONTRIBUTING.md, "Adding a lesson").
LESSON_TABLES = ("bad-inputs.tsv", "counters.tsv", "allowed-skips.tsv")


def kind_of(relative, exercise_files, built):
    """What a file of a lesson folder is (relative to lessons/), or None: an exercise, the driver,
    a kernel, a header, the harness, test data, a table, or a source its CMakeLists.txt builds."""
    if relative in exercise_files:
        return "exercise"
    if KINDS.search(relative):
        return "code"
    if os.path.basename(relative) in LESSON_TABLES:
        return "table"
    if re.search(r"\.(cu|cpp)$", relative) and relative.split("/", 1)[1] in built:
        return "source"
    return None


def built_sources(cmake):
    """The .cu and .cpp paths that a lesson's CMakeLists.txt names (comments left out)."""
    if not os.path.exists(cmake):
        return set()
    with open(cmake, encoding="utf-8") as f:
        return set(re.findall(r"[\w./-]+\.(?:cu|cpp)\b", re.sub(r"#[^\n]*", "", f.read())))


def fixed_width_without_cstdint(relative, text):
    """A header (.h, .cuh) that names std::uint64_t and its kin includes <cstdint> itself: another
    standard header may bring it in with one host compiler and not with the next (one did with
    Debian 12's GCC 12 and not on the GPU machine). Other files: no problem."""
    if not re.search(r"\.(cuh|h)$", relative):
        return []
    used = re.search(r"\bstd::u?int(8|16|32|64)_t\b", code_text(text))
    if used and not re.search(r"^\s*#\s*include\s*<cstdint>", text, re.M):
        return [f"{relative}: names {used.group(0)} without #include <cstdint>"]
    return []


def shape(source):
    """Problems of the lessons' shape: drivers, names typed, namespace wb, a file of no kind."""
    problems = []
    lessons = lesson_folders(source)
    exercise_files = {path.split("/", 1)[1] for path in exercise_list.exercise_files(source)}
    for path in sorted(glob.glob(os.path.join(source, "solutions", "*", "**", "*"), recursive=True)):
        if os.path.isfile(path) and re.search(r"\.(cu|cuh|cpp|h)$", path):
            relative = os.path.relpath(path, source)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            problems += stale_names(relative, relative.split(os.sep)[1], lessons, text)
            problems += fixed_width_without_cstdint(relative, text)
    # The harness prints for every lesson: it names none by number (its unit tests, in
    # common/tests/, feed it lesson names and check what it prints, so they are left out).
    for part in ("src", "include"):
        for path in sorted(glob.glob(os.path.join(source, "common", part, "**", "*"), recursive=True)):
            if os.path.isfile(path) and re.search(r"\.(cu|cuh|cpp|h)$", path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                problems += stale_names(os.path.relpath(path, source), "", [], text)
                problems += fixed_width_without_cstdint(os.path.relpath(path, source), text)
    built = {}
    for path in sorted(glob.glob(os.path.join(source, "lessons", "*", "**", "*"), recursive=True)):
        if not os.path.isfile(path):
            continue
        relative = os.path.relpath(path, os.path.join(source, "lessons")).replace(os.sep, "/")
        folder, name = relative.split("/", 1)[0], os.path.basename(path)
        if folder not in built:
            built[folder] = built_sources(os.path.join(source, "lessons", folder, "CMakeLists.txt"))
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if re.search(r"\.(cu|cuh|cpp|h)$", name):
            problems += stale_names("lessons/" + relative, folder, lessons, text)
        if re.search(r"driver[^/]*\.(cu|cpp)$", name):
            lines = text.count("\n")
            if lines > MAX_DRIVER_LINES:
                problems.append(f"lessons/{relative}: {lines} lines; a driver has at most {MAX_DRIVER_LINES} "
                                "(move harness code to common/ or the lesson's harness/ folder)")
            if re.search(r"^\s*(template\s*<[^>]*>\s*)?__global__\b", text, re.M):
                problems.append(f"lessons/{relative}: a __global__ kernel in a driver (teaching kernels go in "
                                "files of their own)")
        problems += fixed_width_without_cstdint("lessons/" + relative, text)
        if re.search(r"\.(cu|cuh|cpp|h)$", name) and re.search(r"^\s*namespace\s+wb\b", text, re.M):
            problems.append(f"lessons/{relative}: namespace wb inside a lesson (the harness belongs in common/)")
        if kind_of(relative, exercise_files, built[folder]) is None:
            problems.append(f"lessons/{relative}: none of exercise, driver, kernel, header, harness, test data, "
                            f"a table ({', '.join(LESSON_TABLES)}) or a source its CMakeLists.txt builds")
    return problems


# The top of scripts/: the commands students and instructors run, the CMakeLists.txt that registers
# the tests of the scripts, and the folders of the others (tests/: those tests and their data).
STUDENT_COMMANDS = ("check", "gpu-check.sh", "grade", "make-course-zip", "profile", "progress", "setup.sh")
SCRIPT_FILES = STUDENT_COMMANDS + ("CMakeLists.txt",)
SCRIPT_FOLDERS = ("lib", "maintainer", "tests")
# common/ is the C++ library every lesson links (with its CMake rules and programs): no script
# lives there, and common/tests/ holds the library's unit tests, C++ sources alone. A test of a
# script or of the course's CMake rules, and its data, live in scripts/tests/ (a chart's in plots/tests/).
LIBRARY_TEST_SOURCES = re.compile(r"\.(cpp|cu|cuh|h)$")
# Left by Python or npm next to the scripts (git ignores them).
GENERATED = ("__pycache__", "node_modules")
# A tool whose name says it works on the docs or on the charts lives in docs/tools/ or plots/tools/.
HOMES = ((re.compile(r"docs|doxygen|page|site"), "docs/tools/"),
         (re.compile(r"chart|plot|gnuplot|svg|image|\.gpi?$"), "plots/tools/"))
# "check" names the student's check only: scripts/check and the races it also looks for.
CHECK_NAMED = ("scripts/check", "scripts/lib/check-with-races.py")


def tool_files(source, folder):
    """The files under SOURCE/FOLDER (any depth), relative to SOURCE, without generated ones."""
    found = []
    for parent, subfolders, names in os.walk(os.path.join(source, folder)):
        subfolders[:] = sorted(name for name in subfolders if name not in GENERATED)
        found += [os.path.relpath(os.path.join(parent, name), source).replace(os.sep, "/")
                  for name in sorted(names)]
    return found


def layout(source):
    """Where the tools live: one line per tool out of its home."""
    problems = []
    for name in sorted(os.listdir(os.path.join(source, "scripts"))):
        wanted = SCRIPT_FOLDERS if os.path.isdir(os.path.join(source, "scripts", name)) else SCRIPT_FILES
        if name not in wanted and name not in GENERATED:
            folders = ", ".join(folder + "/" for folder in SCRIPT_FOLDERS)
            problems.append(f"scripts/{name}: the top of scripts/ holds only the commands students and "
                            f"instructors run ({', '.join(STUDENT_COMMANDS)}), CMakeLists.txt and the folders "
                            f"{folders} (CONTRIBUTING.md, \"Where the tools live\")")
    for relative in tool_files(source, "common"):
        with open(os.path.join(source, relative), "rb") as f:
            script = f.read(2) == b"#!" or re.search(r"\.(sh|py)$", relative)
        if script or (relative.startswith("common/tests/") and not LIBRARY_TEST_SOURCES.search(relative)):
            problems.append(f"{relative}: common/ holds the C++ library and its unit tests; a test of a script "
                            "or of the course's CMake rules, and its data, live in scripts/tests/ (a chart's in "
                            "plots/tests/: CONTRIBUTING.md, \"Where the tools live\")")
    for relative in tool_files(source, "scripts"):
        for pattern, home in HOMES:
            if pattern.search(os.path.basename(relative)):
                problems.append(f"{relative}: a docs or chart tool, whose home is {home}")
    for relative in tool_files(source, "scripts") + tool_files(source, os.path.join("docs", "tools")) + \
            tool_files(source, os.path.join("plots", "tools")):
        if os.path.basename(relative).startswith("check") and relative not in CHECK_NAMED:
            problems.append(f"{relative}: \"check\" names the student's check only; name a tool by what it "
                            "does (lint-, verify-, validate-: CONTRIBUTING.md)")
    return problems + hand_lists(source)


# The files of code or data that tools read and that may name three lessons or more close together:
# each generated from the lessons, or a test's scenario on particular lessons, with the reason.
HAND_LIST_EXEMPT = {
    "scripts/lib/pristine-exercises.sha256": "written by scripts/maintainer/update-pristine-manifest from "
                                             "the exercise files; workbook.pristine-manifest checks it",
    "scripts/maintainer/lint-lessons.py": "its self-test plants drift in particular lessons (03's sweep, 08's "
                                          "ranks, 05's sources)",
    "scripts/tests/progress-report-test.sh": "a scenario on particular lessons (a CPU failure, a GPU failure, "
                                             "lesson 08's two ranks, the profiling lesson's benchmark)",
    "scripts/tests/progress-where-test.sh": "a scenario on the lessons whose needs differ (08's two GPUs, 13's "
                                            "compute capability)",
}
# Code and data: what a tool reads (prose pages are not lists a tool follows).
CODE_OR_DATA = re.compile(r"(\.(sh|py|cmake|tsv|txt|json|ya?ml|sbatch|gp|sha256)|(^|/)CMakeLists\.txt|"
                          r"^scripts/[a-z-]+|^\.ci/run)$")
# Files owned by one lesson: its folders, page, chart and data.
LESSON_OWNED = re.compile(r"^((lessons|solutions)/\d\d-|docs/lessons/|plots/\d\d-|data/)")


def hand_lists(source):
    """Lists of lessons typed by hand: a file of code or data outside the lessons' own folders that
    names three lessons or more within six lines (comments left out), unless HAND_LIST_EXEMPT says
    why it may. Such a list is what the manifests and the lessons' own tables replace."""
    lessons = lesson_folders(source)
    if not lessons:
        return []
    named = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, lessons)) + r")(?![a-z])")
    problems = []
    folders = ["scripts", "cmake", "common", "docs", "plots", "notebooks", ".ci"]
    files = [f for folder in folders for f in tool_files(source, folder)]
    files += [name for name in ("CMakeLists.txt", "CMakePresets.json") if os.path.exists(os.path.join(source, name))]
    for relative in sorted(files):
        if LESSON_OWNED.search(relative) or not CODE_OR_DATA.search(relative) or relative in HAND_LIST_EXEMPT:
            continue
        try:
            with open(os.path.join(source, relative), encoding="utf-8") as f:
                lines = ["" if re.match(r"\s*(#|//)", line) else line for line in f.read().split("\n")]
        except (UnicodeDecodeError, OSError):
            continue
        names = [set(named.findall(line)) for line in lines]
        for last in range(len(lines)):
            found = set().union(*names[max(0, last - 5):last + 1])
            if len(found) >= 3:
                problems.append(f"{relative}:{last + 1}: names {', '.join(sorted(found))} by hand: a list of "
                                "lessons that renumbering one would break; declare it in the lessons' manifests "
                                "or tables (CONTRIBUTING.md, \"Adding a lesson\") and read it from there")
                break
    return problems


# The page "Which GPU?" and its table's rows, which sync writes and registry checks.
WHICH_GPU_PAGE = os.path.join("docs", "which-gpu.md")
WHICH_GPU_ROW = r"^\| \\ref lesson\d\d \| .*\|\n"


def which_gpu_rows(source, build):
    gpus, parts = read_gpus(source), part_min_cc(build)
    return [which_gpu_row(source, m, parts.get(m[0], []), gpus) for m in manifest_rows(build)]


# The speed checks: each bound a check prints beside a ratio of two times ("(at least %.1fx
# needed)", "(at most %.1fx)", "(at least %.0f%%"), declared in its manifest (SPEED_CHECK) with the
# constant that holds it; docs/which-gpu.md's table "Speed checks" is written from them.
SPEED_BOUND_PRINT = re.compile(r"\((at least|at most) %[-+ .0-9]*f(x|%%)")
SPEED_CHECK_ROW = r"^\| `[0-9a-z-]+` \| \\ref lesson\d\d \| .*\|\n"
SPEED_DEPENDS = {"sm-count": "SM count", "memory-bandwidth": "memory bandwidth", "clock": "clock",
                 "launch-overhead": "launch and block start-up", "cpu-caches": "the CPU's caches (no GPU)"}
CODE_SUFFIXES = (".cu", ".cuh", ".cpp", ".h")


def lesson_code(source, lesson):
    """{path under SOURCE: text} of the code files of lessons/LESSON/ (any depth)."""
    code = {}
    for folder, _, names in os.walk(os.path.join(source, "lessons", lesson)):
        for name in sorted(names):
            if name.endswith(CODE_SUFFIXES):
                path = os.path.join(folder, name)
                code[os.path.relpath(path, source)] = open(path, encoding="utf-8").read()
    return code


def speed_bound(code, constant):
    """[(file, value)]: where the lesson's code sets CONSTANT to a number (`kLeastSpeedup = 1.5`)."""
    pattern = re.compile(rf"\b{re.escape(constant)}\s*=\s*([0-9]+(?:\.[0-9]+)?)\b")
    return [(path, m.group(1)) for path, text in code.items() for m in pattern.finditer(text)]


def speed_check_problems(source, build, absent):
    """Each SPEED_CHECK names a program of its lesson, a constant its code sets once, least or most
    and known dependencies; each lesson prints as many bounds as it declares speed checks."""
    problems, declared = [], {}
    folders = lesson_folders(source)
    programs = program_ids(build)
    for program, constant, bound, _, depends in exercise_list.speed_check_rows(build):
        lesson = lesson_of(program, folders)
        if lesson is None or (program not in programs and lesson not in absent):
            problems.append(f"SPEED_CHECK names {program}, which is no program of the course")
            continue
        declared[lesson] = declared.get(lesson, 0) + 1
        found = speed_bound(lesson_code(source, lesson), constant)
        if len(found) != 1:
            problems.append(f"SPEED_CHECK of {program}: lessons/{lesson}/ sets {constant} to a number "
                            f"{len(found)} times, not once (the bound the table shows)")
        if bound not in ("least", "most"):
            problems.append(f"SPEED_CHECK of {program}: '{bound}' is neither least nor most")
        unknown = [d for d in depends.split(",") if d not in SPEED_DEPENDS]
        if unknown:
            problems.append(f"SPEED_CHECK of {program}: depends on '{','.join(unknown)}', not one of "
                            f"{', '.join(SPEED_DEPENDS)}")
    for lesson in folders:
        printed = [path for path, text in lesson_code(source, lesson).items()
                   for _ in SPEED_BOUND_PRINT.finditer(text)]
        if len(printed) != declared.get(lesson, 0):
            problems.append(f"{lesson}: its code prints {len(printed)} speed bound(s) ({', '.join(printed) or 'none'}), "
                            f"its manifest declares {declared.get(lesson, 0)} SPEED_CHECK (docs/which-gpu.md lists "
                            "each speed check that another GPU may judge otherwise)")
    return problems


def speed_check_table(source, build):
    """The rows of docs/which-gpu.md's table "Speed checks", from the manifests' SPEED_CHECK and
    the bounds the lessons' code sets."""
    rows = []
    for program, constant, bound, ratio, depends in exercise_list.speed_check_rows(build):
        lesson = lesson_of(program, lesson_folders(source)) or program
        found = speed_bound(lesson_code(source, lesson), constant)
        value = found[0][1] if len(found) == 1 else "?"
        words = ", ".join(SPEED_DEPENDS.get(d, d) for d in depends.split(","))
        fewer = "may change it" if "sm-count" in depends.split(",") else "no"
        rows.append(f"| `{program}` | \\ref lesson{lesson[:2]} | {ratio} | at {bound} {value} "
                    f"(`{constant}`) | {words} | {fewer} |")
    return rows


def sync(source, build):
    """Writes the ladder of README.md, the course map of docs/mainpage.md and the instructors' table
    of what each lesson needs (docs/instructors.md) from the manifests."""
    for lesson, why in left_out(source, build).items():
        print(f"error: {lesson} was left out of this build ({why}): its rows would lose its programs; "
              "sync from a build that has every lesson")
        return 2
    manifests = [row[:4] for row in manifest_rows(build)]
    programs_of = lesson_programs(build)
    tables = (("README.md", r"^\| \d\d \| `[0-9a-z-]+` \| .*\|\n", [ladder_row(m[0], m[1]) for m in manifests]),
              (os.path.join("docs", "mainpage.md"), r"^\| \\subpage lesson\d\d \| .*\|\n",
               [course_map_row(m[0], m[2], needs_cell(m[3], programs_of.get(m[0], []))) for m in manifests]),
              (os.path.join("docs", "instructors.md"), r"^\| \\ref lesson\d\d \| .*\|\n",
               [instructors_row(m[0], programs_of.get(m[0], []), needs_cell(m[3], programs_of.get(m[0], [])))
                for m in manifests]),
              (WHICH_GPU_PAGE, WHICH_GPU_ROW, which_gpu_rows(source, build)),
              (WHICH_GPU_PAGE, SPEED_CHECK_ROW, speed_check_table(source, build)))
    for name, pattern, rows in tables:
        path = os.path.join(source, name)
        text = open(path, encoding="utf-8").read()
        found = list(re.finditer(pattern, text, re.M))
        if not found:
            print(f"error: {name} has no table of lessons to write")
            return 2
        start, end = found[0].start(), found[-1].end()
        new_text = text[:start] + "".join(row + "\n" for row in rows) + text[end:]
        if new_text != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new_text)
            print(f"wrote {name}")
    return 0


def report(problems):
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


def without_lesson(build, into, lesson, why):
    """A copy of the build's lists (BUILD/workbook-* and gpu-jobs.txt) into INTO as a configure
    that left LESSON out writes them: no exercise, job or launcher of it; with WHY, its row in
    workbook-left-out.tsv, and without it none (a lesson missing for no reason)."""
    shutil.copytree(build, into, ignore=lambda d, names: [n for n in names if not n.startswith("workbook-")
                                                          and n != "gpu-jobs.txt"])
    for name, keep in (("workbook-exercises.txt",
                        lambda line: not line.strip() or exercise_list.Exercise(line.rstrip("\n")).lesson != lesson),
                       ("gpu-jobs.txt", lambda line: lesson not in line and not line.startswith("mpiexec "))):
        path = os.path.join(into, name)
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if line.startswith("#") or keep(line)]
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(lines))
    path = os.path.join(into, "workbook-left-out.tsv")
    rows = [row for row in read_rows(path, 2) if row[0] != lesson] if os.path.exists(path) else []
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(f"{part}\t{reason}\n" for part, reason in rows + ([[lesson, why]] if why else [])))


def self_test(source, build):
    failures = []
    # Lesson 08 left out of the build under test (no MPI): its cases cannot be planted there.
    absent = left_out(source, build)
    multigpu = "08-sciddicat-multigpu"
    with tempfile.TemporaryDirectory() as folder:
        tree, registry_dir = os.path.join(folder, "src"), os.path.join(folder, "build")
        os.makedirs(os.path.join(tree, "docs"))
        for part in ("lessons", "solutions", "plots", os.path.join("docs", "lessons"),
                     os.path.join("data", "specs")) + \
                tuple(os.path.join("data", name) for name, _ in data_folders(source)):
            shutil.copytree(os.path.join(source, part), os.path.join(tree, part))
        for part in ("README.md", os.path.join("docs", "mainpage.md"), os.path.join("docs", "instructors.md"),
                     WHICH_GPU_PAGE, os.path.join("data", "machines.csv"), os.path.join("data", "gpus.csv")):
            shutil.copy(os.path.join(source, part), os.path.join(tree, part))
        found_machines = machines.read(os.path.join(source, "data"))

        def committed(file, ranks=""):
            """data/FOLDER<ranks>/FILE of the first machine that has it: where a problem is named."""
            return next(f"data/{m.folder}{ranks}/{file}" for m in found_machines
                        if os.path.isfile(os.path.join(tree, "data", m.folder + ranks, file)))
        shutil.copytree(build, registry_dir, ignore=lambda d, names: [n for n in names if not n.startswith("workbook-")
                                                                      and n != "gpu-jobs.txt"])
        shutil.copytree(os.path.join(source, "scripts"), os.path.join(tree, "scripts"),
                        ignore=shutil.ignore_patterns(*GENERATED))

        def planted(name, path, change, check, expected):
            with open(path, encoding="utf-8") as f:
                original = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(change(original))
            found = check()
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            if not any(expected in problem for problem in found):
                failures.append(f"{name}: expected a problem with '{expected}', got {found}")

        readme = os.path.join(tree, "README.md")
        planted("a ladder row missing", readme, lambda t: re.sub(r"^\| 05 \|.*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), "the ladder has no row for 05-column-reduce")
        planted("a lesson missing from the instructors' table", os.path.join(tree, "docs", "instructors.md"),
                lambda t: re.sub(r"^\| \\ref lesson15 \|.*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), "docs/instructors.md: the table of what each lesson needs has no "
                "row for lesson15")
        planted("a lesson missing from the page Which GPU?", os.path.join(tree, WHICH_GPU_PAGE),
                lambda t: re.sub(r"^\| \\ref lesson15 \|.*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{WHICH_GPU_PAGE}: its table is not what the manifests")
        planted("a GPU whose compute capability changed", os.path.join(tree, "data", "gpus.csv"),
                lambda t: re.sub(r"^L4,8\.9,", "L4,7.5,", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{WHICH_GPU_PAGE}: its table is not what the manifests")
        histogram = lesson_named(tree, "histogram")
        planted("a speed check undeclared", os.path.join(registry_dir, "workbook-speed-checks.tsv"),
                lambda t: re.sub(r"^.*\tkMinRateOfCub\t.*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{histogram}: its code prints 2 speed bound(s)")
        planted("a speed check's bound changed", os.path.join(tree, "lessons", histogram, "harness", "problems.h"),
                lambda t: t.replace("kMinRateOfCub = 0.6;", "kMinRateOfCub = 0.7;"),
                lambda: registry(tree, registry_dir), f"{WHICH_GPU_PAGE}: its table of speed checks is not what")
        planted("a speed check's constant missing", os.path.join(registry_dir, "workbook-speed-checks.tsv"),
                lambda t: t.replace("\tkMinRateOfCub\t", "\tkNoSuchBound\t"),
                lambda: registry(tree, registry_dir), "sets kNoSuchBound to a number 0 times, not once")
        naive = lesson_named(tree, "naive-matmul")
        planted("a GPU lesson without MIN_CC", os.path.join(registry_dir, "workbook-lessons.tsv"),
                lambda t: re.sub(rf"^({naive}(\t[^\t\n]*){{4}})\t7\.5\t", r"\1\t\t", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{naive}: a GPU program but no MIN_CC")
        rooflines = os.path.join(registry_dir, "workbook-rooflines.txt")
        profiling = lesson_named(tree, "profiling")
        planted("a program left out of the roofline", rooflines,
                lambda t: "".join(line for line in t.splitlines(True) if line.strip() != profiling),
                lambda: registry(tree, registry_dir), f"{profiling}: its reference run")
        tiled = lesson_named(tree, "tiled-matmul")
        planted("a roofline with no point", rooflines, lambda t: t + f"{tiled}-banks\n",
                lambda: registry(tree, registry_dir), f"{tiled}-banks: ROOFLINE names it")
        jobs = os.path.join(registry_dir, "gpu-jobs.txt")
        planted("the tiled-matmul lesson's sweep undeclared", jobs,
                lambda t: re.sub(rf"^reference {tiled}-sweep .*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{committed(f'{tiled}-sweep.csv')}: no step of "
                "scripts/gpu-check.sh writes it")
        planted("lesson 11's timeline undeclared", jobs,
                lambda t: re.sub(r" --timeline \S+", "", t),
                lambda: registry(tree, registry_dir),
                f"{committed('11-streams-overlap-timeline.csv')}: no step of scripts/gpu-check.sh writes it")
        planted("a reference run other than the committed one", jobs,
                lambda t: re.sub(r"^(reference 15-histogram 15-histogram-solution --bench)$",
                                 r"\1 --sizes 268435456 --kernels 3,4", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{committed('15-histogram.csv')}: its # command: line")
        if multigpu not in absent:
            planted("lesson 08's two-rank run undeclared", jobs,
                    lambda t: re.sub(r"^reference-ranks 08-sciddicat-multigpu .*\n", "", t, flags=re.M),
                    lambda: registry(tree, registry_dir), f"{committed('08-sciddicat-multigpu.csv', 'x2')}: no step of "
                    "scripts/gpu-check.sh writes it")
            planted("lesson 08's scaling run declared on four ranks", jobs,
                    lambda t: re.sub(r"^(reference-ranks 08-sciddicat-multigpu \S+) 2 ", r"\1 4 ", t, flags=re.M),
                    lambda: registry(tree, registry_dir), f"{committed('08-sciddicat-multigpu.csv', 'x2')}: no step of "
                    "scripts/gpu-check.sh writes it")
            planted("a two-rank run other than the committed one", jobs,
                    lambda t: re.sub(r"^(reference-ranks 08-sciddicat-multigpu .*) --full$", r"\1", t, flags=re.M),
                    lambda: registry(tree, registry_dir),
                    f"{committed('08-sciddicat-multigpu.csv', 'x2')}: its # command: line")
        # Where the input was found is no part of the run: the same registry with the runs declared
        # without --data-dir (a build that did not find the tessina grid) or with another folder.
        with open(jobs, encoding="utf-8") as f:
            declared_jobs = f.read()
        data_dir = r" --data-dir \S+"
        for variant, change in (("without --data-dir", lambda t: re.sub(data_dir, "", t)),
                                ("with another --data-dir", lambda t: re.sub(data_dir, " --data-dir /elsewhere", t)),
                                ("with --data-dir added",
                                 lambda t: re.sub(rf"^(reference {lesson_named(tree, 'sciddicat')} \S+ --bench)",
                                                  r"\1 --data-dir /elsewhere", t, flags=re.M))):
            with open(jobs, "w", encoding="utf-8") as f:
                f.write(change(declared_jobs))
            found = [problem for problem in registry(tree, registry_dir) if "sciddicat" in problem]
            if found:
                failures.append(f"reference runs declared {variant}: expected no problem, got {found}")
        with open(jobs, "w", encoding="utf-8") as f:
            f.write(declared_jobs)
        if multigpu not in absent:
            two = committed("08-sciddicat-multigpu.csv", "x2")
            three = os.path.join(tree, os.path.dirname(two)[:-1] + "3")
            os.makedirs(three)
            shutil.copy(os.path.join(tree, two), three)
            found = registry(tree, registry_dir)
            shutil.rmtree(three)
            if not any(f"{os.path.relpath(three, tree)}/08-sciddicat-multigpu.csv: no step of scripts/gpu-check.sh "
                       "writes it" in problem for problem in found):
                failures.append(f"a run of three ranks that no lesson declares: got {found}")
        # Both machines' folders are held to the GPU check: in the reference machine's folder
        # (emptied for the case), a declared run copied from the other machine's is accepted, an
        # undeclared one is not.
        reference_dir = os.path.join(tree, "data", found_machines[0].folder)
        saved = reference_dir + ".saved"
        if os.path.isdir(reference_dir):
            shutil.move(reference_dir, saved)
        os.makedirs(reference_dir)
        sweep = os.path.join(tree, committed(f"{tiled}-sweep.csv"))
        shutil.copy(sweep, reference_dir)
        shutil.copy(sweep, os.path.join(reference_dir, "99-undeclared.csv"))
        found = [p for p in registry(tree, registry_dir) if f"data/{found_machines[0].folder}/" in p]
        shutil.rmtree(reference_dir)
        if os.path.isdir(saved):
            shutil.move(saved, reference_dir)
        wanted = f"data/{found_machines[0].folder}/99-undeclared.csv: no step of scripts/gpu-check.sh writes it"
        if len(found) != 1 or wanted not in found[0]:
            failures.append(f"a file no step writes in the reference machine's folder, beside a declared one: "
                            f"got {found}")
        # Lesson 08 missing from the build's lists: a failure, unless configure says it left it out;
        # then the rest is checked and nothing of lesson 08 is held against the lists.
        for why, expected in (("", True), ("it needs MPI (not found)", False)):
            lists = os.path.join(folder, "without-08" + ("-left-out" if why else ""))
            without_lesson(registry_dir, lists, multigpu, why)
            found = registry(tree, lists)
            if expected and not any("08-sciddicat-multigpu" in problem or "lesson08" in problem for problem in found):
                failures.append(f"lesson 08 missing from the build's lists, not left out: got {found}")
            if not expected and (found or multigpu not in left_out(tree, lists)):
                failures.append(f"lesson 08 left out at configure time: got {found}, left out {left_out(tree, lists)}")
        planted("a counters table no step measures", os.path.join(tree, "lessons", tiled, "counters.tsv"),
                lambda t: re.sub(r"^banks\t.*\n", "", t, flags=re.M),
                lambda: registry(tree, registry_dir), f"{committed(f'{tiled}-banks-counters.csv')}: no step")
        if registry(tree, registry_dir):
            failures.append(f"the registry of an untouched copy: {registry(tree, registry_dir)}")
        driver = os.path.join(tree, "lessons", "01-cpu-matmul", "driver.cpp")
        planted("a 251-line driver", driver, lambda t: t + "\n" * (MAX_DRIVER_LINES + 1 - t.count("\n")),
                lambda: shape(tree), "251 lines")
        planted("a kernel in a driver", driver, lambda t: t + "__global__ void extra() {}\n",
                lambda: shape(tree), "a __global__ kernel in a driver")
        planted("a typed lesson heading", driver, lambda t: t.replace("wb::lesson_heading()", '"Lesson 01"', 1),
                lambda: shape(tree), "\"Lesson NN\" typed")
        planted("a lesson number typed in a harness",
                os.path.join(tree, "lessons", "14-scan-compaction", "harness", "problem.cu"),
                lambda t: t.replace("wb::lesson_hints()", '"See the hints on the lesson 14 page."', 1),
                lambda: shape(tree), "harness/problem.cu:")
        planted("a typed lesson name", driver, lambda t: t.replace("wb::kLessonName", '"01-cpu-matmul"', 1),
                lambda: shape(tree), "the lesson's name 01-cpu-matmul typed")
        other = next(folder for folder in lesson_folders(tree) if folder != profiling)
        planted("a Hints line copied from another lesson", os.path.join(tree, "lessons", profiling, "smooth.cu"),
                lambda t: t.replace(f'"Lesson {profiling[:2]}', f'"Lesson {other[:2]}', 1), lambda: shape(tree),
                "its Hints line names")
        planted("a source its lesson does not build", os.path.join(tree, "lessons", "05-column-reduce", "CMakeLists.txt"),
                lambda t: re.sub(r"(?<![\w/.-])versions\.cu\b", "", t), lambda: shape(tree),
                "lessons/05-column-reduce/versions.cu: none of exercise")
        header = os.path.join(tree, "lessons", "01-cpu-matmul", "matmul_cpu.h")
        planted("namespace wb in a lesson", header, lambda t: t + "namespace wb {}\n",
                lambda: shape(tree), "namespace wb inside a lesson")
        planted("std::uint64_t without <cstdint>", header, lambda t: t + "void seeded(std::uint64_t seed);\n",
                lambda: shape(tree), "matmul_cpu.h: names std::uint64_t without #include <cstdint>")
        for part in ("scripts", "common", os.path.join("docs", "tools"), os.path.join("plots", "tools")):
            shutil.copytree(os.path.join(source, part), os.path.join(tree, part), dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns(*GENERATED))
        if layout(tree):
            failures.append(f"the layout of an untouched copy: {layout(tree)}")
        planted("a lesson number typed in common/", os.path.join(tree, "common", "src", "matmul_harness.cu"),
                lambda t: t.replace("come in the non-square matmul lesson", "are lesson 04", 1),
                lambda: shape(tree), "common/src/matmul_harness.cu:")

        def planted_file(name, relative, expected):
            path = os.path.join(tree, relative)
            with open(path, "w", encoding="utf-8") as f:
                f.write("#!/usr/bin/env bash\n")
            found = layout(tree)
            os.remove(path)
            if not any(expected in problem for problem in found):
                failures.append(f"{name}: expected a problem with '{expected}', got {found}")

        planted_file("a stray file at the top of scripts/", os.path.join("scripts", "stray.sh"),
                     "scripts/stray.sh: the top of scripts/ holds only")
        planted_file("a docs tool under scripts/", os.path.join("scripts", "maintainer", "build-docs.sh"),
                     "scripts/maintainer/build-docs.sh: a docs or chart tool, whose home is docs/tools/")
        planted_file("a chart tool under scripts/", os.path.join("scripts", "lib", "render-chart.sh"),
                     "scripts/lib/render-chart.sh: a docs or chart tool, whose home is plots/tools/")
        planted_file("a tool named check-*", os.path.join("plots", "tools", "check-chart-svg.py"),
                     "plots/tools/check-chart-svg.py: \"check\" names the student's check only")
        # A test of a script, a test's data and a script elsewhere in common/.
        for relative in ("common/tests/progress-extra-test.sh", "common/tests/bad-inputs.tsv",
                         "common/programs/run-all"):
            planted_file(relative, os.path.join(*relative.split("/")),
                         f"{relative}: common/ holds the C++ library and its unit tests")
        # A list of lessons typed by hand in a tool (three lessons within six lines).
        planted_list = os.path.join(tree, "scripts", "lib", "every-lesson.sh")
        first, second, third, *others = lesson_folders(tree)
        with open(planted_list, "w", encoding="utf-8") as f:
            f.write(f"#!/usr/bin/env bash\n# a comment naming {' '.join(others[:3])}\n"
                    f"for lesson in {first} {second}\\\n  {third}; do :; done\n")
        found = layout(tree)
        os.remove(planted_list)
        if not any(p.startswith(f"scripts/lib/every-lesson.sh:4: names {first}, {second}, {third} by hand")
                   for p in found):
            failures.append(f"a list of lessons typed in a script: expected it found on line 4, got {found}")
    for failure in failures:
        print(f"FAILED: {failure}")
    if failures:
        return 1
    if multigpu in absent:
        print(f"SKIP: {multigpu} was left out of this build ({absent[multigpu]}): the drifts of its runs were not "
              "planted; every other planted drift was found")
        return SKIPPED
    print("OK: each planted drift was found")
    return 0


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    if args[0] == "registry" and len(args) == 3:
        problems = registry(args[1], args[2])
        absent = left_out(args[1], args[2])
        if not problems and absent:
            for lesson, why in sorted(absent.items()):
                print(f"SKIP: {lesson} was left out at configure time ({why}): its programs and reference "
                      "runs were not checked; the rest agrees with the manifests")
            return SKIPPED
        if not problems:
            print(f"OK: {len(lesson_folders(args[1]))} lessons, every list agrees with their manifests")
        return report(problems)
    if args[0] == "shape" and len(args) == 2:
        problems = shape(args[1])
        if not problems:
            print("OK: every driver is short and holds no kernel; no lesson opens namespace wb or types its name; "
                  "every file of a lesson folder has its kind; every header includes <cstdint> where it needs it")
        return report(problems)
    if args[0] == "layout" and len(args) == 2:
        problems = layout(args[1])
        if not problems:
            print("OK: every tool lives in its home; only the student's check is named check")
        return report(problems)
    if args[0] == "sync" and len(args) == 3:
        return sync(args[1], args[2])
    if args[0] == "self-test" and len(args) == 3:
        return self_test(args[1], args[2])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
