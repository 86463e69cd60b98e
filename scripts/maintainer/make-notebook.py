#!/usr/bin/env python3
"""make-notebook.py [--check]: writes notebooks/course.ipynb, the course in a hosted notebook.

The notebook's cells are written here, as plain Python (no IPython magics, so that
scripts/lib/run-notebook.py can run them without Jupyter). Edit them here and run this script;
--check fails (exit 1) when the committed notebook differs from what this script writes.
Cell tags: "install" (installs packages: needs root and a network), "course" (gets the course),
"restore" (reads back a saved zip of your edits).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.path.join(ROOT, "notebooks", "course.ipynb")

CELLS = [
    ("markdown", [], r"""# cuda-workbook in a hosted notebook

This notebook runs the course on any Jupyter that has an NVIDIA GPU and the CUDA toolkit: Google
Colab, Kaggle, a university JupyterHub. Run the cells from top to bottom (Shift+Enter). Every
cell stops with a red error when something fails, and says what to do.

**On Colab**: first *Runtime → Change runtime type → GPU*. The notebook builds the course for the
GPU it finds, and shows the page of the lesson you choose, which explains its exercise; it runs
the same commands as the README: `scripts/check LESSON`, `scripts/progress`. Running the cells
shows no hint: when you are stuck, `hint()` reveals the next one (the hints cell says how).

**Opened on its own** (uploaded to the host, not from a clone of the course), the notebook needs
the course beside it, one of two ways (the course's page *No GPU? Use a hosted notebook* says
more):

1. Upload a zip of the course: `scripts/make-course-zip` in a clone of it writes
   `cuda-workbook.zip`, or take the repository host's *Download ZIP*. On Colab: the folder icon on
   the left, then the upload button. On Kaggle: *Add Input → Upload*, a dataset (Kaggle puts it in
   `/kaggle/input/`). On a JupyterHub: the file browser's upload button, next to this notebook.
   The cells below find it and unpack it.
2. Or let the cells below clone the course's git repository: its address is in the first code
   cell (your instructor's, from the course's `course.json`); a host with network access, as
   Colab has, clones it."""),
    ("code", ["setup"], r"""# Where the course comes from when this notebook is opened on its own: an uploaded zip of
# the course (nothing to set), or the course's git repository, whose address is written here from
# the course's course.json (scripts/maintainer/make-notebook.py). An address on example.org is
# the unset default: no course lies there, so the cells below do not clone it.
from urllib.parse import urlsplit
COURSE_URL = "@COURSE_URL@"
CAN_CLONE = not (urlsplit(COURSE_URL).hostname or "example.org").endswith(("example.org", "example.com", "example.net"))
print("course repository:", COURSE_URL if CAN_CLONE else "none set (the default of course.json): upload the course's zip")"""),
    ("code", ["setup"], r"""# Helpers: run a shell command, show its output as it comes, stop if it fails.
import os, pathlib, shutil, subprocess, sys

