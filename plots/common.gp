# Shared settings for every chart. Each chart script is run as
#   gnuplot -e "datadir='...'; benchdir='...'; out='path/name'; fmt='png'|'svg'" plots/NAME.gp
# datadir:  the repository's data/ folder (the reports' numbers, the committed reference runs)
# benchdir: where your own benchmarks wrote their CSVs (build/bench); may be ''
# A curve is drawn only when its CSV exists, so every chart renders on any machine.

if (!exists("datadir")) datadir = "data"
if (!exists("benchdir")) benchdir = ""
if (!exists("fmt")) fmt = "png"
if (!exists("out")) out = "chart"
if (!exists("report_only")) report_only = 0

if (fmt eq "svg") {
    set terminal svg size 900,560 dynamic enhanced font "DejaVu Sans,12" background rgb "white"
    set output out.".svg"
} else {
    set terminal pngcairo size 900,560 enhanced font "DejaVu Sans,10" background rgb "white"
    set output out.".png"
}

set datafile separator ","
set datafile columnheaders
# A row that a curve's filter leaves out (pick() gives NaN) is skipped, not a gap: the curve's
# line runs on to its next row, so "linespoints" draws its lines even where the CSV interleaves
# the rows of several curves.
set datafile missing NaN
set grid lc rgb "#dddddd"
# The key (legend) goes below the plot area, in as many columns as fit, so that it never narrows
# the plot. A chart may place it elsewhere (inside the plot, or beside it) only where it is at
# most 25% of the plot area's width. Each chart's test checks that rule on its SVG
# (plots/tools/verify-chart-svg.py), with the other readability rules: a key entry that names a
# style, "(solid)", "(dashed)", "(dotted)", "(open)" or "(filled)", is drawn in it; no text
# reaches past the canvas; no two texts overlap; and, rendered without any run of this machine,
# no key entry names one ("yours", "your ...", "this machine"). Texts are measured as
# characters x 0.6 x font size wide.
set key below center horizontal spacing 1.1 box lc rgb "#bbbbbb"
# gnuplot draws that key's box across the lowest line of the x label: a chart whose key is below
# ends its x label with "\n", so that the box crosses an empty line, not the label's letters.
set border lc rgb "#555555"

# has(f): the file exists and is not empty.
has(f) = strlen(f) > 0 && system(sprintf("[ -s '%s' ] && echo 1 || echo 0", f)) eq "1"
# has_any(f): f, or one of the files "a|b|..." it lists, exists and is not empty.
has_any(f) = strstrt(f, "|") == 0 ? has(f) : \
    has(substr(f, 1, strstrt(f, "|") - 1)) || has_any(substr(f, strstrt(f, "|") + 1, strlen(f)))
# device(f): the GPU or CPU named in a benchmark CSV's "# device:" line.
device(f) = system(sprintf("sed -n 's/^# device: //p' '%s' | head -n 1", f))
# need(f): f, recorded as a file the chart cannot do without (a committed file of data/): after
# the script, render-chart.sh fails the chart when one of them is missing, or when the chart
# plotted no point at all (plots/tools/chart-epilogue.gp). A requirement "a|b" needs one of them.
required = ""
need(f) = (required = required." ".f, f)

# The machines whose runs data/ keeps (data/machines.csv, one setting): the reference machine,
# drawn first and in the chart's main style, and the second machine, drawn beside it in a style
# of its own (open symbols, dotted lines or hatched bars, each chart says which); a key entry
# names each by its GPU. machine(role, column): a field of its row (3 folder, 4 specs, 5 label).
machine(role, column) = system(sprintf("awk -F, '!/^#/ && $2 == \"%s\" { print $%d; exit }' '%s/machines.csv'", \
                                       role, column, datadir))
reference_folder = machine("reference", 3)
second_folder = machine("second", 3)
# published(name): a figure of the reference machine's specs (data/specs/), e.g. "fp64-peak".
published(name) = real(system(sprintf("awk -F, '$1 == \"%s\" { print $2 }' '%s/%s'", name, datadir, \
                                      machine("reference", 4))))
published_label = machine("reference", 5)
# The committed runs of a lesson's program NAME: reference(NAME), the reference machine's, drawn
# in the chart's main style, and second(NAME), the second machine's, drawn beside it in a style of
# its own. Where the reference machine has no such run yet (the H200's files before they are
# committed), a note on stderr says so, reference(NAME) is the second machine's run and
# second(NAME) is "": the chart draws what exists, each series named by its GPU. The chart needs
# one of the two; report_only=1 leaves both out (a chart from the reports' data alone).
# ranks_reference(NAME, n) and ranks_second(NAME, n): the runs of n MPI ranks (data/FOLDERx<n>/).
run_of(folder, name) = has(datadir."/".folder."/".name.".csv") ? datadir."/".folder."/".name.".csv" : ""
not_yet(name, suffix) = system(sprintf("echo 'note: no %s/%s.csv under %s yet: the chart draws %s/%s.csv' >&2", \
                                       reference_folder.suffix, name, datadir, second_folder.suffix, name))
machine_runs(name, suffix) = report_only ? "" : \
    need(datadir."/".reference_folder.suffix."/".name.".csv|".datadir."/".second_folder.suffix."/".name.".csv")
first_run(name, suffix) = has(run_of(reference_folder.suffix, name)) ? run_of(reference_folder.suffix, name) : \
    (not_yet(name, suffix), run_of(second_folder.suffix, name))
second_run(name, suffix) = has(run_of(reference_folder.suffix, name)) ? run_of(second_folder.suffix, name) : ""
reference(name) = report_only ? "" : (machine_runs(name, ""), first_run(name, ""))
second(name) = report_only ? "" : second_run(name, "")
ranks_reference(name, n) = report_only ? "" : (machine_runs(name, "x".n), first_run(name, "x".n))
ranks_second(name, n) = report_only ? "" : second_run(name, "x".n)
# usable(f): f where it exists, else /dev/null (a series with nothing to draw, and no key entry).
usable(f) = has(f) ? f : "/dev/null"
# titled(f, text): the key entry of a committed run's series, its GPU (or CPU) then TEXT; "" where
# f does not exist. host_of(f): the label of the machine whose folder holds f ("H200").
titled(f, text) = has(f) ? device(f).text : ""
host_of(f) = system(sprintf("awk -F, -v folder=\"$(basename \"$(dirname '%s')\")\" " . \
                            "'!/^#/ && $3 == folder { print $5; exit }' '%s/machines.csv'", f, datadir))
# Your own run on this machine: the benchmark of your exercise (benchdir/LESSON-exercise.csv,
# which scripts/progress writes once the exercise passes its check) when there is one, else the
# reference solution's quick benchmark of your build (benchdir/LESSON.csv); yours_label(lesson)
# says which of the two a curve shows.
exercise_run(lesson) = (strlen(benchdir) > 0 && !report_only) ? benchdir."/".lesson."-exercise.csv" : ""
solution_run(lesson) = (strlen(benchdir) > 0 && !report_only) ? benchdir."/".lesson.".csv" : ""
yours(lesson) = has(exercise_run(lesson)) ? exercise_run(lesson) : solution_run(lesson)
yours_label(lesson) = has(exercise_run(lesson)) ? "your exercise" : "reference solution, this machine"

# Row filters for the common benchmark schema (see common/include/wb/csv.h).
is(col, value) = strcol(col) eq value
pick(cond, value) = cond ? value : NaN

# Line styles: the report dashed, the reference run with points, your run solid.
array block_colour[6] = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]
