# Lesson 14: every contender of the benchmark at the largest n of the run (2^28 elements in the
# quick benchmark), as GB/s (the fewest bytes a run must move over its time: 8 n for a scan,
# 4 n plus 4 per kept element for a compaction), integers and floats side by side, with the
# percentage of the device copy of the same bytes, measured in the same run (the CSV's ratio),
# above each bar of the reference machine's run; the second machine's run hatched right of each
# of those bars. Your own run, when build/bench holds one, as open squares.
load "plots/common.gp"

lesson = "14-scan-compaction"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
if (!exists("at_n")) at_n = 268435456

set title sprintf("Lesson 14: scans and compactions of %d elements, kernel time only", at_n)
set xlabel "contender\n"  # "\n": see the key in common.gp
set ylabel "GB/s; labels: % of a device copy, same run"
set xrange [0.3:10.7]
set yrange [0:5200]  # room above an H200's device copy (4.8 TB/s at most) for its label
set xtics ("device copy" 1, "CUB inclusive" 2, "single-pass incl." 3, "three-kernel incl." 4, \
           "CUB exclusive" 5, "single-pass excl." 6, "three-kernel excl." 7, "CUB select-if" 8, \
           "single-pass compact" 9, "compact" 10) rotate by -25 font ",9"
set style fill solid 0.8 border lc rgb "#555555"
set boxwidth 0.2

kernels = "device-copy cub-inclusive-sum single-pass-inclusive three-kernel-inclusive cub-exclusive-sum " \
        . "single-pass-exclusive three-kernel-exclusive cub-select-if single-pass-compact compact"
position(k) = sum [i = 1:10] (word(kernels, i) eq k ? i : 0)
wanted(p) = is("precision", p) && column("n") == at_n
percent(f) = sprintf("%.0f%%", 100.0 * column("ratio"))
# Integers left of each tick, floats right of it; each machine's pair of bars side by side.
x_of(p) = position(strcol("kernel")) + (p eq "int" ? -0.31 : 0.09)
second_x_of(p) = x_of(p) + 0.21

ref_name = has(ref) ? device(ref) : ""
plot for [p in "int float"] (has(ref) ? ref : "/dev/null") using (x_of(p)):(pick(wanted(p), column("rate"))) \
        with boxes lc rgb (p eq "int" ? block_colour[1] : block_colour[3]) \
        title (has(ref) ? sprintf("%s, %s", ref_name, p) : ""), \
     for [p in "int float"] (has(ref) ? ref : "/dev/null") using (x_of(p)):(pick(wanted(p), column("rate")) + 90):(percent(0)) \
        with labels font ",7" notitle, \
     for [p in "int float"] usable(sec) using (second_x_of(p)):(pick(wanted(p), column("rate"))) \
        with boxes fs pattern 4 border lc rgb (p eq "int" ? block_colour[1] : block_colour[3]) lc rgb (p eq "int" ? block_colour[1] : block_colour[3]) \
        title titled(sec, ", ".p), \
     for [p in "int float"] (has(mine) ? mine : "/dev/null") using (x_of(p)):(pick(wanted(p), column("rate"))) \
        with points pt 4 ps 1.4 lw 2 lc rgb (p eq "int" ? block_colour[2] : block_colour[4]) \
        title (has(mine) ? sprintf("%s, %s", yours_label(lesson), p) : "")
