# Lesson 08: parallel efficiency of SciddicaT on several GPUs (left) and where the time of a
# run goes (right). Efficiency is the benchmark's ratio column: T(1 GPU) / (N * T(N GPUs)) for
# strong scaling (same grid), T(1 GPU) / T(N GPUs) for weak scaling (grid grows with N). The
# dashed line is ideal scaling; the reference machine's run of two ranks on two GPUs
# (data/<folder>x2/, data/machines.csv) is drawn filled, the second machine's open and dotted
# (scaling; a black outline in the times), and yours comes from build/bench when present.
load "plots/common.gp"

lesson = "08-sciddicat-multigpu"
ref = ranks_reference(lesson, 2)
sec = ranks_second(lesson, 2)
mine = yours(lesson)
ref_name = has(ref) ? device(ref) : ""

# The device of the filled series goes into the overall title: a name such as "2x NVIDIA H100
# 80GB HBM3" leaves no room in a plot's own title.
set multiplot layout 1,2 title (has(ref) ? sprintf("Lesson 08: SciddicaT on several GPUs (filled: %s)", ref_name) \
                                         : "Lesson 08: SciddicaT on several GPUs")
# Both keys below their plots, in two rows each, so that the two plots keep the same height.
set key below center horizontal maxcols 2
set xlabel "GPUs\n"  # "\n": see the key in common.gp
# Half a GPU of room either side of the GPU counts run, so that no point or bar sits on the border.
gpus = 1
if (has(ref)) { stats ref using (column("n")) nooutput; gpus = STATS_max }
if (has(sec)) { stats sec using (column("n")) nooutput; gpus = (STATS_max > gpus) ? STATS_max : gpus }
if (has(mine)) { stats mine using (column("n")) nooutput; gpus = (STATS_max > gpus) ? STATS_max : gpus }
set xrange [0.5:gpus + 0.5]
set xtics 1
set ylabel "parallel efficiency"
set yrange [0:1.1]
set title "Scaling"
plot 1 with lines dt 2 lc rgb "#555555" title "ideal", \
     0.85 with lines dt 3 lc rgb "#d95f02" title "target, strong", \
     (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "strong"), column("ratio"))) \
        with linespoints pt 7 lc rgb block_colour[1] title (has(ref) ? "strong" : ""), \
     (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "weak"), column("ratio"))) \
        with linespoints pt 9 lc rgb block_colour[3] title (has(ref) ? "weak" : ""), \
     usable(sec) using (column("n")):(pick(is("kernel", "strong"), column("ratio"))) \
        with linespoints dt 3 pt 6 lc rgb block_colour[1] title titled(sec, ", strong"), \
     usable(sec) using (column("n")):(pick(is("kernel", "weak"), column("ratio"))) \
        with linespoints dt 3 pt 8 lc rgb block_colour[3] title titled(sec, ", weak"), \
     (has(mine) ? mine : "/dev/null") using (column("n")):(pick(is("kernel", "strong"), column("ratio"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[2] title (has(mine) ? yours_label(lesson).", strong" : ""), \
     (has(mine) ? mine : "/dev/null") using (column("n")):(pick(is("kernel", "weak"), column("ratio"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[4] title (has(mine) ? yours_label(lesson).", weak" : "")

set title "Strong scaling: time of one run"
set ylabel "milliseconds"
set yrange [0:*]
set style fill solid 0.8 border -1
# Three bars a GPU count: whole run, kernels only, halo exchange only. The exchange takes a few
# milliseconds of seconds, too little for its bar to show: its value is printed above it.
set boxwidth 0.25
if (has(ref) || has(mine)) {
plot (has(ref) ? ref : "/dev/null") using (column("n") - 0.27):(pick(is("kernel", "strong"), column("median_ms"))) \
        with boxes lc rgb block_colour[1] title (has(ref) ? "whole run" : ""), \
     (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "strong-compute"), column("median_ms"))) \
        with boxes lc rgb block_colour[2] title (has(ref) ? "kernels only" : ""), \
     (has(ref) ? ref : "/dev/null") using (column("n") + 0.27):(pick(is("kernel", "strong-exchange"), column("median_ms"))) \
        with boxes lc rgb block_colour[3] title (has(ref) ? "halo exchange only" : ""), \
     (has(ref) ? ref : "/dev/null") using (column("n") + 0.27):(pick(is("kernel", "strong-exchange"), column("median_ms"))):(sprintf("%.0f ms", column("median_ms"))) \
        with labels offset 0,0.8 font ",9" notitle, \
     usable(sec) using (column("n") - 0.27):(pick(is("kernel", "strong"), column("median_ms"))) \
        with boxes fs empty lw 1.5 lc rgb "#000000" title titled(sec, ", whole run"), \
     (has(mine) ? mine : "/dev/null") using (column("n") - 0.27):(pick(is("kernel", "strong"), column("median_ms"))) \
        with points pt 5 ps 1.5 lc rgb "#000000" title (has(mine) ? yours_label(lesson).", whole run" : "")
} else {
set yrange [0:1]
set label 1 "no multi-GPU run yet" at graph 0.5, graph 0.5 center
plot 2 notitle
}
unset multiplot
