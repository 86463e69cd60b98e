# Helpers that every lesson's CMakeLists.txt uses. A lesson calls workbook_lesson() once and
# may add extra tests with workbook_test(); charts are declared with workbook_chart() in plots/.
# The course-wide tests, added once every lesson is known, are cmake/CourseTests.cmake's.

# Exit code with which a program says "no usable GPU (or input data): skip me".
set(WORKBOOK_SKIP_CODE 77)

# Causes that the checks name, for the tests that expect a check to fail (workbook_lesson's
# PRISTINE_CAUSES, workbook_planted_bug's CAUSE): regexes of one line of wb::print_report.
#   WORKBOOK_CAUSE_POISON         an output never written: an element still holds the NaN that the
#                                 check filled it with ("C[0][0] = -nan (expected 1); 1 of 1 wrong")
#   WORKBOOK_CAUSE_WRONG_ELEMENT  an element named with its value and the value expected
# Each begins with the element's index, so that a name before it says which output: "C${...}".
# (No regex here may hold a semicolon: CMake would split it into two arguments.)
set(WORKBOOK_CAUSE_POISON "\\[[0-9]+\\](\\[[0-9]+\\])* = -?nan \\(expected")
set(WORKBOOK_CAUSE_WRONG_ELEMENT "\\[[0-9]+\\](\\[[0-9]+\\])* = [^ ]+ \\(expected [^)]*\\)")

# Where the course's tools live (CONTRIBUTING.md, "Where the tools live"):
#   WORKBOOK_TOOLS_DIR       scripts/lib/: the helpers that the tests and the build run (a lesson's
#                            CMakeLists.txt uses these), and the modules the commands import;
#   WORKBOOK_MAINTAINER_DIR  scripts/maintainer/: the maintainers' tools;
#   WORKBOOK_DOCS_TOOLS_DIR  docs/tools/: what builds and verifies the docs;
#   WORKBOOK_PLOT_TOOLS_DIR  plots/tools/: what renders and verifies the charts.
set(WORKBOOK_TOOLS_DIR "${CMAKE_CURRENT_LIST_DIR}/../../scripts/lib")
set(WORKBOOK_MAINTAINER_DIR "${CMAKE_CURRENT_LIST_DIR}/../../scripts/maintainer")
set(WORKBOOK_DOCS_TOOLS_DIR "${CMAKE_CURRENT_LIST_DIR}/../../docs/tools")
set(WORKBOOK_PLOT_TOOLS_DIR "${CMAKE_CURRENT_LIST_DIR}/../../plots/tools")

# workbook_lesson(NAME 02-naive-matmul
#                 DRIVER driver.cu            harness shared by exercise and solution (in lessons/NAME)
#                 EXERCISE_FILES kernel.cu    files the learner edits (lessons/NAME) and their
#                                             reference versions (solutions/NAME, same names)
#                 [SOURCES more.cu]           further harness sources (in lessons/NAME)
#                 [VARIANT_SOURCES given.cu]  harness sources that include an exercise file, so
#                                             they are compiled once per variant (a path under
#                                             solutions/, absolute, for given code that holds an
#                                             answer: lesson 14's single-pass kernels); also a
#                                             read-only step that a planted bug replaces
#                 [LIBS CUDA::cublas]
#                 [GPU]                       the lesson needs a GPU (tests labelled gpu, not cpu)
#                 [CHECK_ARGS --check ...]    arguments of the pass/fail check (default: --check)
#                 [SANITIZE_ARGS ...]         a short check run under compute-sanitizer
#                 [BENCH_ARGS ...]            the quick benchmark (default: --bench)
#                 [REFERENCE_RUN_ARGS ...]    the GPU check's reference run of the program, where
#                                             it is not the quick benchmark (workbook_benchmark)
#                 [PROGRAM sub-name]          one of several small programs of the lesson
#                 [NO_BENCH]                  the program has no benchmark
#                 [NO_REFERENCE_RUN]          its benchmark is no reference run of the GPU check:
#                                             another step writes the lesson's data file (the
#                                             profiling lesson's, step profiles)
#                 [SANITIZER_OPTIONS ...]     extra compute-sanitizer options for its runs
#                 [RACECHECK]                 the exercise uses shared memory, barriers or atomics:
#                                             its check also runs racecheck and synccheck on
#                                             SANITIZE_ARGS (scripts/lib/check-with-races.py)
#                 [SPEED_CHECK]               the check times the kernel against a baseline in the
#                                             same process and needs the GPU to itself: ctest runs
#                                             every test that runs it (the checks, the pristine and
#                                             planted copies) alone (RUN_SERIAL)
#                 [OPTIONAL]                  a "going further" exercise (a program of its own): the
#                                             learner's tools count it apart and never require it
#                                             (the "optional" field of workbook-exercises.txt)
#                 PRISTINE_CAUSES file regex [file [SPEED] regex ...])
#                                             for each exercise file, what its check prints when
#                                             that file is left untouched (a regex of one line:
#                                             the poison value of an output never written, the
#                                             first wrong element, a named fault or time limit;
#                                             SPEED before it: a verdict on speed, for a file
#                                             whose untouched code is right but slow). The
#                                             maintainer tests that the untouched exercise fails
#                                             require it (scripts/lib/expect-check-failure.sh);
#                                             configure fails when a file has none
# Builds NAME-exercise and NAME-solution in <build>/bin and registers their checks. The driver
# and SOURCES, identical for both, are compiled once (object library NAME-harness; a lesson
# that adds include folders or definitions to its programs adds them to it too).
# With PROGRAM p the targets are NAME-p-exercise / NAME-p-solution and the tests
# NAME.p.exercise / NAME.p.solution (labels as above): a lesson may call workbook_lesson()
# once per program, each with its own driver and exercise files.
# The names of a lesson's program: ID_VAR names its targets ("02-naive-matmul" or
# "09-bug-gallery-gflops-unit"), TEST_ID_VAR prefixes its tests ("02-naive-matmul" or
# "09-bug-gallery.gflops-unit"). PROGRAM may be empty.
function(_workbook_program_ids lesson program id_var test_id_var)
  if(program)
    set(${id_var} "${lesson}-${program}" PARENT_SCOPE)
    set(${test_id_var} "${lesson}.${program}" PARENT_SCOPE)
  else()
    set(${id_var} "${lesson}" PARENT_SCOPE)
    set(${test_id_var} "${lesson}" PARENT_SCOPE)
  endif()
endfunction()

# _workbook_edited_files(LESSON FILES EDITED_VAR): the exercise FILES of LESSON (paths relative to
# its folder) that differ from scripts/lib/pristine-exercises.sha256, as "lessons/LESSON/FILE"
# (a student's work, most likely). Any change of those files or of the manifest configures the
# build again, so this stays true.
function(_workbook_edited_files lesson files edited_var)
  set(manifest "${PROJECT_SOURCE_DIR}/scripts/lib/pristine-exercises.sha256")
  file(STRINGS "${manifest}" entries REGEX "^[0-9a-f]+  lessons/${lesson}/")
  set(edited "")
  foreach(file IN LISTS files)
    set(path "lessons/${lesson}/${file}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/${path}")
    set(expected "")
    foreach(entry IN LISTS entries)
      if(entry MATCHES "^([0-9a-f]+)  (.*)$" AND CMAKE_MATCH_2 STREQUAL path)
        set(expected "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    file(SHA256 "${PROJECT_SOURCE_DIR}/${path}" actual)
    if(NOT actual STREQUAL expected)
      list(APPEND edited "${path}")
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest}")
  set(${edited_var} "${edited}" PARENT_SCOPE)
endfunction()

