# Lesson 03, program occupancy: GB/s of y = 3x over 2^27 doubles (bytes read + written over the
# kernel time) against the warps resident on each SM, set by the dynamic shared memory each
# block of 256 threads asks for; the copy ceiling measured in the same run. The reference
# machine (filled points, dashed), the second machine (open points, dotted) and yours (solid).
load "plots/common.gp"

lesson = "03-tiled-matmul-occupancy"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)

set title "Lesson 03: memory latency hidden by resident warps (y = 3x, 1 GiB in, 1 GiB out)"
set xlabel "warps resident per SM (of 64)\n"  # "\n": see the key in common.gp
set ylabel "GB/s (bytes read + written / time)"
set xrange [0:68]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0  # room above the copy line
set xtics (8, 16, 24, 32, 40, 48, 64)

plot (has(ref) ? ref : "/dev/null") using (column("n")):(pick(is("kernel", "resident-warps"), column("rate"))) \
        with linespoints dt 2 pt 7 lc rgb block_colour[1] title (has(ref) ? device(ref) : ""), \
     (has(ref) ? ref : "/dev/null") using (0):(column("ceiling_rate")):(68):(0) \
        with vectors nohead dt 3 lc rgb "#555555" title (has(ref) ? "device copy, same run" : ""), \
     usable(sec) using (column("n")):(pick(is("kernel", "resident-warps"), column("rate"))) \
        with linespoints dt 3 pt 6 lc rgb block_colour[1] title titled(sec, ""), \
     usable(sec) using (0):(column("ceiling_rate")):(68):(0) \
        with vectors nohead dt 3 lc rgb "#999999" title titled(sec, ": device copy"), \
     (has(mine) ? mine : "/dev/null") using (column("n")):(pick(is("kernel", "resident-warps"), column("rate"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[3] title (has(mine) ? yours_label(lesson) : "")
