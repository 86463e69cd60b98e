# Lesson 03: kernel-only GFLOP/s (no copies) against the matrix order, double: the tiled kernel
# per tile width, the notebook's transposed variant, and cuBLAS DGEMM measured in the same run.
# The reference machine (filled points: quick benchmark and sweep), the second machine (open
# points) and yours (solid lines).
load "plots/common.gp"

lesson = "03-tiled-matmul"
ref = reference(lesson)
sweep = reference(lesson."-sweep")
sec = second(lesson)
sec_sweep = second(lesson."-sweep")
mine = yours(lesson)
sel(k, b) = is("kernel", k) && is("precision", "double") && column("transfers") == 0 && is("block", b)

set title "Lesson 03: tiled kernel, double, kernel time only"
set xlabel "matrix order n\n"  # "\n": see the key in common.gp
set ylabel "GFLOP/s (2n^3/t)"
set xrange [0:10500]
set logscale y
set yrange [100:100000]

kernels = "tiled tiled tiled tiled tiled transposed cublas-dgemm"
blocks = "2x2 4x4 8x8 16x16 32x32 32x32 -"
names = "tiled-2x2 tiled-4x4 tiled-8x8 tiled-16x16 tiled-32x32 transposed-32x32 cuBLAS-DGEMM"
colour(i) = i == 7 ? "#000000" : block_colour[i]
plot for [i=1:7] (has(ref) ? ref : "/dev/null") using (column("n")):(pick(sel(word(kernels, i), word(blocks, i)), column("rate"))) \
        with points pt 7 lc rgb colour(i) title (has(ref) ? device(ref)." ".word(names, i) : ""), \
     for [i=1:7] (has(sweep) ? sweep : "/dev/null") using (column("n")):(pick(sel(word(kernels, i), word(blocks, i)), column("rate"))) \
        with points pt 7 lc rgb colour(i) notitle, \
     for [i=1:7] usable(sec) using (column("n")):(pick(sel(word(kernels, i), word(blocks, i)), column("rate"))) \
        with points pt 6 lc rgb colour(i) title (i == 1 ? titled(sec, ", every kernel (open)") : ""), \
     for [i=1:7] usable(sec_sweep) using (column("n")):(pick(sel(word(kernels, i), word(blocks, i)), column("rate"))) \
        with points pt 6 lc rgb colour(i) notitle, \
     for [i=1:7] (has(mine) ? mine : "/dev/null") using (column("n")):(pick(sel(word(kernels, i), word(blocks, i)), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb colour(i) title (has(mine) ? yours_label(lesson)." ".word(names, i) : "")