# _workbook_pristine_files(LESSON ID FILES DIR_VAR EDITED_VAR MISSING_VAR)
# Where the pristine versions of a program's exercise FILES are (DIR_VAR: the lesson's folder
# while they all match scripts/lib/pristine-exercises.sha256; otherwise a copy in the build folder,
# written by scripts/lib/pristine-exercises.sh from git). EDITED_VAR: the files that differ
# from the manifest (_workbook_edited_files); MISSING_VAR: why some could not be recovered (empty
# when all were).
function(_workbook_pristine_files lesson id files dir_var edited_var missing_var)
  _workbook_edited_files("${lesson}" "${files}" edited)
  list(TRANSFORM files PREPEND "lessons/${lesson}/" OUTPUT_VARIABLE relative)
  set(dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  set(missing "")
  if(edited)
    set(copy "${CMAKE_CURRENT_BINARY_DIR}/${id}-pristine-files")
    file(REMOVE_RECURSE "${copy}")
    execute_process(COMMAND bash "${WORKBOOK_TOOLS_DIR}/pristine-exercises.sh" "${copy}" ${relative}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    set(dir "${copy}/lessons/${lesson}")
    if(NOT rc EQUAL 0)
      string(REPLACE "\n" " " out "${out}")
      set(missing "SKIP: ${out}")
      string(STRIP "${missing}" missing)
    endif()
    string(JOIN ", " shown ${edited})
    if(missing)
      string(REGEX REPLACE "^SKIP: " "" why "${missing}")
      message(STATUS "cuda-workbook: ${shown} edited; the tests that need the pristine copy skip: ${why}")
    else()
      message(STATUS "cuda-workbook: ${shown} edited; the tests that need the pristine copy use one from git")
    endif()
  endif()
  set(${dir_var} "${dir}" PARENT_SCOPE)
  set(${edited_var} "${edited}" PARENT_SCOPE)
  set(${missing_var} "${missing}" PARENT_SCOPE)
endfunction()

# _workbook_show_exercise_warnings(TARGET LESSON FILES): the compiler's output about the exercise
# program TARGET is kept beside each of its object files (OBJECT.warnings, written by the compiler
# launcher scripts/lib/keep-warnings.sh), so that scripts/progress and scripts/check show the
# warnings about the student's files at every run, not only the run that compiled them. Where
# warnings are errors (WORKBOOK_WARNINGS_AS_ERRORS, the check preset), they stay warnings in an
# exercise program whose FILES a student edited (the target property WORKBOOK_WARNINGS_NOT_ERRORS,
# which the top-level CMakeLists.txt reads): the build prints them and goes on, and scripts/check
# shows the same lines, so a warning in the student's own code fails neither. The untouched
# exercises, the solutions and the harness stay strict, and so does every exercise where
# WORKBOOK_STRICT_EXERCISES=1 (CI) requires them untouched.
function(_workbook_show_exercise_warnings target lesson files)
  foreach(language CXX CUDA)
    set(launcher bash "${WORKBOOK_TOOLS_DIR}/keep-warnings.sh")
    get_target_property(given ${target} ${language}_COMPILER_LAUNCHER)
    if(given)
      list(APPEND launcher ${given})  # a launcher of the user's own (ccache) runs inside
    endif()
    set_target_properties(${target} PROPERTIES ${language}_COMPILER_LAUNCHER "${launcher}")
  endforeach()
  if(WORKBOOK_WARNINGS_AS_ERRORS AND NOT "$ENV{WORKBOOK_STRICT_EXERCISES}" STREQUAL "1")
    _workbook_edited_files("${lesson}" "${files}" edited)
    if(edited)
      set_target_properties(${target} PROPERTIES WORKBOOK_WARNINGS_NOT_ERRORS ON)
      string(JOIN ", " shown ${edited})
      message(STATUS "cuda-workbook: ${shown} edited; its compiler warnings are shown, not errors")
    endif()
  endif()
endfunction()

# _workbook_skip_test(NAME MESSAGE): a test that prints MESSAGE and reports "skipped" (exit 77).
function(_workbook_skip_test name message)
  add_test(NAME ${name} COMMAND bash -c "echo \"$1\"; exit ${WORKBOOK_SKIP_CODE}" skip "${message}")
endfunction()

# _workbook_require_lesson_files(LESSON [EXERCISE_FILES file...] [GIVEN NN-name/file...]):
# what the course's rules require beside the folder lessons/LESSON/ (CONTRIBUTING.md, "Adding a
# lesson"), checked before anything reads it: the solution of each exercise file (those named,
# and every file of the folder with a "// >>> TODO" or "// >>> FIX" marker line) and the folder
# solutions/LESSON/, the GIVEN files under solutions/, the page docs/lessons/LESSON.md, and a
# chart plots/LESSON*.gp where a machine's folder of data/ (data/machines.csv) keeps a run of
# the lesson. Configure stops with one line that names the lesson and every missing path, where
# it would otherwise fail later on one file, in CMake's own words.
function(_workbook_require_lesson_files lesson)
  cmake_parse_arguments(R "" "" "EXERCISE_FILES;GIVEN" ${ARGN})
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  set(exercises ${R_EXERCISE_FILES})
  file(GLOB_RECURSE files RELATIVE "${lesson_dir}" "${lesson_dir}/*")
  foreach(file IN LISTS files)
    file(STRINGS "${lesson_dir}/${file}" markers REGEX "^[ \t]*// >>> (TODO|FIX)")
    if(markers)
      list(APPEND exercises "${file}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES exercises)
  set(missing "")
  foreach(file IN LISTS exercises)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${lesson}/${file}")
      list(APPEND missing "solutions/${lesson}/${file} (the solution of lessons/${lesson}/${file})")
    endif()
  endforeach()
  if(NOT missing AND NOT IS_DIRECTORY "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
    list(APPEND missing "solutions/${lesson}/ (the folder of its solutions)")
  endif()
  foreach(file IN LISTS R_GIVEN)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${file}")
      list(APPEND missing "solutions/${file} (a GIVEN file of its manifest)")
    endif()
  endforeach()
  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/docs/lessons/${lesson}.md")
    list(APPEND missing "docs/lessons/${lesson}.md (its page)")
  endif()
  file(GLOB charts "${PROJECT_SOURCE_DIR}/plots/${lesson}*.gp")
  if(NOT charts AND EXISTS "${PROJECT_SOURCE_DIR}/data/machines.csv")
    file(STRINGS "${PROJECT_SOURCE_DIR}/data/machines.csv" machines REGEX "^[^#]")
    list(POP_FRONT machines)  # the header
    foreach(machine IN LISTS machines)
      string(REPLACE "," ";" fields "${machine}")
      list(GET fields 2 folder)
      file(GLOB runs RELATIVE "${PROJECT_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}/data/${folder}/${lesson}*.csv")
      if(runs)
        list(GET runs 0 run)
        list(APPEND missing "plots/${lesson}.gp (its chart, which draws the committed run ${run})")
        break()
      endif()
    endforeach()
  endif()
  if(missing)
    list(JOIN missing "; " missing)
    # The leading space keeps the line whole: CMake wraps a message's paragraphs, not indented ones.
    message(FATAL_ERROR " lesson ${lesson}: missing ${missing}: create them as CONTRIBUTING.md, "
                        "\"Adding a lesson\", says")
  endif()
endfunction()

# _workbook_manifest_rows(LESSON KEYWORD COUNT PROPERTY VALUES): VALUES holds COUNT values per
# program; each group becomes one tab-separated row of the global list PROPERTY.
function(_workbook_manifest_rows lesson keyword count property values)
  list(LENGTH values length)
  math(EXPR rest "${length} % ${count}")
  if(NOT rest EQUAL 0)
    message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: ${keyword} takes ${count} values per program")
  endif()
  while(values)
    list(SUBLIST values 0 ${count} group)
    foreach(i RANGE 1 ${count})
      list(REMOVE_AT values 0)
    endforeach()
    list(JOIN group "\t" row)
    set_property(GLOBAL APPEND PROPERTY ${property} "${row}")
  endwhile()
endfunction()

# _workbook_gpu_needs(LESSON): a macro of workbook_lesson_manifest: checks MIN_CC, GPUS and
# PART_MIN_CC, and for a lesson above the course's floor (7.5) without NEEDS writes its NEEDS and
# WHERE from MIN_CC ("compute capability 8.0 or later", "compute capability 9.0 only").
macro(_workbook_gpu_needs lesson)
  foreach(_wb_cc IN ITEMS ${M_MIN_CC})
    if(NOT _wb_cc MATCHES "^[1-9][0-9]?[.][0-9]$")
      message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: MIN_CC '${_wb_cc}' is no compute capability (x.y)")
    endif()
  endforeach()
  if(M_ARCH_SPECIFIC AND NOT M_MIN_CC)
    message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: ARCH_SPECIFIC goes with MIN_CC")
  endif()
  if(DEFINED M_GPUS AND NOT M_GPUS MATCHES "^[1-9]$")
    message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: GPUS '${M_GPUS}' is not a count of GPUs")
  endif()
  if(NOT M_NEEDS AND M_MIN_CC AND M_MIN_CC VERSION_GREATER 7.5)
    if(M_ARCH_SPECIFIC)
      set(M_NEEDS "compute capability ${M_MIN_CC} only")
    else()
      set(M_NEEDS "compute capability ${M_MIN_CC} or later")
    endif()
    if(NOT M_WHERE)
      set(M_WHERE "a machine whose GPU has ${M_NEEDS} (docs/which-gpu.md names such GPUs)")
    endif()
  endif()
endmacro()

# workbook_lesson_manifest(TEACHES text LEARN text [MIN_CC x.y [ARCH_SPECIFIC]] [PART_MIN_CC part x.y ...]
#                          [GPUS n] [MPI] [NEEDS text] [WHERE text] [GIVEN file...] [ROOFLINE program-id...]
#                          [SPEED_GOAL program-id kernel-regex goal stretch timed ...]
#                          [CHALLENGE program-id fraction ...]
#                          [SPEED_CHECK program-id constant least|most ratio depends ...]):
# the lesson's entry in every list of lessons, called once at the top of its CMakeLists.txt
# (the lesson is the folder's name). TEACHES is its row of the ladder in README.md, LEARN its row
# of the course map in docs/mainpage.md, NEEDS the map's "Needs a GPU" cell where the programs'
# kinds do not say it ("yes", "no", "yes, except *cpu-program*"), which scripts/progress also shows
# for the lesson's GPU exercises, and WHERE the kind of machine that can finish them (both where a
# lesson needs more than one NVIDIA GPU of any kind); `scripts/maintainer/lint-lessons.py
# sync .` writes both tables from the manifests, and workbook.lesson-registry checks them, and
# that the lesson has its solutions/ folder, page and chart. ROOFLINE names the programs whose
# benchmark rows get a roofline chart (plots/CMakeLists.txt); SPEED_GOAL gives scripts/progress
# the rows a student's code runs and the goals against the reference solution ("kernel": rows
# that time the kernel alone; "with-transfers": rows that include host-device copies). CHALLENGE
# gives one of those programs an open goal beyond the reference solution: the fraction of the
# ceiling measured in the same run (each row's ceiling and ratio columns: cuBLAS, a device copy,
# ...) that the student's rows of its SPEED_GOAL should reach; scripts/progress shows it as a line
# of its own, never required for done. SPEED_CHECK declares each speed verdict of a check (a
# ratio of two times measured in the same process, which may differ on another GPU): the program,
# the constant in the lesson's code that holds its bound (`kLeastSpeedup = 1.5`), whether the ratio
# must be at least or at most that, the ratio in words, and what it depends on (a comma-separated
# list of sm-count, memory-bandwidth, clock, launch-overhead, cpu-caches). The table "Speed checks"
# of docs/which-gpu.md is written from them with the constants' values, and
# workbook.lesson-registry fails on a bound the lesson's code prints ("(at least %.1fx") that no
# SPEED_CHECK declares.
# GIVEN names files under solutions/ (as NN-name/file.cu) that the lesson's programs need but a
# student must not read beside an unsolved exercise (they hold an exercise's answer): the first
# workbook_lesson of the lesson builds them into the library NN-name-given, which every program
# of the lesson links (add harness sources to it with target_sources where planted programs
# need them too). A GIVEN file that is also a program's exercise file (an optional step that
# builds on an exercise) is given to the lesson's other programs only (_workbook_given_library).
# MIN_CC is the least compute capability on which the lesson's exercises run (every lesson with
# a GPU program declares it; the course's floor is 7.5, a T4), ARCH_SPECIFIC that its code for
# MIN_CC is architecture-specific (sm_90a: it runs on that compute capability only), PART_MIN_CC a
# part of the lesson (an optional kernel) that needs more than MIN_CC, with what it needs. GPUS is
# how many GPUs the whole lesson needs (default 1), MPI that it needs MPI and NCCL. A lesson above
# the floor without NEEDS gets its NEEDS and WHERE from MIN_CC. workbook.compiles-for-each-gpu
# builds every lesson for each compute capability it claims, and docs/which-gpu.md shows them.
# Everything lands in <build>/workbook-lessons.tsv (lesson, teaches, learn, needs, where, min_cc,
# arch_specific, gpus, mpi), <build>/workbook-part-min-cc.tsv, <build>/workbook-rooflines.txt and
# <build>/workbook-speed-goals.tsv, <build>/workbook-challenges.tsv, <build>/workbook-speed-checks.tsv
# (workbook_write_registry).
function(workbook_lesson_manifest)
  # PARSE_ARGV keeps the semicolons of the texts; they are stored as <semicolon> in the lists.
  cmake_parse_arguments(PARSE_ARGV 0 M "ARCH_SPECIFIC;MPI" "TEACHES;LEARN;NEEDS;WHERE;MIN_CC;GPUS"
                        "ROOFLINE;SPEED_GOAL;CHALLENGE;SPEED_CHECK;GIVEN;OLDER_GPUS;PART_MIN_CC")
  get_filename_component(lesson "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(NOT M_TEACHES OR NOT M_LEARN)
    message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: TEACHES and LEARN are required")
  endif()
  _workbook_gpu_needs(${lesson})
  string(REPLACE ";" "<semicolon>" teaches "${M_TEACHES}")
  string(REPLACE ";" "<semicolon>" learn "${M_LEARN}")
  string(REPLACE ";" "<semicolon>" needs "${M_NEEDS}")
  string(REPLACE ";" "<semicolon>" where "${M_WHERE}")
  if(M_WHERE AND NOT M_NEEDS)
    message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: WHERE goes with NEEDS (or a MIN_CC above 7.5)")
  endif()
  set(arch_specific "")
  if(M_ARCH_SPECIFIC)
    set(arch_specific "yes")
  endif()
  set(mpi "")
  if(M_MPI)
    set(mpi "yes")
  endif()
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_LESSON_MANIFESTS
               "${lesson}\t${teaches}\t${learn}\t${needs}\t${where}\t${M_MIN_CC}\t${arch_specific}\t${M_GPUS}\t${mpi}")
  _workbook_manifest_rows(${lesson} PART_MIN_CC 2 WORKBOOK_PART_MIN_CC_${lesson} "${M_PART_MIN_CC}")
  get_property(parts GLOBAL PROPERTY WORKBOOK_PART_MIN_CC_${lesson})
  foreach(part IN LISTS parts)
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_PART_MIN_CC "${lesson}\t${part}")
  endforeach()
  _workbook_require_lesson_files(${lesson} GIVEN ${M_GIVEN})
  set_property(GLOBAL PROPERTY WORKBOOK_GIVEN_${lesson} "${M_GIVEN}")
  foreach(program IN LISTS M_ROOFLINE)
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_ROOFLINE "${program}")
  endforeach()
  # OLDER_GPUS: files (relative to the lesson's folders) that use newer GPUs' features and must
  # still compile for compute capability 7.5; each is compiled from lessons/ and from solutions/,
  # wherever it exists there (workbook.compiles-for-each-gpu).
  foreach(file IN LISTS M_OLDER_GPUS)
    set(found FALSE)
    foreach(side lessons solutions)
      if(EXISTS "${PROJECT_SOURCE_DIR}/${side}/${lesson}/${file}")
        set_property(GLOBAL APPEND PROPERTY WORKBOOK_OLDER_GPU_FILES "${side}/${lesson}/${file}\t${lesson}")
        set(found TRUE)
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "workbook_lesson_manifest in ${lesson}: OLDER_GPUS names ${file}, which is neither "
                          "in lessons/${lesson}/ nor in solutions/${lesson}/")
    endif()
  endforeach()
  # SPEED_GOAL takes five values per program: id, kernel regex, goal, stretch, timed; CHALLENGE
  # two: id, fraction of the ceiling.
  _workbook_manifest_rows(${lesson} SPEED_GOAL 5 WORKBOOK_SPEED_GOALS "${M_SPEED_GOAL}")
  _workbook_manifest_rows(${lesson} CHALLENGE 2 WORKBOOK_CHALLENGES "${M_CHALLENGE}")
  # SPEED_CHECK five: id, constant, least|most, the ratio in words, what it depends on.
  _workbook_manifest_rows(${lesson} SPEED_CHECK 5 WORKBOOK_SPEED_CHECKS "${M_SPEED_CHECK}")
endfunction()

# workbook_write_registry(): writes the lists the manifests and the lessons declare (after every
# lesson), among them <build>/workbook-exercises.txt, the exercises that scripts/progress reads.
# _workbook_write_rows(PROPERTY FILE [FIRST_LINE]): one row per item, after FIRST_LINE if given.
function(_workbook_write_rows property file)
  get_property(rows GLOBAL PROPERTY ${property})
  set(text "${ARGN}")
  foreach(row IN LISTS rows)
    string(APPEND text "${row}\n")
  endforeach()
  string(REPLACE "<semicolon>" ";" text "${text}")
  file(WRITE "${CMAKE_BINARY_DIR}/${file}" "${text}")
endfunction()

function(workbook_write_registry)
  _workbook_write_rows(WORKBOOK_LESSON_MANIFESTS workbook-lessons.tsv)
  _workbook_write_rows(WORKBOOK_ROOFLINE workbook-rooflines.txt)
  _workbook_write_rows(WORKBOOK_OLDER_GPU_FILES workbook-older-gpu-files.tsv)
  _workbook_write_rows(WORKBOOK_PART_MIN_CC workbook-part-min-cc.tsv)
  _workbook_write_rows(WORKBOOK_SPEED_GOALS workbook-speed-goals.tsv)
  _workbook_write_rows(WORKBOOK_CHALLENGES workbook-challenges.tsv)
  _workbook_write_rows(WORKBOOK_SPEED_CHECKS workbook-speed-checks.tsv)
  _workbook_write_rows(WORKBOOK_LEFT_OUT workbook-left-out.tsv)
  _workbook_write_rows(WORKBOOK_SM90A_LESSONS workbook-sm90a-lessons.txt)
  _workbook_write_rows(WORKBOOK_EXERCISES workbook-exercises.txt
                       "# Generated by CMake for scripts/progress: test_id|lesson|program|kind|files|target id[|optional]\n")
endfunction()

# workbook_left_out(PART WHY): an optional part of the course left out at configure time, because
# what it needs was not found (lesson 08 without MPI or NCCL, the charts without gnuplot, the docs
# without Doxygen or the charts, common/'s unit tests without GoogleTest). PART names it as its
# tests do: a lesson's folder name, "plots", "docs", "common.unit-tests". The test PART.left-out
# reports it skipped (labels cpu and configuration), so that the test summary counts what was not
# tested, never as a pass; and the row "PART<tab>WHY" of <build>/workbook-left-out.tsv lets the tests
# that read the build's lists (scripts/maintainer/lint-lessons.py registry, the progress tests)
# check the rest and skip, where they would otherwise fail on the part missing.
function(workbook_left_out part why)
  message(STATUS "cuda-workbook: ${part} left out: ${why}")
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_LEFT_OUT "${part}\t${why}")
  _workbook_skip_test(${part}.left-out "SKIP: ${part} was left out at configure time: ${why}")
  set_tests_properties(${part}.left-out PROPERTIES LABELS "cpu;configuration;left-out"
                       SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
endfunction()

# workbook_watch_device_calls(): called at the end of a lesson's CMakeLists.txt, after every
# target of the lesson. Its CUDA files are compiled with wb/watched_device_calls.h included first:
# cudaMalloc and cudaMallocPitch fill new blocks with NaN and, with cudaFree and every launch, are
# recorded for the check (wb/device_call_watch.h). __NV_LEGACY_LAUNCH, for the host compiler only,
# makes nvcc's launch code call cudaLaunchKernel, which that header overloads to record the shape.
# COUNT_BARRIERS: every __syncthreads() of those files also counts, once per block, the barriers
# passed while a check runs (wb::DeviceCallWatch::barriers_passed).
function(workbook_watch_device_calls)
  cmake_parse_arguments(PARSE_ARGV 0 arg "COUNT_BARRIERS" "" "")
  get_property(lesson_targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
  foreach(lesson_target IN LISTS lesson_targets)
    get_target_property(lesson_target_type ${lesson_target} TYPE)
    if(lesson_target_type STREQUAL "EXECUTABLE" OR lesson_target_type STREQUAL "OBJECT_LIBRARY")
      target_compile_options(${lesson_target} PRIVATE
        "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--pre-include ${PROJECT_SOURCE_DIR}/common/include/wb/watched_device_calls.h>"
        "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -D__NV_LEGACY_LAUNCH>")
      if(arg_COUNT_BARRIERS)
        target_compile_definitions(${lesson_target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:WB_COUNT_BARRIERS>")
      endif()
    endif()
  endforeach()
endfunction()

# _workbook_given_library(LESSON FILES OUT): in OUT, what a program whose exercise files are FILES
# links of its lesson's GIVEN files: the library NN-name-given of them all (created on first use),
# or nothing when the manifest declares none. A GIVEN file may also be an exercise file of one of
# the lesson's programs (lesson 07's ladder: each kernel from 05 on is the exercise of one program,
# and every program's driver runs them all). Such a program builds its own exercise files from
# lessons/ and solutions/ as every program does, and links each other GIVEN file from an object
# library of that file alone, NN-name-given-STEM (created on first use): never its own answer.
function(_workbook_given_library lesson exercise_files out)
  get_property(files GLOBAL PROPERTY WORKBOOK_GIVEN_${lesson})
  set(${out} "" PARENT_SCOPE)
  if(NOT files)
    return()
  endif()
  set(own FALSE)
  set(others "")
  foreach(file IN LISTS files)
    string(REGEX REPLACE "^${lesson}/" "" relative "${file}")
    if(relative IN_LIST exercise_files)
      set(own TRUE)
    else()
      list(APPEND others "${file}")
    endif()
  endforeach()
  if(NOT own)
    if(NOT TARGET ${lesson}-given)
      _workbook_given_target(${lesson}-given STATIC ${lesson} ${files})
    endif()
    set(${out} ${lesson}-given PARENT_SCOPE)
    return()
  endif()
  set(libraries "")
  foreach(file IN LISTS others)
    get_filename_component(stem "${file}" NAME_WE)
    if(NOT TARGET ${lesson}-given-${stem})
      _workbook_given_target(${lesson}-given-${stem} OBJECT ${lesson} ${file})
    endif()
    list(APPEND libraries ${lesson}-given-${stem})
  endforeach()
  set(${out} ${libraries} PARENT_SCOPE)
endfunction()

# _workbook_given_target(NAME TYPE LESSON FILES...): the library NAME (STATIC or OBJECT) of
# LESSON's GIVEN FILES, each NN-name/file under solutions/, compiled with the folders of LESSON and
# of the lessons they belong to.
function(_workbook_given_target name type lesson)
  set(sources "")
  set(folders "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  foreach(file IN LISTS ARGN)
    list(APPEND sources "${PROJECT_SOURCE_DIR}/solutions/${file}")
    string(REGEX MATCH "^[0-9][0-9]-[^/]+" owner "${file}")
    list(APPEND folders "${PROJECT_SOURCE_DIR}/lessons/${owner}")
  endforeach()
  list(REMOVE_DUPLICATES folders)
  workbook_host_only_sources(${sources})
  add_library(${name} ${type} ${sources})
  target_include_directories(${name} PRIVATE ${folders})
  target_link_libraries(${name} PRIVATE workbook_common)
  set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
endfunction()

# workbook_sm90a_architectures(ARCHS_VAR HAS_VAR): in ARCHS_VAR, CMAKE_CUDA_ARCHITECTURES with
# compute capability 9.0 built as 90a, the architecture-specific target that wgmma and setmaxnreg
# need (its code runs on H100/H200 only); in HAS_VAR, ON when the list has 9.0 (lessons 13 and 16).
# The calling lesson is listed in <build>/workbook-sm90a-lessons.txt: on a compute capability 9.0
# GPU, scripts/gpu-check.sh makes sure that its check runs every kernel.
function(workbook_sm90a_architectures archs_var has_var)
  get_filename_component(lesson "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_SM90A_LESSONS "${lesson}")
  set(archs "")
  set(has OFF)
  foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(arch MATCHES "^90(a)?(-real|-virtual)?$")
      set(arch "90a${CMAKE_MATCH_2}")
      set(has ON)
    endif()
    list(APPEND archs "${arch}")
  endforeach()
  set(${archs_var} "${archs}" PARENT_SCOPE)
  set(${has_var} ${has} PARENT_SCOPE)
endfunction()

# workbook_host_only_sources(FILES...): the .cu files among FILES that hold no device code (no
# kernel, device function, shared memory, launch, .cuh include, Thrust or CUB) are compiled by the
# host compiler alone, which builds such a file in less than half the time nvcc takes: a first
# build of the course on two cores is that much shorter. A file that needs nvcc after all fails
# to compile, loudly. Drivers never hold device code (lint-lessons.py shape).
function(workbook_host_only_sources)
  foreach(file IN LISTS ARGN)
    if(NOT file MATCHES "[.]cu$")
      continue()
    endif()
    file(READ "${file}" text)
    if(NOT text MATCHES "__global__|__device__|__shared__|<<<|[.]cuh\"|thrust/|cub/")
      set_source_files_properties("${file}" PROPERTIES LANGUAGE CXX)
    endif()
  endforeach()
endfunction()

# Runs `test` alone (RUN_SERIAL) when it runs the check of `lesson`, a lesson declared SPEED_CHECK:
# another test sharing the GPU would slow the timed kernel or its baseline.
function(_workbook_alone_if_speed_check lesson test)
  get_property(lessons GLOBAL PROPERTY WORKBOOK_SPEED_CHECK_LESSONS)
  if(lesson IN_LIST lessons)
    set_tests_properties(${test} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()

# _workbook_pristine_causes(LESSON PROGRAM FILES CAUSES): reads workbook_lesson's PRISTINE_CAUSES
# ("file regex" or "file SPEED regex", once for each exercise file) into the variables
# pristine_cause_<file> of the caller: the arguments of scripts/lib/expect-check-failure.sh that
# name the failure of the check when that file is left untouched (--cause REGEX, or --speed-cause
# REGEX). pristine_cause_all: those of the whole untouched exercise, where the check may trip on
# any file first (one of their correctness causes; their verdicts on speed where all are so).
# Configure fails on a file without a cause, or a cause for no exercise file.
function(_workbook_pristine_causes lesson program files causes)
  set(where "workbook_lesson ${lesson}")
  if(program)
    string(APPEND where " PROGRAM ${program}")
  endif()
  set(named "")
  set(correctness "")
  set(speed "")
  while(causes)
    list(POP_FRONT causes file)
    set(option --cause)
    list(LENGTH causes left)
    if(left GREATER 1)
      list(GET causes 0 word)
      if(word STREQUAL "SPEED")
        list(POP_FRONT causes)
        set(option --speed-cause)
      endif()
    endif()
    list(POP_FRONT causes regex)
    if(NOT file IN_LIST files OR NOT regex)
      message(FATAL_ERROR "${where}: PRISTINE_CAUSES takes 'file regex' (or 'file SPEED regex') for each exercise "
                          "file; '${file}' is not one of ${files}, or has no regex")
    endif()
    list(APPEND named "${file}")
    set(pristine_cause_${file} ${option} "${regex}" PARENT_SCOPE)
    if(option STREQUAL "--cause")
      list(APPEND correctness "(${regex})")
    else()
      list(APPEND speed "(${regex})")
    endif()
  endwhile()
  foreach(file IN LISTS files)
    if(NOT file IN_LIST named)
      message(FATAL_ERROR "${where}: no PRISTINE_CAUSES for ${file}: say what its check prints when it is left "
                          "untouched (the failure the maintainer tests expect, never any FAILED line)")
    endif()
  endforeach()
  if(correctness)
    list(JOIN correctness "|" all)
    set(pristine_cause_all --cause "${all}" PARENT_SCOPE)
  else()
    list(JOIN speed "|" all)
    set(pristine_cause_all --speed-cause "${all}" PARENT_SCOPE)
  endif()
endfunction()

function(workbook_lesson)
  cmake_parse_arguments(L "GPU;NO_BENCH;NO_REFERENCE_RUN;RACECHECK;SPEED_CHECK;OPTIONAL" "NAME;DRIVER;PROGRAM"
    "EXERCISE_FILES;SOURCES;VARIANT_SOURCES;LIBS;CHECK_ARGS;SANITIZE_ARGS;BENCH_ARGS;REFERENCE_RUN_ARGS;TIMEOUT;SANITIZER_OPTIONS;PRISTINE_CAUSES"
    ${ARGN})
  if(NOT L_NAME OR NOT L_DRIVER OR NOT L_EXERCISE_FILES)
    message(FATAL_ERROR "workbook_lesson needs NAME, DRIVER and EXERCISE_FILES")
  endif()
  _workbook_pristine_causes("${L_NAME}" "${L_PROGRAM}" "${L_EXERCISE_FILES}" "${L_PRISTINE_CAUSES}")
  get_property(given_files GLOBAL PROPERTY WORKBOOK_GIVEN_${L_NAME})
  _workbook_require_lesson_files(${L_NAME} EXERCISE_FILES ${L_EXERCISE_FILES} GIVEN ${given_files})
  if(L_SPEED_CHECK)
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_SPEED_CHECK_LESSONS "${L_NAME}")
  endif()
  if(NOT L_CHECK_ARGS)
    set(L_CHECK_ARGS --check)
  endif()
  if(NOT L_BENCH_ARGS)
    set(L_BENCH_ARGS --bench)
  endif()
  if(NOT L_SANITIZE_ARGS)
    set(L_SANITIZE_ARGS ${L_CHECK_ARGS})
  endif()
  if(NOT L_TIMEOUT)
    set(L_TIMEOUT 600)
  endif()
  if(L_GPU)
    set(kind gpu)
  else()
    set(kind cpu)
  endif()

  _workbook_program_ids("${L_NAME}" "${L_PROGRAM}" id test_id)
  _workbook_given_library("${L_NAME}" "${L_EXERCISE_FILES}" given)
  list(APPEND L_LIBS ${given})

  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${L_NAME}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${L_NAME}")
  list(TRANSFORM L_SOURCES PREPEND "${lesson_dir}/" OUTPUT_VARIABLE harness_sources)
  set(variant_sources "")
  foreach(source IN LISTS L_VARIANT_SOURCES)
    if(NOT IS_ABSOLUTE "${source}")
      set(source "${lesson_dir}/${source}")
    endif()
    list(APPEND variant_sources "${source}")
  endforeach()
  # A planted bug's program (workbook_planted_bug) compiles them too, but the file it plants.
  set_property(GLOBAL PROPERTY WORKBOOK_VARIANT_SOURCES_${id} "${variant_sources}")
  # Its exercise files, for a lesson's planted bugs that solve all but the one they plant in.
  set_property(GLOBAL PROPERTY WORKBOOK_EXERCISE_FILES_${id} "${L_EXERCISE_FILES}")

  # The driver and the harness sources are the same for the exercise and the solution (they
  # include no exercise file): compiled once, into the object library ID-harness.
  set(harness_target "${id}-harness")
  add_library(${harness_target} OBJECT "${lesson_dir}/${L_DRIVER}" ${harness_sources})
  target_include_directories(${harness_target} PRIVATE "${lesson_dir}")
  target_link_libraries(${harness_target} PRIVATE workbook_common ${L_LIBS})
  target_compile_definitions(${harness_target} PRIVATE WORKBOOK_LESSON="${L_NAME}")
  if(L_PROGRAM)
    target_compile_definitions(${harness_target} PRIVATE WORKBOOK_PROGRAM="${L_PROGRAM}")
  endif()
  set_target_properties(${harness_target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  workbook_host_only_sources("${lesson_dir}/${L_DRIVER}" ${harness_sources} ${variant_sources})
  set(harness $<TARGET_OBJECTS:${harness_target}> ${variant_sources})

  foreach(variant exercise solution)
    if(variant STREQUAL "exercise")
      set(variant_dir "${lesson_dir}")
    else()
      set(variant_dir "${solution_dir}")
    endif()
    list(TRANSFORM L_EXERCISE_FILES PREPEND "${variant_dir}/" OUTPUT_VARIABLE edited)
    set(target "${id}-${variant}")
    add_executable(${target} ${harness} ${edited})
    # The variant's own folder comes first, so a solution may bring its own headers.
    target_include_directories(${target} PRIVATE "${variant_dir}" "${lesson_dir}")
    target_link_libraries(${target} PRIVATE workbook_common ${L_LIBS})
    target_compile_definitions(${target} PRIVATE
      WORKBOOK_LESSON="${L_NAME}" WORKBOOK_VARIANT="${variant}")
    if(L_PROGRAM)
      target_compile_definitions(${target} PRIVATE WORKBOOK_PROGRAM="${L_PROGRAM}")
    endif()
    set_target_properties(${target} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin"
      CUDA_SEPARABLE_COMPILATION OFF)
    if(variant STREQUAL "exercise")
      _workbook_show_exercise_warnings(${target} "${L_NAME}" "${L_EXERCISE_FILES}")
    endif()

    if(L_RACECHECK)
      # Shared memory, barriers or atomics: a race is a wrong answer too. The check also runs
      # compute-sanitizer's racecheck and synccheck on the small case (when the tool exists).
      find_package(Python3 QUIET COMPONENTS Interpreter)
      add_test(NAME ${test_id}.${variant}
               COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_TOOLS_DIR}/check-with-races.py" $<TARGET_FILE:${target}>
                       ${L_CHECK_ARGS} --races ${L_SANITIZE_ARGS})
    else()
      add_test(NAME ${test_id}.${variant} COMMAND ${target} ${L_CHECK_ARGS})
    endif()
    set_tests_properties(${test_id}.${variant} PROPERTIES
      LABELS "${variant};${kind};${L_NAME}"
      SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE}
      TIMEOUT ${L_TIMEOUT})
    _workbook_alone_if_speed_check(${L_NAME} ${test_id}.${variant})
  endforeach()

  if(WORKBOOK_MAINTAINER_TESTS)
    # A check that cannot fail is worthless: the untouched exercise must fail it (exit 1).
    # With RACECHECK the student's check includes racecheck, and so does this test: a bug that
    # only the race detector sees (lesson 09's missing-barrier) must still fail.
    # The untouched exercise, even where a student edited (or solved) it: an edited file is taken
    # from git into the build folder (_workbook_pristine_files) and these tests use that copy;
    # where it cannot be recovered they skip and say why.
    _workbook_pristine_files("${L_NAME}" "${id}" "${L_EXERCISE_FILES}" pristine_dir edited missing)
    set(program $<TARGET_FILE:${id}-exercise>)
    set(guard "")
    if(edited AND NOT missing)
      # A program of the recovered files, built as the exercise is (its options too).
      list(TRANSFORM L_EXERCISE_FILES PREPEND "${pristine_dir}/" OUTPUT_VARIABLE recovered)
      add_executable(${id}-pristine ${harness} ${recovered})
      target_include_directories(${id}-pristine PRIVATE "${pristine_dir}" $<TARGET_PROPERTY:${id}-exercise,INCLUDE_DIRECTORIES>)
      target_compile_options(${id}-pristine PRIVATE $<TARGET_PROPERTY:${id}-exercise,COMPILE_OPTIONS>)
      target_link_libraries(${id}-pristine PRIVATE workbook_common ${L_LIBS})
      target_compile_definitions(${id}-pristine PRIVATE WORKBOOK_LESSON="${L_NAME}" WORKBOOK_VARIANT="exercise")
      if(L_PROGRAM)
        target_compile_definitions(${id}-pristine PRIVATE WORKBOOK_PROGRAM="${L_PROGRAM}")
      endif()
      set_target_properties(${id}-pristine PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
      set(program $<TARGET_FILE:${id}-pristine>)
    elseif(NOT edited)
      # The exercise program itself, while its files stay untouched (an edit since configuring
      # makes the test skip until the next build configures again).
      list(TRANSFORM L_EXERCISE_FILES PREPEND "lessons/${L_NAME}/" OUTPUT_VARIABLE relative)
      set(guard bash "${WORKBOOK_TOOLS_DIR}/if-pristine.sh" ${relative} --)
    endif()
    set(check_command ${program} ${L_CHECK_ARGS})
    if(L_RACECHECK)
      set(check_command "${Python3_EXECUTABLE}" "${WORKBOOK_TOOLS_DIR}/check-with-races.py"
                        ${program} ${L_CHECK_ARGS} --races ${L_SANITIZE_ARGS})
    endif()
    if(missing)
      _workbook_skip_test(${test_id}.exercise-fails-pristine "${missing}")
    else()
      add_test(NAME ${test_id}.exercise-fails-pristine
               COMMAND ${guard} bash "${WORKBOOK_TOOLS_DIR}/expect-check-failure.sh" ${pristine_cause_all}
                       ${check_command})
    endif()
    set_tests_properties(${test_id}.exercise-fails-pristine PROPERTIES
      LABELS "maintainer;${kind};${L_NAME}"
      SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE}
      TIMEOUT ${L_TIMEOUT})
    _workbook_alone_if_speed_check(${L_NAME} ${test_id}.exercise-fails-pristine)
    # With several exercise files, each must fail on its own: a build with that one file
    # untouched and every other one solved must fail the check (test NAME.pristine-fails.FILE).
    list(LENGTH L_EXERCISE_FILES file_count)
    if(file_count GREATER 1)
      foreach(pristine_file IN LISTS L_EXERCISE_FILES)
        string(REGEX REPLACE "^.*/|\\.[^.]*$" "" stem "${pristine_file}")
        if(NOT EXISTS "${pristine_dir}/${pristine_file}")
          _workbook_skip_test(${test_id}.pristine-fails.${stem} "${missing}")
          set_tests_properties(${test_id}.pristine-fails.${stem} PROPERTIES
            LABELS "maintainer;${kind};${L_NAME}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE})
          continue()
        endif()
        set(stage "${CMAKE_CURRENT_BINARY_DIR}/pristine-${stem}")
        set(staged "")
        foreach(file IN LISTS L_EXERCISE_FILES)
          if(file STREQUAL pristine_file)
            set(from "${pristine_dir}/${file}")
          else()
            set(from "${solution_dir}/${file}")
          endif()
          configure_file("${from}" "${stage}/${file}" COPYONLY)
          list(APPEND staged "${stage}/${file}")
        endforeach()
        set(target "${id}-pristine-${stem}")
        add_executable(${target} ${harness} ${staged})
        # The staged files first; the rest as the exercise build has it (its options too).
        target_include_directories(${target} PRIVATE "${stage}" $<TARGET_PROPERTY:${id}-exercise,INCLUDE_DIRECTORIES>)
        target_compile_options(${target} PRIVATE $<TARGET_PROPERTY:${id}-exercise,COMPILE_OPTIONS>)
        target_link_libraries(${target} PRIVATE workbook_common ${L_LIBS})
        target_compile_definitions(${target} PRIVATE WORKBOOK_LESSON="${L_NAME}" WORKBOOK_VARIANT="exercise")
        set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
        add_test(NAME ${test_id}.pristine-fails.${stem}
                 COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-check-failure.sh" ${pristine_cause_${pristine_file}}
                         $<TARGET_FILE:${target}> ${L_CHECK_ARGS})
        set_tests_properties(${test_id}.pristine-fails.${stem} PROPERTIES
          LABELS "maintainer;${kind};${L_NAME}"
          SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE}
          TIMEOUT ${L_TIMEOUT})
        _workbook_alone_if_speed_check(${L_NAME} ${test_id}.pristine-fails.${stem})
      endforeach()
    endif()
  endif()

  string(JOIN " " sanitize_line "${id}-solution" ${L_SANITIZE_ARGS})
  if(L_GPU)
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_SANITIZE_JOBS "${sanitize_line}")
    if(L_SANITIZER_OPTIONS)
      string(JOIN " " options_line "${id}-solution" ${L_SANITIZER_OPTIONS})
      set_property(GLOBAL APPEND PROPERTY WORKBOOK_SANITIZER_OPTIONS "${options_line}")
    endif()
  endif()
  # NAME-all: every program of the lesson, exercise and solution (what the notebook builds).
  if(NOT TARGET ${L_NAME}-all)
    add_custom_target(${L_NAME}-all)
  endif()
  add_dependencies(${L_NAME}-all ${id}-exercise ${id}-solution)
  get_property(known GLOBAL PROPERTY WORKBOOK_LESSONS)
  if(NOT L_NAME IN_LIST known)
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_LESSONS "${L_NAME}")
  endif()
  # For the learner's tools (progress, bad-input sweep): one line per exercise,
  # "test_id|lesson|program|kind|exercise files (relative, ','-separated)|target id", and
  # "|optional" after it for an OPTIONAL one.
  list(TRANSFORM L_EXERCISE_FILES PREPEND "lessons/${L_NAME}/" OUTPUT_VARIABLE relative_files)
  string(JOIN "," relative_files ${relative_files})
  set(row "${test_id}|${L_NAME}|${L_PROGRAM}|${kind}|${relative_files}|${id}")
  if(L_OPTIONAL)
    string(APPEND row "|optional")
  endif()
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_EXERCISES "${row}")

  if(NOT L_NO_BENCH)
    set(no_reference)
    if(L_NO_REFERENCE_RUN)
      set(no_reference NO_REFERENCE_RUN)
    endif()
    workbook_benchmark(NAME ${id} PROGRAM ${id}-solution ARGS ${L_BENCH_ARGS} REFERENCE_RUN_ARGS ${L_REFERENCE_RUN_ARGS}
                       ${no_reference})
  elseif(L_REFERENCE_RUN_ARGS)
    message(FATAL_ERROR "workbook_lesson ${id}: REFERENCE_RUN_ARGS without a benchmark (NO_BENCH)")
  endif()
endfunction()

# workbook_benchmark(NAME 07-toward-cublas PROGRAM 07-toward-cublas-solution ARGS --bench ...
#                    [REFERENCE_RUN_ARGS ...] [REFERENCE_ONLY] [RANKS n] [NO_REFERENCE_RUN])
# A benchmark run of a program. ARGS are its quick benchmark: scripts/progress's measurement of a
# solved exercise (for the NAME of an exercise's program) and, with WORKBOOK_RUN_BENCHMARKS, the
# target NAME-bench (CSV <build>/bench/NAME.csv). Every benchmark is also a reference run of
# scripts/gpu-check.sh (its step bench writes OUTDIR/bench/NAME.csv, the file that the machine's
# folder keeps, data/h200/ on the reference machine of data/machines.csv, its "# command:" line
# the command that ran), with REFERENCE_RUN_ARGS where given, else ARGS.
# In REFERENCE_RUN_ARGS, {bench-dir} stands for that OUTDIR/bench folder: a run that writes a
# second file gives its path there (lesson 11: --timeline {bench-dir}/11-streams-overlap-timeline.csv),
# so that the step writes it beside the CSV. REFERENCE_ONLY: a reference run alone (ARGS are its
# arguments; no quick benchmark, no target), for a run only the committed data need (lesson 03's
# sweep over the report's orders). workbook_lesson adds the program's own benchmark; a lesson adds
# more runs of another kind under another NAME. Each file of a machine's folder (data/h200/,
# data/h100/) is the output of one reference run or of the step counters or profiles
# (scripts/maintainer/lint-lessons.py registry).
# RANKS n (n >= 2, with REFERENCE_ONLY): a reference run of n MPI ranks, one a GPU (lesson 08's
# scaling run), started by the MPI launcher that find_package(MPI) found, as the lesson's
# multi-rank tests start theirs. The step bench performs it only on a machine with n GPUs or more
# (on fewer it reports the run skipped) and writes OUTDIR/bench/x<n>/NAME.csv, the file that
# data/FOLDERx<n>/ keeps (data/h200x2/; {bench-dir} is then OUTDIR/bench/x<n>); the program's
# rank 0 writes it, so its "# command:" line is rank 0's.
# NO_REFERENCE_RUN: the quick benchmark alone, for a program whose file in the machine's folder
# another step writes (the profiling lesson's, step profiles): a reference run would write one of
# the same name.
function(workbook_benchmark)
  cmake_parse_arguments(B "REFERENCE_ONLY;NO_REFERENCE_RUN" "NAME;PROGRAM;RANKS" "ARGS;REFERENCE_RUN_ARGS" ${ARGN})
  if(NOT B_NAME OR NOT B_PROGRAM)
    message(FATAL_ERROR "workbook_benchmark needs NAME and PROGRAM")
  endif()
  if(B_NO_REFERENCE_RUN AND B_REFERENCE_RUN_ARGS)
    message(FATAL_ERROR "workbook_benchmark ${B_NAME}: REFERENCE_RUN_ARGS with NO_REFERENCE_RUN")
  endif()
  if(B_REFERENCE_ONLY)
    if(B_REFERENCE_RUN_ARGS)
      message(FATAL_ERROR "workbook_benchmark ${B_NAME}: REFERENCE_ONLY takes its arguments in ARGS")
    endif()
    set(B_REFERENCE_RUN_ARGS ${B_ARGS})
  elseif(NOT B_REFERENCE_RUN_ARGS)
    set(B_REFERENCE_RUN_ARGS ${B_ARGS})
  endif()
  # The folder of the GPU check's outputs exists only there: the quick benchmark has none.
  string(FIND "${B_ARGS}" "{bench-dir}" at)
  if(NOT B_REFERENCE_ONLY AND at GREATER -1)
    message(FATAL_ERROR "workbook_benchmark ${B_NAME}: {bench-dir} belongs in REFERENCE_RUN_ARGS, not ARGS")
  endif()
  if(B_NO_REFERENCE_RUN AND B_REFERENCE_ONLY)
    message(FATAL_ERROR "workbook_benchmark ${B_NAME}: NO_REFERENCE_RUN with REFERENCE_ONLY leaves no run")
  endif()
  if(DEFINED B_RANKS)
    if(NOT B_RANKS MATCHES "^[0-9]+$" OR B_RANKS LESS 2)
      message(FATAL_ERROR "workbook_benchmark ${B_NAME}: RANKS is a number of MPI ranks, 2 or more (got '${B_RANKS}')")
    endif()
    if(NOT B_REFERENCE_ONLY)
      message(FATAL_ERROR "workbook_benchmark ${B_NAME}: a run of RANKS ranks is a reference run alone (REFERENCE_ONLY): "
                          "the quick benchmark runs one process")
    endif()
    if(NOT MPIEXEC_EXECUTABLE)
      message(FATAL_ERROR "workbook_benchmark ${B_NAME}: RANKS needs the MPI launcher (find_package(MPI) first)")
    endif()
    # The launcher and its flags, as the lessons' multi-rank tests call it (one for the build).
    string(JOIN " " launcher "${MPIEXEC_EXECUTABLE}" ${MPIEXEC_NUMPROC_FLAG} "{ranks}" ${MPIEXEC_PREFLAGS})
    set_property(GLOBAL PROPERTY WORKBOOK_MPIEXEC "${launcher}")
    string(JOIN " " reference "${B_NAME}" "${B_PROGRAM}" "${B_RANKS}" ${B_REFERENCE_RUN_ARGS})
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_REFERENCE_RANK_RUNS "${reference}")
    return()
  endif()
  if(NOT B_NO_REFERENCE_RUN)
    string(JOIN " " reference "${B_NAME}" "${B_PROGRAM}" ${B_REFERENCE_RUN_ARGS})
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_REFERENCE_RUNS "${reference}")
  endif()
  if(B_REFERENCE_ONLY)
    return()
  endif()
  string(JOIN " " job "${B_NAME}" "${B_PROGRAM}" ${B_ARGS})
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_BENCH_JOBS "${job}")
  if(NOT WORKBOOK_RUN_BENCHMARKS)
    return()
  endif()
  # Quick benchmark of the reference solution on this machine: not part of the first build
  # (a student should not wait for it), run by the target `benchmarks`
  # (cmake --workflow --preset benchmarks); skips (and leaves no CSV) without a GPU.
  set(csv "${CMAKE_BINARY_DIR}/bench/${B_NAME}.csv")
  add_custom_command(
    OUTPUT "${CMAKE_BINARY_DIR}/bench/${B_NAME}.stamp"
    COMMAND bash "${WORKBOOK_TOOLS_DIR}/run-benchmark.sh" "${CMAKE_BINARY_DIR}/bench/${B_NAME}.stamp"
            $<TARGET_FILE:${B_PROGRAM}> ${B_ARGS} --out "${csv}"
    DEPENDS ${B_PROGRAM}
    WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "Quick benchmark of ${B_NAME}"
    VERBATIM)
  add_custom_target(${B_NAME}-bench DEPENDS "${CMAKE_BINARY_DIR}/bench/${B_NAME}.stamp")
  if(NOT TARGET benchmarks)
    add_custom_target(benchmarks COMMENT "Quick benchmarks of the reference solutions on this machine")
  endif()
  add_dependencies(benchmarks ${B_NAME}-bench)
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_BENCH_TARGETS ${B_NAME}-bench)
endfunction()

