# Lesson 01: CPU GFLOP/s against the matrix order. The report's CPU column (source 000, naive
# i-j-k loops) beside the two loop orders measured on the host CPU of the reference machine
# (filled), of the second machine (open) and on yours.
load "plots/common.gp"

report = need(datadir."/source000/matmul-report.csv")
lesson = "01-cpu-matmul"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
host(f) = has(f) ? sprintf(" (%s host)", host_of(f)) : ""

set title "Lesson 01: matrix product on one CPU core, double"
set xlabel "matrix order n\n"  # "\n": see the key in common.gp
set ylabel "GFLOP/s (2n^3/t)"
set xrange [0:*]
set yrange [0:*]

plot report using (column("n")):(pick(column("block") == 2, column("cpu_gflops"))) \
        with linespoints dt 2 pt 6 lc rgb "#555555" title "report (i-j-k)", \
     (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "cpu-ijk"), column("rate"))) \
        with points pt 7 lc rgb block_colour[1] title titled(ref, host(ref)." i-j-k"), \
     (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "cpu-ikj"), column("rate"))) \
        with points pt 9 lc rgb block_colour[2] title titled(ref, host(ref)." i-k-j"), \
     usable(sec) using (column("n")):(pick(is("kernel", "cpu-ijk"), column("rate"))) \
        with points pt 6 lc rgb block_colour[1] title titled(sec, host(sec)." i-j-k"), \
     usable(sec) using (column("n")):(pick(is("kernel", "cpu-ikj"), column("rate"))) \
        with points pt 8 lc rgb block_colour[2] title titled(sec, host(sec)." i-k-j"), \
     (has(mine) ? mine : "/dev/null") using (column("n")):(pick(is("kernel", "cpu-ijk"), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[1] title (has(mine) ? yours_label(lesson)." i-j-k" : ""), \
     (has(mine) ? mine : "/dev/null") using (column("n")):(pick(is("kernel", "cpu-ikj"), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[2] title (has(mine) ? yours_label(lesson)." i-k-j" : "")
