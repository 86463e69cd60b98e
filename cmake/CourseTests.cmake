# The course-wide tests: those of the course as a whole rather than of one lesson, added once every
# lesson, chart and page is known. The top-level CMakeLists.txt includes this module after
# lessons/, plots/ and docs/ and calls workbook_course_tests(); the lessons' own rules are
# common/cmake/Workbook.cmake's (WORKBOOK_TOOLS_DIR and the other folders come from there), and
# the scripts these tests run, with their data, live in scripts/tests/.

# workbook_course_tests(): registers every test below, in the top-level folder of the build.
function(workbook_course_tests)
  _workbook_gpu_limit_tests()
  _workbook_learner_tools()
endfunction()

# ---- A GPU that another job already fills --------------------------------------------------
# The lessons declare their own runs on a full GPU (workbook_full_device_test); here only the test
# of the tool that fills it.
function(_workbook_gpu_limit_tests)
  workbook_expect_error(NAME common.gpu-limits.hold-rejects-bad-fraction MESSAGE "FRACTION must be between 0 and 1"
    COMMAND hold-device-memory 1.5 true LABELS "cpu;unit;common")
endfunction()

# ---- The learner's tools -------------------------------------------------------------------
# Read the build's exercise list, <build>/workbook-exercises.txt (workbook_write_registry):
#   - workbook.pristine-manifest (maintainer): scripts/lib/pristine-exercises.sha256 matches the tree;
#   - workbook.progress-self-test: scripts/progress on lesson 01, untouched and then solved;
#   - workbook.progress-failure-summary and workbook.progress-hints-without-build: a failed
#     check's summary from saved outputs, and the hints on a copy of the course with no build;
#   - workbook.progress-where-to-run and workbook.progress-report: where each exercise can be
#     finished (the table and the course map), and the instructors' JSON report;
#   - workbook.progress-next: the exercise named Next is one this machine can finish, and every
#     skip says why;
#   - workbook.scripts-help: every script under scripts/ answers --help with its usage;
#   - workbook.unbuilt-tests: the GPU check's list of tests a partial build cannot run;
#   - workbook.progress-all-solved and workbook.student-edits-self-test (maintainer): progress
#     over every solved exercise, and a student's edits failing none of the tests;
#   - workbook.grade-class (maintainer): the instructors' grading trusts the exercise files alone;
#   - the bad-input sweep (workbook_bad_input_sweep below);
#   - the docs' revealable hints and the browser test of the site (docs.browser).
function(_workbook_learner_tools)
  if(WORKBOOK_MAINTAINER_TESTS)
    add_test(NAME workbook.pristine-manifest
             COMMAND bash "${WORKBOOK_MAINTAINER_DIR}/update-pristine-manifest" --check "${CMAKE_BINARY_DIR}/workbook-exercises.txt")
    # Skips (77) where an exercise differs from the manifest, a student's edits most likely;
    # fails there with WORKBOOK_STRICT_EXERCISES=1 (CI).
    set_tests_properties(workbook.pristine-manifest PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  endif()

  find_package(Python3 QUIET COMPONENTS Interpreter)
  if(WORKBOOK_MAINTAINER_TESTS AND Python3_Interpreter_FOUND)
    # Exercise and solution differ only inside their marked TODO (or FIX) regions (an edited
    # exercise is checked in its pristine copy from git); the self-test proves that the checker
    # fails on a changed line and on an unmatched marker.
    add_test(NAME workbook.exercise-solution-sync
             COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_MAINTAINER_DIR}/verify-exercise-sync" --root "${PROJECT_SOURCE_DIR}")
    set_tests_properties(workbook.exercise-solution-sync PROPERTIES
      LABELS "maintainer;cpu;workbook" TIMEOUT 60 SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
    add_test(NAME workbook.exercise-sync-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/exercise-sync-self-test.sh"
                     "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/exercise-sync-self-test")
    set_tests_properties(workbook.exercise-sync-self-test PROPERTIES
      LABELS "maintainer;cpu;workbook" TIMEOUT 60 SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
    # The benchmark CSV check (workbook_bench_test) fails on a non-zero exit code, a missing,
    # truncated or empty CSV, a zero time and a missing kernel.
    # A racecheck report (saved from an H100 run of lesson 03 without its second barrier) is told
    # in the student's words: the lines, their source, the missing barrier.
    add_test(NAME workbook.race-report-in-words
             COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-exit.sh" 0
                     "race on shared memory in matmul_tiled.cu: the write on line 26 \\(a_tile.*read on line 31 \\(sum"
                     "${Python3_EXECUTABLE}" "${WORKBOOK_TOOLS_DIR}/check-with-races.py" --explain
                     "${PROJECT_SOURCE_DIR}/scripts/tests/sanitizer-samples/racecheck-missing-barrier.txt"
                     03-tiled-matmul-solution)
    set_tests_properties(workbook.race-report-in-words PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    add_test(NAME workbook.manifest-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/manifest-self-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/manifest-self-test")
    set_tests_properties(workbook.manifest-self-test PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
    add_test(NAME workbook.bench-csv-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/bench-csv-self-test.sh" "${PROJECT_SOURCE_DIR}")
    set_tests_properties(workbook.bench-csv-self-test PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    # The committed runs of every machine (data/machines.csv) are possible on its GPU: the
    # measured roofs agree with the device copy and NVIDIA's peaks within 10%, no kernel is above
    # its roof, and no row's rate is above what the GPU's arithmetic units give at the clock it
    # ran at (per-cycle peak x SMs x clock, data/specs/); the self-test fabricates rows that break
    # each rule.
    add_test(NAME workbook.reference-runs-under-roofs
             COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_MAINTAINER_DIR}/verify-roofs.py" "${PROJECT_SOURCE_DIR}/data")
    add_test(NAME workbook.reference-runs-under-roofs-self-test
             COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_MAINTAINER_DIR}/verify-roofs.py" --self-test
                     "${PROJECT_SOURCE_DIR}/data")
    set_tests_properties(workbook.reference-runs-under-roofs workbook.reference-runs-under-roofs-self-test
                         PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    # The hosted notebook: the committed file is what its generator writes, its runner stops at a
    # failing cell, and its cells run in order in a copy of the course for lesson 01 (the CPU
    # lesson), with the exercise written from the notebook's own cell. On a GPU,
    # scripts/gpu-check.sh runs it for lesson 11 (step "notebook").
    add_test(NAME notebook.matches-generator
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/maintainer/make-notebook.py" --check)
    add_test(NAME notebook.runner-stops-on-error
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/notebook-runner-self-test.sh" "${PROJECT_SOURCE_DIR}")
    add_test(NAME notebook.cpu-lesson
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/notebook-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/notebook-test" 01-cpu-matmul lessons/01-cpu-matmul/matmul_cpu.cpp)
    set_tests_properties(notebook.matches-generator notebook.runner-stops-on-error PROPERTIES
                         LABELS "maintainer;cpu;notebook" TIMEOUT 60)
    set_tests_properties(notebook.cpu-lesson PROPERTIES LABELS "maintainer;cpu;notebook" TIMEOUT 1800 RUN_SERIAL TRUE)
    # The notebook opened on its own, as on a hosted service: an empty folder with only the
    # notebook and the zip that scripts/make-course-zip writes; its cells unpack the zip and run
    # lesson 01 as above.
    add_test(NAME notebook.opened-alone-from-zip
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/notebook-zip-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/notebook-zip-test" 01-cpu-matmul lessons/01-cpu-matmul/matmul_cpu.cpp)
    set_tests_properties(notebook.opened-alone-from-zip PROPERTIES LABELS "maintainer;cpu;notebook" TIMEOUT 1200
                         RUN_SERIAL TRUE)
    # Running the notebook's cells reveals no hint: only hint(), which no cell calls, asks for one
    # (and is counted in the instructor's report); notebook.cpu-lesson runs them all to prove it.
    add_test(NAME notebook.hints-only-on-request
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/notebook-hints-test.py"
                     "${PROJECT_SOURCE_DIR}")
    set_tests_properties(notebook.hints-only-on-request PROPERTIES LABELS "maintainer;cpu;notebook" TIMEOUT 60)
    # The notebook opened on its own finds the course where a host puts an upload: Kaggle's
    # read-only input folder, unpacked (a "Download ZIP" folder, cuda-workbook-main/, its modes
    # lost) or as the zip; with nothing uploaded and no address set, it asks for the zip.
    add_test(NAME notebook.course-from-input
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/notebook-input-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/notebook-input-test")
    set_tests_properties(notebook.course-from-input PROPERTIES LABELS "maintainer;cpu;notebook" TIMEOUT 300)
    # Every lesson builds for each compute capability it claims (its manifest's MIN_CC and those of
    # data/gpus.csv above it; the files its OLDER_GPUS names from 7.5), proven by the fatbinaries
    # (docs/which-gpu.md). Lesson 08's headers need MPI's and NCCL's folders (cache variables of
    # its configure: empty where it was left out, and then the test skips).
    set(arch_includes "")
    foreach(folder IN ITEMS "${MPI_CXX_HEADER_DIR}" "${NCCL_INCLUDE_DIR}")
      if(folder)
        list(APPEND arch_includes "${folder}")
      endif()
    endforeach()
    add_test(NAME workbook.compiles-for-each-gpu
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/gpu-arch-compile.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_CUDA_COMPILER}" "${CMAKE_BINARY_DIR}" ${arch_includes})
    # By default the least, the lesson's MIN_CC and the newest architecture of each file's claim;
    # -DWORKBOOK_ALL_GPU_ARCHS=ON compiles every one (about three times the compilations).
    option(WORKBOOK_ALL_GPU_ARCHS "workbook.compiles-for-each-gpu compiles every claimed architecture" OFF)
    set(arch_set representative)
    if(WORKBOOK_ALL_GPU_ARCHS)
      set(arch_set all)
    endif()
    set_tests_properties(workbook.compiles-for-each-gpu PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 3000
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} RUN_SERIAL TRUE
                         ENVIRONMENT "WORKBOOK_ARCH_SET=${arch_set}")
    # scripts/profile: a clear message where nothing can be measured, the benchmark where the
    # counters are refused, and ncu's numbers read right.
    add_test(NAME workbook.profile-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/profile-self-test.sh" "${PROJECT_SOURCE_DIR}")
    set_tests_properties(workbook.profile-self-test PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    # scripts/progress's speed line: the fraction of the reference, the roof and the goals.
    add_test(NAME workbook.speed-goal-self-test
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/speed-goal-self-test.py" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}")
    set_tests_properties(workbook.speed-goal-self-test PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    # Every list of lessons agrees with the lessons' manifests (workbook_lesson_manifest), every
    # lesson keeps the course's shape, and each planted drift fails (scripts/maintainer/lint-lessons.py).
    set(lint_lessons "${WORKBOOK_MAINTAINER_DIR}/lint-lessons.py")
    add_test(NAME workbook.lesson-registry
             COMMAND "${Python3_EXECUTABLE}" "${lint_lessons}" registry "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}")
    add_test(NAME workbook.lesson-shape COMMAND "${Python3_EXECUTABLE}" "${lint_lessons}" shape "${PROJECT_SOURCE_DIR}")
    add_test(NAME workbook.lesson-registry-self-test
             COMMAND "${Python3_EXECUTABLE}" "${lint_lessons}" self-test "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}")
    # Every tool lives in its home: only the students' and instructors' commands at the top of
    # scripts/, the docs' and the charts' tools under docs/tools/ and plots/tools/.
    add_test(NAME workbook.tool-layout COMMAND "${Python3_EXECUTABLE}" "${lint_lessons}" layout "${PROJECT_SOURCE_DIR}")
    set_tests_properties(workbook.lesson-shape workbook.tool-layout PROPERTIES LABELS "maintainer;cpu;workbook"
                         TIMEOUT 60)
    # The registry reads the build's lists: where configure left a lesson out (lesson 08 without
    # MPI), it checks the rest and skips (label configuration: they need no build).
    set_tests_properties(workbook.lesson-registry workbook.lesson-registry-self-test PROPERTIES
                         LABELS "maintainer;cpu;workbook;configuration" TIMEOUT 60
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  endif()
  # Every tracked C++/CUDA source follows .clang-format (scripts/maintainer/format applies it). Skips
  # without clang-format, except where WORKBOOK_REQUIRE_FORMAT_TEST=1 (CI) makes that a failure.
  add_test(NAME workbook.format COMMAND bash "${WORKBOOK_MAINTAINER_DIR}/format" --check)
  set_tests_properties(workbook.format PROPERTIES LABELS "cpu;workbook" TIMEOUT 300
                       SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  if(Python3_Interpreter_FOUND)
    # What a failed check's summary quotes (the program's own line about what is wrong, then its
    # verdict), read from the saved outputs of scripts/tests/check-outputs/; and the hints of a
    # fresh clone (a copy of the course with no build), whose exercises, read from the lessons,
    # must be those of workbook-exercises.txt.
    add_test(NAME workbook.progress-failure-summary
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/progress-failure-summary-test.py"
                     "${PROJECT_SOURCE_DIR}")
    add_test(NAME workbook.progress-hints-without-build
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-hints-no-build-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/progress-hints-without-build" "${CMAKE_BINARY_DIR}/workbook-exercises.txt")
    # Where each exercise can be finished (the table's column on a machine without a usable GPU,
    # or where a check skipped, and the course map's "Needs a GPU" column) and the instructors'
    # JSON report (--report FILE: every verdict, written whole or not at all), both with a fake
    # CTest, CMake and nvidia-smi on a copy of the course: nothing is built.
    add_test(NAME workbook.progress-where-to-run
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-where-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/progress-where-to-run" "${CMAKE_BINARY_DIR}/workbook-exercises.txt")
    add_test(NAME workbook.progress-report
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-report-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/progress-report" "${CMAKE_BINARY_DIR}/workbook-exercises.txt")
    # The exercise named "Next" is the first unfinished one this machine can finish (without a GPU,
    # never a GPU exercise whose check fails on its CPU part), and every skip printed gives its
    # reason: the same fakes, nothing built.
    add_test(NAME workbook.progress-next
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-next-test.sh" "${PROJECT_SOURCE_DIR}"
                     "${CMAKE_BINARY_DIR}/progress-next" "${CMAKE_BINARY_DIR}/workbook-exercises.txt")
    set_tests_properties(workbook.progress-failure-summary PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 60)
    # Every hint of every lesson page is reachable with `scripts/progress hint`, numbered as the
    # page numbers it (counted against the pages; no build needed).
    add_test(NAME workbook.hints-reachable
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/hints-reachable-test.py"
                     "${PROJECT_SOURCE_DIR}")
    set_tests_properties(workbook.hints-reachable PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 60)
    # Every exercise's page says what the student writes, how long it takes and what the check
    # tries (one block of three items per exercise; no build needed), and the test finds each
    # kind of problem in pages written wrong on purpose.
    add_test(NAME workbook.exercise-blocks
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/exercise-blocks-test.py"
                     "${PROJECT_SOURCE_DIR}")
    add_test(NAME workbook.exercise-blocks-self-test
             COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/scripts/tests/exercise-blocks-test.py" --self-test)
    set_tests_properties(workbook.exercise-blocks workbook.exercise-blocks-self-test
                         PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 60)
    # The lines each lesson's student writes and reads (data/written-lines.tsv) are the tree's.
    add_test(NAME workbook.written-lines
             COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_MAINTAINER_DIR}/count-written-lines.py" --check)
    set_tests_properties(workbook.written-lines PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 60)
    # These four read the build's exercise list and need no build (label configuration); where
    # configure left a lesson out they check the rest and skip.
    set_tests_properties(workbook.progress-hints-without-build workbook.progress-where-to-run workbook.progress-report
                         workbook.progress-next PROPERTIES LABELS "unit;cpu;workbook;configuration" TIMEOUT 180
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  endif()
  # Every script of scripts/ and its folders, docs/tools/ and plots/tools/ answers --help with exit 0 and
  # its usage (one that does not handle --help is never run with it).
  add_test(NAME workbook.scripts-help
           COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/scripts-help-test.sh" "${PROJECT_SOURCE_DIR}")
  set_tests_properties(workbook.scripts-help PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 300)
  # The GPU check's list of tests whose programs a partial build left out.
  add_test(NAME workbook.unbuilt-tests
           COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/unbuilt-tests-test.sh")
  set_tests_properties(workbook.unbuilt-tests PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 60)
  if(Python3_Interpreter_FOUND AND TARGET 01-cpu-matmul-exercise)
    add_test(NAME workbook.progress-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-self-test.sh"
                     "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/progress-self-test")
    # Skips (77) where lesson 01 is edited and its pristine copy cannot be recovered from git.
    set_tests_properties(workbook.progress-self-test PROPERTIES LABELS "unit;cpu;workbook" TIMEOUT 900
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  endif()
  if(WORKBOOK_MAINTAINER_TESTS AND Python3_Interpreter_FOUND AND TARGET 01-cpu-matmul-exercise)
    # A bare scripts/progress (every exercise, as CMake's regular expressions allow) on a copy of
    # the course with every solution written over its exercise: CPU exercises done, GPU ones
    # skipped, never failing. It builds every exercise of the copy: slow, so alone.
    add_test(NAME workbook.progress-all-solved
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/progress-solved-test.sh"
                     "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/progress-all-solved")
    set_tests_properties(workbook.progress-all-solved PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 5400
                         RUN_SERIAL TRUE)
    # A student's edits (lesson 01 solved, in a clone with its history) fail none of the tests that
    # read the exercises: format, pristine manifest, progress self-test, exercise-fails-pristine.
    add_test(NAME workbook.student-edits-self-test
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/student-edits-self-test.sh"
                     "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/student-edits-self-test")
    set_tests_properties(workbook.student-edits-self-test PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 1800
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} RUN_SERIAL TRUE)
    # The instructors' grading (docs/examples/grade-class.sbatch, run without Slurm, and
    # scripts/grade) over students' clones of lesson 01: only their exercise files are graded, in
    # one build of the course; a doctored driver or an exercise linked elsewhere never reads as
    # done, and a failed clone leaves its reason in the student's folder. One configure and
    # lesson 01's build, so alone.
    add_test(NAME workbook.grade-class
             COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/tests/grade-class-test.sh"
                     "${PROJECT_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/grade-class")
    set_tests_properties(workbook.grade-class PROPERTIES LABELS "maintainer;cpu;workbook" TIMEOUT 1800
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} RUN_SERIAL TRUE)
  endif()

  workbook_bad_input_sweep()

  if(TARGET docs)
    if(Python3_Interpreter_FOUND)
      # Lesson pages: each "**Hint N.**" item becomes a <details> block (one click per hint), and
      # every lesson gets previous / course map / next links (docs/tools/docs-learner-pages.py).
      add_custom_target(docs-hints ALL
        COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_DOCS_TOOLS_DIR}/docs-learner-pages.py" "${CMAKE_BINARY_DIR}/docs/html"
        COMMENT "Docs: hints one at a time, previous/next links between lessons")
      add_dependencies(docs-hints docs)
    endif()
    add_test(NAME docs.browser
             COMMAND bash "${WORKBOOK_DOCS_TOOLS_DIR}/browser/verify-site.sh" "${CMAKE_BINARY_DIR}/docs/html")
    set_tests_properties(docs.browser PROPERTIES LABELS "docs;cpu" TIMEOUT 300
                         SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
  endif()
endfunction()

# The bad-input sweep. Two sources, so that lessons merged later are covered automatically:
#  1. common bad arguments applied to every lesson program (the solution build): zero, junk and
#     missing values, an unknown option, a 64x64 block, --repeat 0, and a failing --bench that
#     must not leave a partial --out file;
#  2. the rows of each lesson's lessons/NN-name/bad-inputs.tsv (its programs' own options and
#     input files).
# Every case must end with its exit code and message, without crash, hang or output file.
# One case of the sweep ("name|codes|regex|arg~arg") as test badinput.PREFIX.name on PROGRAM.
# With MODE "refused" the program takes none of the options: the message must name the option.
function(_workbook_sweep_case prefix program lesson case mode)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 codes)
  list(GET parts 2 regex)
  list(GET parts 3 arguments)
  string(REPLACE "~" ";" arguments "${arguments}")
  if(mode STREQUAL "refused")
    list(GET arguments 0 option)
    set(regex "error: .*${option}")
  endif()
  add_test(NAME badinput.${prefix}.${name}
           COMMAND bash "${WORKBOOK_TOOLS_DIR}/bad-input.sh" "${codes}" "${regex}"
                   "${CMAKE_BINARY_DIR}/bad-input/${prefix}.${name}" $<TARGET_FILE:${program}> ${arguments})
  set_tests_properties(badinput.${prefix}.${name} PROPERTIES
    LABELS "badinput;cpu;${lesson}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT 120)
endfunction()

function(workbook_bad_input_sweep)
  set(runner "${WORKBOOK_TOOLS_DIR}/bad-input.sh")
  set(scratch "${CMAKE_BINARY_DIR}/bad-input")
  get_property(exercises GLOBAL PROPERTY WORKBOOK_EXERCISES)
  # case name | accepted exit codes | message regex | arguments ('~' separates them)
  set(cases
    "sizes-zero|2|error: .*--sizes|--sizes~0"
    "sizes-junk|2|error: .*--sizes|--sizes~x"
    "sizes-negative|2|error: .*--sizes|--sizes~-5"
    "sizes-missing|2|error: --sizes[ :]|--sizes"
    "block-missing|2|error: --block[ :]|--block"
    "block-zero|2|error: .*--block|--block~0"
    "repeat-zero|2|error: --repeat|--repeat~0"
    "repeat-missing|2|error: --repeat[ :]|--repeat"
    "seed-junk|2|error: --seed|--seed~-1"
    "out-missing|2|error: --out[ :]|--out"
    "unknown-option|2|error: unknown option|--no-such-option"
    "bench-bad-sizes-no-partial-csv|2|error:|--bench~--sizes~0~--out~@OUT@")
  foreach(entry IN LISTS exercises)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 test_id)
    list(GET fields 1 lesson)
    list(GET fields 3 kind)
    list(GET fields 5 id)
    set(all_cases ${cases})
    if(kind STREQUAL "gpu")
      # A block over 1024 threads: a clear message before any launch (77: no GPU to ask).
      list(APPEND all_cases "block-64x64|2|error: .*block|--block~64x64")
    endif()
    foreach(case IN LISTS all_cases)
      _workbook_sweep_case("${test_id}" ${id}-solution "${lesson}" "${case}" "")
    endforeach()
  endforeach()

  # Programs that are not exercises get the same common cases (each refused with a message that
  # names the option: such a program takes neither sizes, blocks nor benchmarks).
  get_property(refusing GLOBAL PROPERTY WORKBOOK_REFUSES_COMMON_OPTIONS)
  foreach(entry IN LISTS refusing)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 program)
    list(GET fields 1 lesson)
    foreach(case IN LISTS cases)
      _workbook_sweep_case(${program} ${program} ${lesson} "${case}" "refused")
    endforeach()
  endforeach()

  # Each lesson's own table, lessons/NN-name/bad-inputs.tsv: name, program (the target less the
  # lesson's name), arguments, input file content, exit code, message. The rows of a lesson left
  # out at configure time (lesson 08 without MPI or NCCL) report skipped.
  get_property(lessons GLOBAL PROPERTY WORKBOOK_LESSONS)
  file(GLOB tables "${PROJECT_SOURCE_DIR}/lessons/[0-9][0-9]-*/bad-inputs.tsv")
  foreach(table IN LISTS tables)
    get_filename_component(lesson_dir "${table}" DIRECTORY)
    get_filename_component(lesson "${lesson_dir}" NAME)
    file(STRINGS "${table}" rows)
    foreach(row IN LISTS rows)
      if(row MATCHES "^#" OR NOT row MATCHES "^([^\t]+)\t([^\t]+)\t")
        continue()
      endif()
      set(name "${CMAKE_MATCH_1}")
      set(program "${lesson}-${CMAKE_MATCH_2}")
      set(test badinput.${lesson}.${name})
      if(NOT lesson IN_LIST lessons)
        add_test(NAME ${test}
                 COMMAND bash -c "echo 'SKIP: ${program} is not built: lesson ${lesson} was left out at configure time' && exit ${WORKBOOK_SKIP_CODE}")
        set_tests_properties(${test} PROPERTIES
          LABELS "badinput;cpu;${lesson};configuration" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT 30)
        continue()
      endif()
      if(NOT TARGET ${program})
        message(FATAL_ERROR "lessons/${lesson}/bad-inputs.tsv: row '${name}' names '${CMAKE_MATCH_2}', "
                            "but ${lesson} has no target ${program}")
      endif()
      add_test(NAME ${test}
               COMMAND bash "${runner}" --row "${table}" "${name}" "${scratch}/${lesson}.${name}"
                       $<TARGET_FILE:${program}>)
      set_tests_properties(${test} PROPERTIES
        LABELS "badinput;cpu;${lesson}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT 120)
    endforeach()
  endforeach()
endfunction()