# workbook_planted_bug(LESSON 03-tiled-matmul [PROGRAM banks] NAME no-barrier FILE transpose.cu
#                      FROM "text of the solution" TO "its planted version"
#                      CHECK_ARGS --check ... [RACECHECK SANITIZE_ARGS ...] [LIBS ...] [KIND gpu|cpu]
#                      CAUSE regex | SPEED_CAUSE regex [SOLVED_FILES other.cu ...] [ENVIRONMENT VAR=value ...])
# A maintainer test that the check catches one planted bug: the reference solution's FILE with
# FROM replaced by TO (configure fails when FROM is not found, so a changed solution cannot
# silently disarm the test), linked with the program's harness and its VARIANT_SOURCES (those
# compiled with the solution's files, the planted copy first: FILE may be a header), must fail
# its check (with
# RACECHECK, the check followed by racecheck and synccheck on SANITIZE_ARGS): exit 1 with the
# check's FAILED verdict and a line matching CAUSE, the failure the bug must cause (a wrong
# element, a time limit, a named fault; never a verdict on speed), or SPEED_CAUSE, a verdict on
# speed, for a bug that leaves the numbers right (scripts/lib/expect-check-failure.sh). One of the
# two is required: a check can fail for many reasons, and only this one proves the test's point.
# An edit of the solution's FILE configures the build again, so the planted copy follows it; the
# copy is rewritten only when its text changes, so an unchanged plant is not compiled again.
# FILE is a file of solutions/LESSON, or else a read-only step of lessons/LESSON (given code that
# holds no answer, compiled in the program's VARIANT_SOURCES, which the planted copy replaces).
# SOLVED_FILES: the program's other exercise files, linked in as their reference solutions. A
# solved header, and every solved file where FILE is a header, is copied beside the planted file,
# so that an #include of one by the other finds the copy (and not the exercise's header, or the
# solution's beside the solution).
# ENVIRONMENT: variables of the test (e.g. WORKBOOK_CHECK_TIME_SCALE to shorten a time limit).
# GIVEN_TODO n (instead of FROM and TO): the solution with its TODO n region as the exercise
# gives it, from the line "// >>> TODO n" up to "// <<< TODO n" (lesson 08's exchange left out).
# RANKS n (n >= 2): the check runs as n MPI ranks, one a GPU, started by workbook_mpi_launcher as
# the lesson's multi-rank tests start theirs; the program exits 77 (skipped) on a machine with
# fewer GPUs, so the test never passes there. STOPS: the bug hangs the program until its own
# time limit stops it, which exits 1 with a line matching CAUSE before the check can give its
# verdict (scripts/lib/expect-exit.sh; no FAILED line is required). TIMEOUT: CTest's limit (300 s).
# Test NAME: LESSON[.PROGRAM].planted-NAME-fails, -stops with STOPS, then -<n>ranks with RANKS.
function(workbook_planted_bug)
  # PARSE_ARGV keeps the semicolons of FROM and TO (C++ code is full of them).
  cmake_parse_arguments(PARSE_ARGV 0 P "RACECHECK;STOPS"
                        "LESSON;PROGRAM;NAME;FILE;KIND;FROM;TO;GIVEN_TODO;CAUSE;SPEED_CAUSE;RANKS;TIMEOUT"
                        "LIBS;CHECK_ARGS;SANITIZE_ARGS;SOLVED_FILES;ENVIRONMENT")
  _workbook_program_ids("${P_LESSON}" "${P_PROGRAM}" id test_id)
  set(test_name ${test_id}.planted-${P_NAME}-fails)
  if(P_STOPS)
    if(NOT P_CAUSE OR P_SPEED_CAUSE OR P_RACECHECK)
      message(FATAL_ERROR "${test_id}: planted bug '${P_NAME}': STOPS takes CAUSE, the line of the time limit that "
                          "stops the run (no SPEED_CAUSE, no RACECHECK)")
    endif()
    set(test_name ${test_id}.planted-${P_NAME}-stops)
  endif()
  if(DEFINED P_RANKS)
    if(NOT P_RANKS MATCHES "^[0-9]+$" OR P_RANKS LESS 2)
      message(FATAL_ERROR "${test_id}: planted bug '${P_NAME}': RANKS is a number of MPI ranks, 2 or more "
                          "(got '${P_RANKS}')")
    endif()
    string(APPEND test_name -${P_RANKS}ranks)
  endif()
  if(NOT P_TIMEOUT)
    set(P_TIMEOUT 300)
  endif()
  if(P_CAUSE AND NOT P_SPEED_CAUSE)
    set(cause --cause "${P_CAUSE}")
  elseif(P_SPEED_CAUSE AND NOT P_CAUSE)
    set(cause --speed-cause "${P_SPEED_CAUSE}")
  else()
    message(FATAL_ERROR "${test_id}: planted bug '${P_NAME}' needs CAUSE (the failure it must cause) or SPEED_CAUSE "
                        "(the verdict on speed of a bug that leaves the numbers right), one of them")
  endif()
  if(NOT WORKBOOK_MAINTAINER_TESTS)
    return()
  endif()
  _workbook_given_library("${P_LESSON}" "${P_FILE};${P_SOLVED_FILES}" given)
  list(APPEND P_LIBS ${given})
  if(NOT P_KIND)
    set(P_KIND gpu)
  endif()
  set(planted_from "solutions/${P_LESSON}/${P_FILE}")
  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/${planted_from}" AND NOT DEFINED P_GIVEN_TODO)
    set(planted_from "lessons/${P_LESSON}/${P_FILE}")  # a read-only step
  endif()
  set(solution "${PROJECT_SOURCE_DIR}/${planted_from}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${solution}")
  file(READ "${solution}" solved)
  if(DEFINED P_GIVEN_TODO)
    if(DEFINED P_FROM OR DEFINED P_TO)
      message(FATAL_ERROR "${test_id}: planted bug '${P_NAME}': GIVEN_TODO replaces FROM and TO")
    endif()
    set(exercise "${PROJECT_SOURCE_DIR}/lessons/${P_LESSON}/${P_FILE}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${exercise}")
    file(READ "${exercise}" given)
    _workbook_todo_region("${solved}" ${P_GIVEN_TODO} "solutions/${P_LESSON}/${P_FILE}" P_FROM)
    _workbook_todo_region("${given}" ${P_GIVEN_TODO} "lessons/${P_LESSON}/${P_FILE}" P_TO)
  endif()
  string(FIND "${solved}" "${P_FROM}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${test_id}: cannot plant '${P_NAME}': ${planted_from} no longer holds '${P_FROM}'")
  endif()
  string(REPLACE "${P_FROM}" "${P_TO}" planted "${solved}")
  set(folder "${CMAKE_CURRENT_BINARY_DIR}/planted-${P_NAME}")
  set(copy "${folder}/${P_FILE}")
  set(written "")
  if(EXISTS "${copy}")
    file(READ "${copy}" written)
  endif()
  if(NOT EXISTS "${copy}" OR NOT written STREQUAL planted)
    file(WRITE "${copy}" "${planted}")
  endif()
  set(target "${id}-planted-${P_NAME}")
  set(solved_sources "")
  foreach(file IN LISTS P_SOLVED_FILES)
    set(path "${PROJECT_SOURCE_DIR}/solutions/${P_LESSON}/${file}")
    if(P_FILE MATCHES "[.](cuh|h|hpp)$" OR file MATCHES "[.](cuh|h|hpp)$")
      configure_file("${path}" "${folder}/${file}" COPYONLY)
      set(path "${folder}/${file}")
    endif()
    list(APPEND solved_sources "${path}")
  endforeach()
  get_property(variant_sources GLOBAL PROPERTY WORKBOOK_VARIANT_SOURCES_${id})
  list(REMOVE_ITEM variant_sources "${PROJECT_SOURCE_DIR}/solutions/${P_LESSON}/${P_FILE}"
       "${PROJECT_SOURCE_DIR}/lessons/${P_LESSON}/${P_FILE}")
  add_executable(${target} $<TARGET_OBJECTS:${id}-harness> "${copy}" ${solved_sources} ${variant_sources})
  # The planted copy and the solved copies beside it first (a planted header replaces the
  # solution's), then the solution's files.
  target_include_directories(${target} PRIVATE "${folder}" "${PROJECT_SOURCE_DIR}/solutions/${P_LESSON}"
                                               "${PROJECT_SOURCE_DIR}/lessons/${P_LESSON}")
  target_link_libraries(${target} PRIVATE workbook_common ${P_LIBS})
  set(command $<TARGET_FILE:${target}> ${P_CHECK_ARGS})
  if(P_RACECHECK)
    find_package(Python3 QUIET COMPONENTS Interpreter)
    set(command "${Python3_EXECUTABLE}" "${WORKBOOK_TOOLS_DIR}/check-with-races.py" ${command} --races ${P_SANITIZE_ARGS})
  endif()
  if(DEFINED P_RANKS)
    workbook_mpi_launcher(launcher ${P_RANKS})
    list(PREPEND command ${launcher})
  endif()
  if(P_STOPS)
    add_test(NAME ${test_name} COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-exit.sh" 1 "${P_CAUSE}" ${command})
  else()
    add_test(NAME ${test_name} COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-check-failure.sh" ${cause} ${command})
  endif()
  set_tests_properties(${test_name} PROPERTIES
                       LABELS "maintainer;${P_KIND};${P_LESSON}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE}
                       TIMEOUT ${P_TIMEOUT})
  if(P_ENVIRONMENT)
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${P_ENVIRONMENT}")
  endif()
  _workbook_alone_if_speed_check(${P_LESSON} ${test_name})
endfunction()

# _workbook_todo_region(TEXT n FILE OUT): the text of TODO n's region in TEXT (a file's text,
# FILE its name for the message), from "// >>> TODO n" up to, not including, "// <<< TODO n".
function(_workbook_todo_region text n file out)
  string(FIND "${text}" "// >>> TODO ${n}" begin)
  string(FIND "${text}" "// <<< TODO ${n}" end)
  if(begin EQUAL -1 OR end LESS begin)
    message(FATAL_ERROR "${file} has no region '// >>> TODO ${n}' ... '// <<< TODO ${n}'")
  endif()
  math(EXPR length "${end} - ${begin}")
  string(SUBSTRING "${text}" ${begin} ${length} region)
  set(${out} "${region}" PARENT_SCOPE)
endfunction()

# workbook_mpi_launcher(OUT n [FLAGS...]): in OUT, the command that starts a program as n MPI
# ranks, as every multi-rank test of the course starts it: the launcher that find_package(MPI)
# found with its count flag, FLAGS (e.g. --oversubscribe), then its own flags (Open MPI refuses to
# run as root, as a container's CI does, unless told).
function(workbook_mpi_launcher out ranks)
  if(NOT MPIEXEC_EXECUTABLE)
    message(FATAL_ERROR "workbook_mpi_launcher: no MPI launcher (find_package(MPI) first)")
  endif()
  set(${out} env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ${MPIEXEC_EXECUTABLE}
      ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${ARGN} ${MPIEXEC_PREFLAGS} PARENT_SCOPE)
endfunction()

# workbook_test(NAME 06-sciddicat.bad-header COMMAND exe args... LABELS cpu;06-sciddicat
#               [EXIT_CODE code PASS_REGULAR_EXPRESSION re] [FAIL_REGULAR_EXPRESSION re] [TIMEOUT s])
# A test that passes when the command exits 0, and reports "skipped" when it exits with the skip
# code. With EXIT_CODE and PASS_REGULAR_EXPRESSION (always both: CTest's pass expression alone
# would ignore the exit code, so a run that failed after printing the expected line would pass)
# it passes only when the command exits with that code and prints a line matching the expression
# (scripts/lib/expect-exit.sh).
function(workbook_test)
  cmake_parse_arguments(T "" "NAME;EXIT_CODE;PASS_REGULAR_EXPRESSION;FAIL_REGULAR_EXPRESSION;TIMEOUT;WORKING_DIRECTORY"
                        "COMMAND;LABELS" ${ARGN})
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "workbook_test ${T_NAME}: unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  if(DEFINED T_PASS_REGULAR_EXPRESSION OR DEFINED T_EXIT_CODE)
    if(NOT DEFINED T_PASS_REGULAR_EXPRESSION OR NOT DEFINED T_EXIT_CODE)
      message(FATAL_ERROR "workbook_test ${T_NAME}: PASS_REGULAR_EXPRESSION and EXIT_CODE go together (the output "
                          "alone passes a run whatever its exit code)")
    endif()
    list(GET T_COMMAND 0 program)
    if(TARGET ${program})
      list(REMOVE_AT T_COMMAND 0)
      list(PREPEND T_COMMAND "$<TARGET_FILE:${program}>")
    endif()
    # The command's own limit ends it a little before CTest's, so that the test says what it found.
    math(EXPR limit "${T_TIMEOUT} * 9 / 10")
    set(T_COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-exit.sh" --timeout ${limit} "${T_EXIT_CODE}"
                  "${T_PASS_REGULAR_EXPRESSION}" ${T_COMMAND})
  endif()
  if(T_WORKING_DIRECTORY)
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND} WORKING_DIRECTORY "${T_WORKING_DIRECTORY}")
  else()
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  endif()
  set_tests_properties(${T_NAME} PROPERTIES
    LABELS "${T_LABELS}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT ${T_TIMEOUT})
  if(T_FAIL_REGULAR_EXPRESSION)
    set_tests_properties(${T_NAME} PROPERTIES FAIL_REGULAR_EXPRESSION "${T_FAIL_REGULAR_EXPRESSION}")
  endif()
endfunction()

# workbook_bench_test(NAME n COMMAND exe args... KERNELS name... LABELS ...)
# A benchmark must exit 0 and write a CSV in the common schema: the command runs with --out FILE
# added, and scripts/lib/validate-bench-csv.py checks the exit code, the comment lines, the columns,
# positive times and rates, and that each of KERNELS is the kernel of a row, by its whole name
# ("cublas" is not found in a row "cublaslt-best"; exit 77 still skips).
function(workbook_bench_test)
  cmake_parse_arguments(B "" "NAME;TIMEOUT" "COMMAND;KERNELS;LABELS" ${ARGN})
  if(NOT B_TIMEOUT)
    set(B_TIMEOUT 600)
  endif()
  find_package(Python3 QUIET COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    message(FATAL_ERROR "workbook_bench_test needs python3")
  endif()
  list(GET B_COMMAND 0 program)
  if(TARGET ${program})
    list(REMOVE_AT B_COMMAND 0)
    list(PREPEND B_COMMAND "$<TARGET_FILE:${program}>")
  endif()
  foreach(kernel IN LISTS B_KERNELS)
    if(NOT kernel MATCHES "^[A-Za-z0-9][A-Za-z0-9+._-]*$")
      message(FATAL_ERROR "workbook_bench_test ${B_NAME}: KERNELS takes the rows' kernel names as they are written, "
                          "not '${kernel}'")
    endif()
  endforeach()
  string(JOIN "," kernels ${B_KERNELS})
  add_test(NAME ${B_NAME}
           COMMAND "${Python3_EXECUTABLE}" "${WORKBOOK_TOOLS_DIR}/validate-bench-csv.py" --kernels "${kernels}" ${B_COMMAND})
  set_tests_properties(${B_NAME} PROPERTIES
    LABELS "${B_LABELS}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT ${B_TIMEOUT})
endfunction()

# workbook_expect_error(NAME n COMMAND exe args... MESSAGE regex [EXIT_CODE 2] LABELS ...)
# Bad input must end in a clear message (matched by MESSAGE) and the given exit code (default 2;
# EXIT_CODE 0 for a run that must succeed and say MESSAGE).
function(workbook_expect_error)
  cmake_parse_arguments(E "" "NAME;MESSAGE;EXIT_CODE;TIMEOUT" "COMMAND;LABELS" ${ARGN})
  # DEFINED, not the value: EXIT_CODE 0 (a run that must succeed with its message) is false in if().
  if(NOT DEFINED E_EXIT_CODE)
    set(E_EXIT_CODE 2)
  endif()
  if(NOT E_TIMEOUT)
    set(E_TIMEOUT 120)
  endif()
  list(GET E_COMMAND 0 program)
  if(TARGET ${program})
    list(REMOVE_AT E_COMMAND 0)
    list(PREPEND E_COMMAND "$<TARGET_FILE:${program}>")
  endif()
  add_test(NAME ${E_NAME}
           COMMAND bash "${WORKBOOK_TOOLS_DIR}/expect-exit.sh" "${E_EXIT_CODE}" "${E_MESSAGE}" ${E_COMMAND})
  set_tests_properties(${E_NAME} PROPERTIES
    LABELS "${E_LABELS}" SKIP_RETURN_CODE ${WORKBOOK_SKIP_CODE} TIMEOUT ${E_TIMEOUT})
endfunction()

# workbook_full_device_test(NAME what HOLD fraction PROGRAM id ARGS args... [MESSAGE regex]
#                           [TIMEOUT s]): the lesson's program on a GPU that another job already
# fills. hold-device-memory (common/programs/) takes that fraction of the free device memory and
# runs the program meanwhile, which must end with "error: ... needs X GiB of device memory; only Y
# of Z GiB are free" (or MESSAGE) and exit 2, never crash or print garbage. The test is
# LESSON.gpu-limits.what (label gpu, so the GPU check runs it); it runs alone (RUN_SERIAL): memory
# held here must not starve another test's GPU program.
function(workbook_full_device_test)
  cmake_parse_arguments(F "" "NAME;HOLD;PROGRAM;MESSAGE;TIMEOUT" "ARGS" ${ARGN})
  get_filename_component(lesson "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(NOT F_MESSAGE)
    set(F_MESSAGE "needs [0-9.]+ GiB of device memory; only [0-9.]+ of [0-9.]+ GiB are free")
  endif()
  if(NOT F_TIMEOUT)
    set(F_TIMEOUT 120)
  endif()
  workbook_expect_error(NAME ${lesson}.gpu-limits.${F_NAME} MESSAGE "${F_MESSAGE}" TIMEOUT ${F_TIMEOUT}
    COMMAND hold-device-memory ${F_HOLD} $<TARGET_FILE:${lesson}-${F_PROGRAM}> ${F_ARGS}
    LABELS "gpu;solution;${lesson}")
  set_tests_properties(${lesson}.gpu-limits.${F_NAME} PROPERTIES RUN_SERIAL TRUE)
endfunction()

# workbook_reference_then(NAME 16-fused-attention COMMAND python3 .../torch_ceilings.py {csv})
# A command that scripts/gpu-check.sh's step bench runs right after the reference run NAME (of
# workbook_benchmark), in the build folder, when that run passed; {csv} stands for the run's CSV,
# OUTDIR/bench/NAME.csv, which the command may add rows to (lesson 16: PyTorch's attention beside
# its kernels). Its output goes to the run's log; its failure fails the run.
function(workbook_reference_then)
  cmake_parse_arguments(T "" "NAME" "COMMAND" ${ARGN})
  if(NOT T_NAME OR NOT T_COMMAND)
    message(FATAL_ERROR "workbook_reference_then needs NAME and COMMAND")
  endif()
  string(JOIN " " job "${T_NAME}" ${T_COMMAND})
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_REFERENCE_THEN "${job}")
endfunction()

# Writes <build>/gpu-jobs.txt: the sanitizer runs, quick benchmarks and reference runs of the GPU
# programs. One job per line: "sanitize <exe> <args>" and "sanitizer-options <exe> <options>"
# (extra compute-sanitizer options for that program), the runs of scripts/gpu-check.sh's step
# sanitize; "bench <name> <exe> <args>", a quick benchmark (scripts/progress); "reference <name>
# <exe> <args>", a reference run, which the step bench performs (workbook_benchmark);
# "then <name> <command>", a command run right after the reference run <name>
# (workbook_reference_then); "reference-ranks <name> <exe> <ranks> <args>", a reference run of
# that many MPI ranks, and "mpiexec <launcher and its flags>", how the step starts it ({ranks}:
# the number of ranks).
function(workbook_write_gpu_jobs)
  get_property(sanitize GLOBAL PROPERTY WORKBOOK_SANITIZE_JOBS)
  get_property(bench GLOBAL PROPERTY WORKBOOK_BENCH_JOBS)
  get_property(reference GLOBAL PROPERTY WORKBOOK_REFERENCE_RUNS)
  get_property(reference_ranks GLOBAL PROPERTY WORKBOOK_REFERENCE_RANK_RUNS)
  get_property(reference_then GLOBAL PROPERTY WORKBOOK_REFERENCE_THEN)
  get_property(mpiexec GLOBAL PROPERTY WORKBOOK_MPIEXEC)
  get_property(sanitizer_options GLOBAL PROPERTY WORKBOOK_SANITIZER_OPTIONS)
  set(text "# Generated by CMake: jobs for scripts/gpu-check.sh\n")
  foreach(job IN LISTS sanitizer_options)
    string(APPEND text "sanitizer-options ${job}\n")
  endforeach()
  foreach(job IN LISTS sanitize)
    string(APPEND text "sanitize ${job}\n")
  endforeach()
  foreach(job IN LISTS bench)
    string(APPEND text "bench ${job}\n")
  endforeach()
  foreach(job IN LISTS reference)
    string(APPEND text "reference ${job}\n")
  endforeach()
  foreach(job IN LISTS reference_then)
    string(APPEND text "then ${job}\n")
  endforeach()
  foreach(job IN LISTS reference_ranks)
    string(APPEND text "reference-ranks ${job}\n")
  endforeach()
  if(mpiexec)
    string(APPEND text "mpiexec ${mpiexec}\n")
  endif()
  file(WRITE "${CMAKE_BINARY_DIR}/gpu-jobs.txt" "${text}")
endfunction()

function(workbook_print_summary)
  get_property(lessons GLOBAL PROPERTY WORKBOOK_LESSONS)
  list(LENGTH lessons count)
  message(STATUS "cuda-workbook: ${count} lessons; CUDA architectures ${CMAKE_CUDA_ARCHITECTURES}; "
                 "maintainer tests ${WORKBOOK_MAINTAINER_TESTS}")
  if(WORKBOOK_SHARED_DATA)
    message(STATUS "cuda-workbook: real input data from ${WORKBOOK_SHARED_DATA}")
  else()
    message(STATUS "cuda-workbook: no real input data found (tests that need it will be skipped)")
  endif()
endfunction()
