# Lesson 02, program coalescing: GB/s of out = in * row_scale[row] (8192 x 8192 doubles, bytes
# read + written over the kernel time) against the number of threads a block has along x, which
# sets how many neighbouring doubles a warp reads in one row; the strided kernel (a warp down a
# column) and the copy ceiling measured in the same run. The reference machine (filled points,
# dashed), the second machine (open points, dotted) and yours (solid).
load "plots/common.gp"

lesson = "02-naive-matmul-coalescing"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
width(dummy) = real(substr(strcol("block"), 1, strstrt(strcol("block"), "x") - 1))

set title "Lesson 02: a warp along a row or down a column (8192 x 8192 doubles, kernel alone)"
set xlabel "threads of a block along x (a warp covers 32/x rows of x neighbouring doubles)\n"
set ylabel "GB/s (bytes read + written / time)"
set logscale x 2
set xrange [0.7:45]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0  # room above the copy line
set xtics (1, 2, 4, 8, 16, 32)

plot (has(ref) ? ref : "/dev/null") using (width(0)):(pick(is("kernel", "coalesced"), column("rate"))) \
        with linespoints dt 2 pt 7 lc rgb block_colour[1] title (has(ref) ? sprintf("%s, x along the columns", device(ref)) : ""), \
     (has(ref) ? ref : "/dev/null") using (32):(pick(is("kernel", "strided"), column("rate"))) \
        with points pt 9 ps 1.6 lc rgb block_colour[2] title (has(ref) ? sprintf("%s, strided kernel (32x8, a warp down a column)", device(ref)) : ""), \
     (has(ref) ? ref : "/dev/null") using (0.7):(pick(is("kernel", "strided"), column("ceiling_rate"))):(44.3):(0) \
        with vectors nohead dt 3 lc rgb "#555555" title (has(ref) ? "device copy, same run" : ""), \
     usable(sec) using (width(0)):(pick(is("kernel", "coalesced"), column("rate"))) \
        with linespoints dt 3 pt 6 lc rgb block_colour[1] title titled(sec, ", x along the columns"), \
     usable(sec) using (32):(pick(is("kernel", "strided"), column("rate"))) \
        with points pt 8 ps 1.6 lc rgb block_colour[2] title titled(sec, ", strided kernel"), \
     usable(sec) using (0.7):(pick(is("kernel", "strided"), column("ceiling_rate"))):(44.3):(0) \
        with vectors nohead dt 3 lc rgb "#999999" title titled(sec, ": device copy"), \
     (has(mine) ? mine : "/dev/null") using (width(0)):(pick(is("kernel", "coalesced"), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[3] title (has(mine) ? sprintf("%s, x along the columns", yours_label(lesson)) : ""), \
     (has(mine) ? mine : "/dev/null") using (32):(pick(is("kernel", "strided"), column("rate"))) \
        with points lw 2 pt 8 ps 1.6 lc rgb block_colour[4] title (has(mine) ? sprintf("%s, strided kernel", yours_label(lesson)) : "")
