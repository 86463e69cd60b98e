"""The course's exercises, read one way by every tool (scripts/progress, the mutation tool, the
lesson lint, the notebook maker, the pristine manifest).

Two sources, one rule each:
  - the build's list, <build>/workbook-exercises.txt, which CMake writes from the lessons'
    workbook_lesson() calls (common/cmake/Workbook.cmake, workbook_write_registry): one exercise
    per line, "test id|lesson|program|kind|files|target id", files comma-separated, and
    "|optional" after it for an optional exercise ("going further": workbook_lesson's OPTIONAL),
    which no tool requires for a lesson to be done;
  - the build's speed checks, <build>/workbook-speed-checks.tsv (the manifests' SPEED_CHECK): the
    exercise programs whose checks time their code (speed_check_rows);
  - the exercise files in the tree: a file of lessons/NN-name/ (at any depth) is an exercise file
    when solutions/NN-name/ holds its reference version under the same path.
A lesson is its folder lessons/NN-name/ with a CMakeLists.txt (where its manifest lives); a tool,
a test or a page that names one lesson finds it by its name without the number (lesson_named),
so that it follows the lesson when the lesson is renumbered.

Run as a program, it prints the exercise files of the tree, one a line (for the shell tools);
with --registered BUILD, those of the build's list instead.
"""
import glob
import os
import sys

LIST_NAME = "workbook-exercises.txt"


class Exercise:
    """One row of the build's list."""

    def __init__(self, line):
        fields = line.split("|")
        if len(fields) not in (6, 7) or fields[6:] not in ([], ["optional"]):
            raise ValueError(f"not a row of {LIST_NAME}: {line}")
        self.name, self.lesson, self.program, self.kind, files, self.target_id = fields[:6]
        self.files = [f for f in files.split(",") if f]
        self.optional = fields[6:] == ["optional"]

    def row(self):
        fields = [self.name, self.lesson, self.program, self.kind, ",".join(self.files), self.target_id]
        return "|".join(fields + ["optional"] * self.optional)


def lesson_folders(root, name=None):
    """The lessons' folders NN-name of the tree at root, sorted; with NAME, only those whose name
    without its number is NAME (one, unless two folders hold the same lesson)."""
    folders = sorted(os.path.basename(os.path.dirname(path)) for path in
                     glob.glob(os.path.join(root, "lessons", "[0-9][0-9]-*", "CMakeLists.txt")))
    return [folder for folder in folders if folder[3:] == name] if name else folders


def lesson_named(root, name):
    """The folder NN-NAME of the lesson whose name without its number is NAME, or None."""
    return next(iter(lesson_folders(root, name)), None)


def list_path(build_dir):
    return os.path.join(build_dir, LIST_NAME)


def read_list(build_dir, kind=Exercise):
    """The exercises of the build's list, in its order (each made by `kind`, a class taking the
    line), or None when the course was not configured there."""
    path = list_path(build_dir)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return [kind(line.rstrip("\n")) for line in f if line.strip() and not line.startswith("#")]


SPEED_CHECKS_NAME = "workbook-speed-checks.tsv"


def speed_check_rows(build_dir):
    """[[program, constant, least|most, ratio, depends]]: the exercise programs whose checks time
    their code, one row per speed check (the manifests' SPEED_CHECK, <build>/workbook-speed-checks.tsv);
    [] when the course was not configured there."""
    path = os.path.join(build_dir, SPEED_CHECKS_NAME)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    return [fields + [""] * (5 - len(fields)) for fields in rows]


def checked_by(name, exercises):
    """The exercises that `scripts/progress check NAME` checks: the one so named or, for a lesson's
    name, the lesson's exercises but its optional ones."""
    return [e for e in exercises if (e.name == name or e.lesson == name) and not e.optional] or \
        [e for e in exercises if e.name == name]


def solution_of(exercise_file):
    """solutions/NN-name/... for lessons/NN-name/..."""
    return exercise_file.replace("lessons/", "solutions/", 1)


def exercise_of(solution_file):
    """lessons/NN-name/... for solutions/NN-name/... (which a given file does not have)."""
    return solution_file.replace("solutions/", "lessons/", 1)


def exercise_files(root, lesson=None):
    """The exercise files of the tree (or of one lesson), relative to root, sorted: the files of
    lessons/ whose reference version solutions/ holds under the same path."""
    found = []
    solutions = os.path.join(root, "solutions")
    lessons = [lesson] if lesson else sorted(os.listdir(solutions)) if os.path.isdir(solutions) else []
    for name in lessons:
        for folder, subfolders, files in os.walk(os.path.join(solutions, name)):
            subfolders.sort()
            for file in sorted(files):
                relative = os.path.relpath(os.path.join(folder, file), root).replace(os.sep, "/")
                if os.path.isfile(os.path.join(root, exercise_of(relative))):
                    found.append(exercise_of(relative))
    return found


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print("usage: exercise_list.py [ROOT]: prints the exercise files of the course at ROOT (default: this "
              "course), one a line\n       exercise_list.py --registered BUILD: the exercise files of the build's "
              f"{LIST_NAME}, one a line")
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == "--registered":
        exercises = read_list(sys.argv[2])
        if exercises is None:
            sys.exit(f"exercise_list.py: no {list_path(sys.argv[2])}: configure the course there first")
        for path in dict.fromkeys(f for e in exercises for f in e.files):
            print(path)
        sys.exit(0)
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    for path in exercise_files(root):
        print(path)
