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
# device(f): the GPU or CPU named in a benchmark CSV's "# device:" line.
device(f) = system(sprintf("sed -n 's/^# device: //p' '%s' | head -n 1", f))
# need(f): f, recorded as a file the chart cannot do without (a committed file of data/): after
# the script, render-chart.sh fails the chart when one of them is missing, or when the chart
# plotted no point at all (plots/tools/chart-epilogue.gp).
required = ""
need(f) = (required = required." ".f, f)
# The committed reference run (measured on the course's H100) and your own run of a lesson.
# report_only=1 leaves both out (a chart from the reports' data alone); your run is optional.
reference(lesson) = report_only ? "" : need(datadir."/h100/".lesson.".csv")
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
