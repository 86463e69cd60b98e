# Lesson 02: GFLOP/s of the naive kernel against the block size, the kernel alone (transfers 0)
# and the round trip with allocation and copies (transfers 1), at each benchmarked order.
# The reference machine (circles), the second machine (open diamonds and triangles) and yours
# (solid).
load "plots/common.gp"

lesson = "02-naive-matmul"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
side(dummy) = strstrt(strcol("block"), "x") > 0 ? real(substr(strcol("block"), 1, strstrt(strcol("block"), "x") - 1)) : NaN
square_block(dummy) = strstrt(strcol("block"), "x") > 0 && is("block", sprintf("%dx%d", side(0), side(0)))
sel(order, copies) = is("kernel", "naive") && column("n") == order && column("transfers") == copies && square_block(0)

set title "Lesson 02: naive kernel, double, one thread per element of C"
set xlabel "block (threads per side)\n"  # "\n": see the key in common.gp
set ylabel "GFLOP/s (2n^3/t)"
set logscale x 2
set logscale y
set xrange [1.5:45]
set yrange [100:20000]
set xtics ("2x2" 2, "4x4" 4, "8x8" 8, "16x16" 16, "32x32" 32)

orders = "1000 2000"
plot for [i=1:2] (has(ref) ? ref : "/dev/null") using (side(0)):(pick(sel(word(orders, i) + 0, 0), column("rate"))) \
        with linespoints dt 2 pt 7 lc rgb block_colour[i] title (has(ref) ? sprintf("%s n=%s kernel", device(ref), word(orders, i)) : ""), \
     for [i=1:2] (has(ref) ? ref : "/dev/null") using (side(0)):(pick(sel(word(orders, i) + 0, 1), column("rate"))) \
        with linespoints dt 3 pt 6 lc rgb block_colour[i] title (has(ref) ? sprintf("%s n=%s with copies", device(ref), word(orders, i)) : ""), \
     for [i=1:2] usable(sec) using (side(0)):(pick(sel(word(orders, i) + 0, 0), column("rate"))) \
        with linespoints dt 3 pt 12 lc rgb block_colour[i] title titled(sec, sprintf(" n=%s kernel", word(orders, i))), \
     for [i=1:2] usable(sec) using (side(0)):(pick(sel(word(orders, i) + 0, 1), column("rate"))) \
        with linespoints dt 4 pt 8 lc rgb block_colour[i] title titled(sec, sprintf(" n=%s with copies", word(orders, i))), \
     for [i=1:2] (has(mine) ? mine : "/dev/null") using (side(0)):(pick(sel(word(orders, i) + 0, 0), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[i + 2] title (has(mine) ? sprintf("%s n=%s kernel", yours_label(lesson), word(orders, i)) : ""), \
     for [i=1:2] (has(mine) ? mine : "/dev/null") using (side(0)):(pick(sel(word(orders, i) + 0, 1), column("rate"))) \
        with linespoints lw 2 dt 3 pt 4 lc rgb block_colour[i + 2] title (has(mine) ? sprintf("%s n=%s with copies", yours_label(lesson), word(orders, i)) : "")