def sh(command, cwd=None, check=True):
    print(f"$ {command}", flush=True)
    process = subprocess.Popen(command, shell=True, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        print(line, end="", flush=True)
    code = process.wait()
    if check and code != 0:
        raise RuntimeError(f"'{command}' failed (exit code {code}): the lines above say why")
    return code

def output_of(command):
    result = subprocess.run(command, shell=True, capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""

print("helpers ready")"""),
    ("code", ["setup"], r"""# What does this machine have? Each missing piece comes with what to do.
gpu = output_of("nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader")
nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else "")
cmake_version = output_of("cmake --version").split("\n")[0].replace("cmake version ", "")
HAVE_GPU = bool(gpu)
missing = []
print("GPU:    ", gpu or "none")
if not HAVE_GPU:
    print("  -> no GPU runtime. On Colab: Runtime -> Change runtime type -> a GPU, then run the cells "
          "again. Without a GPU only lesson 01 and the CPU programs can be checked; GPU checks say "
          "SKIPPED, never PASSED.")
print("nvcc:   ", nvcc or "none")
if not nvcc:
    missing.append("the CUDA toolkit (nvcc)")
    print("  -> install NVIDIA's CUDA toolkit (Colab and Kaggle GPU images have it in /usr/local/cuda)")
elif not shutil.which("nvcc"):
    os.environ["PATH"] = os.path.dirname(nvcc) + os.pathsep + os.environ["PATH"]
parts = [int(p) for p in cmake_version.split(".")[:2] if p.isdigit()]
print("cmake:  ", cmake_version or "none")
if not parts or parts < [3, 25]:
    missing.append("CMake 3.25 or newer")
    print("  -> the next cell installs it (pip install cmake)")
for tool, package in (("ninja", "ninja-build"), ("gnuplot", "gnuplot-nox")):
    found = shutil.which(tool)
    print(f"{tool}:", " " * (7 - len(tool)), found or "none")
    if not found:
        missing.append(package)
        print(f"  -> the next cell installs {package}" + (" (charts are left out without it)" if tool == "gnuplot" else ""))
MISSING = missing
print("missing:", ", ".join(missing) if missing else "nothing")"""),
    ("code", ["install"], r"""# Install what the previous cell found missing (needs root, as on Colab and Kaggle).
apt = [p for p in MISSING if p in ("ninja-build", "gnuplot-nox")]
if apt:
    sh("apt-get update -qq && apt-get install -y -qq " + " ".join(apt))
if "CMake 3.25 or newer" in MISSING:
    sh(f"{sys.executable} -m pip install --quiet 'cmake>=3.25'")
if "the CUDA toolkit (nvcc)" in MISSING:
    raise RuntimeError("no CUDA toolkit: pick a GPU runtime (it comes with the toolkit) and run the notebook again")
print("installed:", ", ".join(apt) or "nothing from apt", "| cmake:", output_of("cmake --version").split("\n")[0])"""),
    ("code", ["course"], r"""# Get the course, from the first of: the clone this notebook was opened from; the course
# in a host's input folder (Kaggle unpacks a dataset's zip into /kaggle/input/<dataset>/, read-only:
# copied here); a zip of it (cuda-workbook.zip from scripts/make-course-zip, or a repository host's
# "Download ZIP", cuda-workbook-main.zip) uploaded next to the notebook or in the input folder,
# unpacked here; a clone of COURSE_URL (the first code cell).
import zipfile
here = pathlib.Path.cwd()
INPUT = pathlib.Path(globals().get("INPUT_FROM_RUNNER", "/kaggle/input"))

def is_course(folder):
    return (folder / "scripts" / "progress").is_file() and (folder / "CMakeLists.txt").is_file()

def make_scripts_executable(folder):
    # A host's unpacking may drop the files' modes: a file that starts with "#!" is a command.
    for path in folder.rglob("*"):
        if path.is_file() and not os.access(path, os.X_OK) and path.open("rb").read(2) == b"#!":
            path.chmod(path.stat().st_mode | 0o111)

def place(found, target):
    # Into a folder beside the target first, renamed once complete: an interrupted unpacking or
    # copy leaves no half course behind. `found` is a zip or a folder that holds the course.
    if target.exists():
        raise RuntimeError(f"{target} is in the way and holds no course: delete it, then run this cell again")
    unpacking = target.with_name(target.name + ".unpacking")
    shutil.rmtree(unpacking, ignore_errors=True)
    try:
        if found.is_dir():
            shutil.copytree(found, unpacking)
        else:
            with zipfile.ZipFile(found) as archive:
                archive.extractall(unpacking)
                for info in archive.infolist():  # the zip keeps each file's mode
                    mode = (info.external_attr >> 16) & 0o777
                    if mode and (unpacking / info.filename).is_file():
                        os.chmod(unpacking / info.filename, mode)
    except zipfile.BadZipFile:
        shutil.rmtree(unpacking, ignore_errors=True)
        raise RuntimeError(f"{found} is not a zip file: make it again with scripts/make-course-zip and upload it again")
    # The zip's one top folder (cuda-workbook/, or cuda-workbook-main/ from "Download ZIP").
    top = next((c for c in [unpacking, *sorted(unpacking.iterdir())] if is_course(c)), None)
    if top is None:
        shutil.rmtree(unpacking, ignore_errors=True)
        raise RuntimeError(f"{found} does not hold the course: make it with scripts/make-course-zip")
    top.rename(target)
    shutil.rmtree(unpacking, ignore_errors=True)
    make_scripts_executable(target)

def uploads(folder, depth):
    # The courses and the zips of the course under folder, at most depth folders down.
    courses, zips = [], []
    for top, subfolders, names in os.walk(folder):
        top = pathlib.Path(top)
        if is_course(top) or len(top.relative_to(folder).parts) >= depth:
            subfolders.clear()
        courses += [top] if is_course(top) else []
        zips += [top / n for n in names if n.startswith("cuda-workbook") and n.endswith(".zip")]
    return courses, zips

candidates = [here, here.parent, here / "cuda-workbook", pathlib.Path("/content/cuda-workbook")]
COURSE = next((c.resolve() for c in candidates if is_course(c)), None)
source = "the folder this notebook is in"
if COURSE is None:
    courses, zips = uploads(INPUT, 4) if INPUT.is_dir() else ([], [])
    for folder in dict.fromkeys([here, here.parent, pathlib.Path("/content")]):
        zips += sorted(folder.glob("cuda-workbook*.zip")) if folder.is_dir() else []
    # An unpacked course first; else the newest zip (a browser saves a second download as
    # "cuda-workbook (1).zip").
    found = courses[0] if courses else max(zips, key=lambda z: z.stat().st_mtime, default=None)
    if found:
        print("taking the course from", found, flush=True)
        place(found, here / "cuda-workbook")
        COURSE, source = (here / "cuda-workbook").resolve(), str(found)
if COURSE is None and CAN_CLONE:
    sh(f"git clone --depth 1 {COURSE_URL} cuda-workbook", cwd=here)
    if not is_course(here / "cuda-workbook"):
        raise RuntimeError(f"{COURSE_URL} does not hold the course (no scripts/progress): check COURSE_URL in the first code cell")
    COURSE, source = (here / "cuda-workbook").resolve(), COURSE_URL
if COURSE is None:
    raise RuntimeError("the course is not here. Either upload cuda-workbook.zip next to this notebook (make it "
                       "in a clone of the course with scripts/make-course-zip; the file panel on the left "
                       "uploads it; on Kaggle, add it as a dataset: Add Input), or set COURSE_URL in the "
                       "first code cell to the course's git repository; then run this cell again")
os.chdir(COURSE)
print("course in", COURSE, "from", source)"""),
    ("code", ["restore"], r"""# Your edits from an earlier session: upload workbook-edits.zip (made by the last cell) next to
# the course or inside it, and this cell puts them back. Nothing to do the first time.
import zipfile
for saved in (COURSE / "workbook-edits.zip", COURSE.parent / "workbook-edits.zip"):
    if saved.exists():
        zipfile.ZipFile(saved).extractall(COURSE)
        print("restored your edits from", saved)
        break
else:
    print("no workbook-edits.zip: starting from the course as it is")"""),
    ("code", ["setup"], r"""# Choose the lesson (the folder name under lessons/), and read its page: the figures come from
# the course's reference runs. Its hints stay hidden: hint() further down reveals them, one at a
# time, when you ask.
LESSON = globals().get("LESSON_FROM_RUNNER", "02-naive-matmul")
if not (COURSE / "lessons" / LESSON).is_dir():
    raise RuntimeError(f"no lesson '{LESSON}': choose one of " + ", ".join(sorted(p.name for p in (COURSE / "lessons").iterdir())))
page = subprocess.run([sys.executable, "docs/tools/lesson-page-markdown.py", LESSON], capture_output=True, text=True)
if page.returncode != 0:
    raise RuntimeError(f"the page of {LESSON} could not be shown: {page.stderr.strip()}")
try:
    from IPython.display import Markdown, display
    display(Markdown(page.stdout))
except ImportError:
    print(page.stdout)"""),
    ("code", ["setup"], r"""# Build the lesson, for the GPU found above (CMake asks nvidia-smi); without one, for sm_90.
sh("cmake --preset course > configure.log 2>&1 || (tail -n 30 configure.log; false)")
targets = f"{LESSON}-all" + (" charts" if shutil.which("gnuplot") else "")
sh(f"cmake --build build -j {os.cpu_count()} --target {targets}")
print("built", LESSON)"""),
    ("code", ["setup"], r"""# The exercise files of the lesson: open them in the file panel on the left (double-click edits
# them), or paste a whole file into the next cell.
sys.path.insert(0, str(COURSE / "scripts" / "lib"))
import exercise_list  # the course's reader of the build's exercise list
EXERCISE_FILES = [f for e in exercise_list.read_list(str(COURSE / "build")) if e.lesson == LESSON for f in e.files]
for name in EXERCISE_FILES:
    print(f"--- {name} (TODO lines)")
    for number, line in enumerate((COURSE / name).read_text().splitlines(), start=1):
        if "TODO" in line:
            print(f"{number:5}: {line}")"""),
    ("code", ["edit"], r"""# To write an exercise file from here: paste the whole file between the triple quotes and
# name it. Left empty, nothing is written (edit the file in the file panel instead).
EXERCISE_FILE = globals().get("EXERCISE_FILE_FROM_RUNNER", "")
NEW_TEXT = globals().get("NEW_TEXT_FROM_RUNNER", r'''
''')
if NEW_TEXT.strip():
    if EXERCISE_FILE not in EXERCISE_FILES:
        raise RuntimeError(f"EXERCISE_FILE must be one of {EXERCISE_FILES}")
    (COURSE / EXERCISE_FILE).write_text(NEW_TEXT.lstrip("\n"))
    print("wrote", EXERCISE_FILE)
else:
    print("nothing to write")"""),
    ("code", ["check"], r"""# Check the lesson's exercises: rebuild them, run their checks. A failure stops here with the
# first wrong element; SKIPPED means no GPU ran it (your code is not verified).
code = sh(f"scripts/check {LESSON}", check=False)
if code == 77:
    raise RuntimeError("SKIPPED: no GPU ran this check, so your code is NOT verified: choose a GPU runtime")
if code != 0:
    raise RuntimeError("not yet: the lines above name the first wrong element; hint() (further down) reveals a hint")
print("PASSED")"""),
    ("code", ["progress"], r"""# The lesson's exercises at a glance. Once one passes on a GPU, its benchmark runs for the charts,
# then the reference solution's, and the line under it gives your speed against the reference's
# and the roofline. (A lesson not finished yet is not an error of this cell.)
sh("scripts/progress --no-build --no-hint --only " + LESSON, check=False)"""),
    ("code", ["hints"], r"""# Stuck? hint() reveals the next hint of the lesson's exercise, hint("coalescing") of another of
# its programs (the page says which), and your instructor's report counts it as seen. Running
# the cells from the top reveals none: remove the "#" below, or type hint() in a cell, to ask.
def hint(program=""):
    sh(f"scripts/progress hint {LESSON}" + (f".{program}" if program else ""))

# hint()"""),
    ("code", ["charts"], r"""# The lesson's charts: the published reports' numbers, the committed reference runs and your runs.
if shutil.which("gnuplot"):
    sh(f"cmake --build build --target charts > charts.log 2>&1 || (tail -n 20 charts.log; false)")
charts = sorted((COURSE / "build" / "charts").glob(f"{LESSON[:2]}-*.png")) if (COURSE / "build" / "charts").exists() else []
try:
    from IPython.display import Image, display
except ImportError:
    display = None
for chart in charts:
    print(chart.name)
    if display:
        display(Image(filename=str(chart)))
print(f"{len(charts)} chart(s)" if charts else "no charts (gnuplot missing?)")"""),
    ("code", ["save"], r"""# Keep your edits: a zip of lessons/ and your revealed hints. On Colab it downloads; elsewhere
# take workbook-edits.zip from the file panel. Upload it next time and run the restore cell.
import zipfile
with zipfile.ZipFile(COURSE / "workbook-edits.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    for folder in ("lessons", ".workbook"):
        for path in sorted((COURSE / folder).rglob("*")) if (COURSE / folder).exists() else []:
            if path.is_file():
                archive.write(path, path.relative_to(COURSE))
try:
    from google.colab import files
    files.download(str(COURSE / "workbook-edits.zip"))
except ImportError:
    print("saved", COURSE / "workbook-edits.zip")"""),
]


