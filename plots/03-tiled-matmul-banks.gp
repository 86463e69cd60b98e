# Lesson 03, program banks: GB/s of an 8192 x 8192 transpose (bytes read + written over the
# kernel time) for the kernel without shared memory, the tiled kernel with rows kTile apart
# (bank conflicts on every column read) and with the padded pitch, floats and doubles, beside the
# copy ceiling measured in the same run. The reference machine (filled), the second machine
# (hatched) and yours (outlined).
load "plots/common.gp"

lesson = "03-tiled-matmul-banks"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
kernels = "naive tiled-pitch32 tiled-pitch33"
kernel_x(k, type) = (type eq "float" ? 0 : 4) + (k eq "naive" ? 1 : k eq "tiled-pitch32" ? 2 : k eq "tiled-pitch33" ? 3 : NaN)

set title "Lesson 03: transposing through a shared-memory tile (8192 x 8192, kernel alone)"
set ylabel "GB/s (bytes read + written / time)"
set xrange [0.3:7.7]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0  # room above the copy line
set xtics ("float\nno shared memory" 1, "float\npitch 32" 2, "float\npitch 33" 3, \
           "double\nno shared memory" 5, "double\npitch 32" 6, "double\npitch 33" 7)
set bmargin 5
set style fill solid 0.7 border lc rgb "#333333"
set boxwidth 0.24

plot (has(ref) ? ref : "/dev/null") using (kernel_x(strcol("kernel"), strcol("precision")) - 0.25):(column("rate")) \
        with boxes lc rgb block_colour[1] title (has(ref) ? device(ref) : ""), \
     (has(ref) ? ref : "/dev/null") using (0.3):(column("ceiling_rate")):(7.4):(0) \
        with vectors nohead dt 3 lc rgb "#555555" title (has(ref) ? "device copy, same run" : ""), \
     usable(sec) using (kernel_x(strcol("kernel"), strcol("precision"))):(column("rate")) \
        with boxes fs pattern 4 border lc rgb block_colour[3] lc rgb block_colour[3] title titled(sec, ""), \
     (has(mine) ? mine : "/dev/null") using (kernel_x(strcol("kernel"), strcol("precision")) + 0.25):(column("rate")) \
        with boxes fs empty border lc rgb block_colour[2] lw 2 title (has(mine) ? yours_label(lesson) : "")
