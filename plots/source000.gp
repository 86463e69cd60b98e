# Source 000's charts: one of time, GFLOP/s or speedup over the CPU, against the matrix order,
# one curve per block (tile) size: the report's numbers (dashed), the reference machine (filled
# points: the tiled-matmul lesson's quick benchmark plus its sweep over n = 1000..10000 for tiles
# 8, 16 and 32), the second machine (open points) and yours (solid, when
# build/bench/NN-tiled-matmul.csv exists). Like the report, the GPU time
# includes allocation, zero padding and host<->device copies (rows with transfers = 1).
# The speedup is over one CPU core: the report's CPU for its curves, the cpu-matmul lesson's i-k-j
# loop on the benchmark host for the others (measured up to a time budget, extrapolated by n^3
# beyond).
# Extra variable: what = 'time' | 'gflops' | 'speedup'.
load "plots/common.gp"
if (!exists("what")) what = "gflops"

report = need(datadir."/source000/matmul-report.csv")
# The lesson's folder, lessons/NN-tiled-matmul, found by its name: the chart follows it when it is renumbered.
lesson = system("cd lessons && ls -d [0-9][0-9]-tiled-matmul")
ref = reference(lesson)
sweep = reference(lesson."-sweep")
sec = second(lesson)
sec_sweep = second(lesson."-sweep")
mine = yours(lesson)
report_col = (what eq "time") ? "gpu_s" : (what eq "gflops") ? "gpu_gflops" : "speedup"
bench_value(dummy) = (what eq "time") ? column("median_ms") / 1000.0 : (what eq "gflops") ? column("rate") : column("speedup")
matches(b) = is("kernel", "tiled") && is("precision", "double") && column("transfers") == 1 && is("block", sprintf("%dx%d", b, b))

set xlabel "matrix order n\n"  # "\n": see the key in common.gp
set xrange [0:10500]
set logscale y
if (what eq "time") { set ylabel "time (s), allocation and copies included"; set title "Matrix product, double, tiled kernel: time" }
if (what eq "gflops") { set ylabel "GFLOP/s (2n^3/t), copies included"; set title "Matrix product, double, tiled kernel: GFLOP/s" }
if (what eq "speedup") { set ylabel "speedup over one CPU core"; set title "Matrix product, double, tiled kernel: speedup over the CPU" }

blocks = "2 4 8 16 32"
ref_name = has(ref) ? device(ref) : ""
mine_name = has(mine) ? device(mine) : ""

plot for [i=1:5] report using (column("n")):(pick(column("block") == word(blocks, i) + 0, column(report_col))) \
        with linespoints dt 2 pt 6 ps 0.6 lc rgb block_colour[i] title sprintf("report %sx%s", word(blocks, i), word(blocks, i)), \
     for [i=1:5] (has(ref) ? ref : "/dev/null") using (column("n")):(pick(matches(word(blocks, i) + 0), bench_value(0))) \
        with points pt 7 ps 0.9 lc rgb block_colour[i] title (has(ref) ? sprintf("%s %sx%s", ref_name, word(blocks, i), word(blocks, i)) : ""), \
     for [i=1:5] (has(sweep) ? sweep : "/dev/null") using (column("n")):(pick(matches(word(blocks, i) + 0), bench_value(0))) \
        with points pt 7 ps 0.9 lc rgb block_colour[i] notitle, \
     for [i=1:5] usable(sec) using (column("n")):(pick(matches(word(blocks, i) + 0), bench_value(0))) \
        with points pt 6 ps 0.9 lc rgb block_colour[i] title (i == 1 ? titled(sec, ", every tile (open)") : ""), \
     for [i=1:5] usable(sec_sweep) using (column("n")):(pick(matches(word(blocks, i) + 0), bench_value(0))) \
        with points pt 6 ps 0.9 lc rgb block_colour[i] notitle, \
     for [i=1:5] (has(mine) ? mine : "/dev/null") using (column("n")):(pick(matches(word(blocks, i) + 0), bench_value(0))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[i] title (has(mine) ? sprintf("%s (%s) %sx%s", yours_label(lesson), mine_name, word(blocks, i), word(blocks, i)) : "")