def notebook():
    # The course's address comes from its one setting, course.json (scripts/lib/course_setting.py).
    sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
    import course_setting
    url = course_setting.repository_url(ROOT)
    cells = []
    for kind, tags, text in CELLS:
        text = text.replace("@COURSE_URL@", url)
        cell = {"cell_type": kind, "metadata": {"tags": tags} if tags else {},
                "source": [line + "\n" for line in text.split("\n")]}
        cell["source"][-1] = cell["source"][-1].rstrip("\n")
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "accelerator": "GPU",
            "colab": {"provenance": []},
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 4,
    }


def main():
    text = json.dumps(notebook(), indent=1, ensure_ascii=False) + "\n"
    if sys.argv[1:] == ["--check"]:
        with open(TARGET, encoding="utf-8") as f:
            if f.read() != text:
                print("FAIL: notebooks/course.ipynb differs from scripts/maintainer/make-notebook.py's cells "
                      "(run scripts/maintainer/make-notebook.py)")
                return 1
        print("OK: notebooks/course.ipynb is what make-notebook.py writes")
        return 0
    if sys.argv[1:]:
        print(__doc__)
        return 0 if sys.argv[1:] in (["-h"], ["--help"]) else 2
    os.makedirs(os.path.dirname(TARGET), exist_ok=True)
    # Written whole or not at all: a temporary file beside it, renamed into place once complete.
    temporary = f"{TARGET}.partial.{os.getpid()}"
    try:
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, TARGET)
    except OSError as error:
        if os.path.exists(temporary):
            os.remove(temporary)
        print(f"error: cannot write {os.path.relpath(TARGET, ROOT)}: {error.strerror or error}", file=sys.stderr)
        return 2
    print("wrote", os.path.relpath(TARGET, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
