# Lesson 12: the smoothing step's speed as a share of a device copy of the same grid (8192 x
# 8192 doubles, the copy measured in the same run), for the four versions of the lesson on the
# reference machine (filled bars; the second machine's hatched beside them): as given (a warp
# reads down a column, one block per SM), with the cells taken along the rows only, with enough
# blocks only, and with both. Your own run (the exercise once it passes, else this machine's
# reference solution) is the solid line.
load "plots/common.gp"

lesson = "12-profiling"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
array version[4] = ["as-given", "rows-fixed", "blocks-fixed", "both-fixed"]
array version_label[4] = ["as given", "cells along rows", "enough blocks", "both"]
slot(dummy) = strcol("kernel") eq version[1] ? 1 : strcol("kernel") eq version[2] ? 2 : \
              strcol("kernel") eq version[3] ? 3 : strcol("kernel") eq version[4] ? 4 : NaN

set title "Lesson 12: one smoothing step as a share of a device copy (8192 x 8192 doubles, kernel alone)"
set xlabel "version of the step\n"  # "\n": see the key in common.gp
set ylabel "share of the device copy's speed, same run (%)"
set xrange [0.4:4.6]
set yrange [0:115]
set xtics ("as given" 1, "cells along rows" 2, "enough blocks" 3, "both" 4)
set style fill solid 0.75 border lc rgb "#555555"
set boxwidth 0.34

plot (has(ref) ? ref : "/dev/null") using (slot(0) - 0.18):(100 * column("ratio")) \
        with boxes lc rgb block_colour[1] title (has(ref) ? device(ref) : ""), \
     (has(ref) ? ref : "/dev/null") using (slot(0) - 0.18):(100 * column("ratio")):(sprintf("%.0f%%", 100 * column("ratio"))) \
        with labels offset 0, 0.8 font ",9" notitle, \
     usable(sec) using (slot(0) + 0.18):(100 * column("ratio")) \
        with boxes fs pattern 4 border lc rgb block_colour[1] lc rgb block_colour[1] title titled(sec, ""), \
     usable(sec) using (slot(0) + 0.18):(100 * column("ratio")):(sprintf("%.0f%%", 100 * column("ratio"))) \
        with labels offset 0, 0.8 font ",9" tc rgb "#777777" notitle, \
     (has(mine) ? mine : "/dev/null") using (0.4):(pick(is("kernel", "smooth"), 100 * column("ratio"))):(4.2):(0) \
        with vectors nohead lw 2 lc rgb block_colour[3] title (has(mine) ? yours_label(lesson) : "")
