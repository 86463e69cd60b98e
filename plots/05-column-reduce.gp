# Lesson 05: effective bandwidth (GB/s = 8 m n / kernel time) of every version of the column
# sum on the assignment's shapes (data/source003/shapes.csv) plus 6,400,000 x 64, beside cuBLAS
# dgemv (y = A^T * ones) and the device copy bandwidth measured in the same run. The
# assignment's own speed-up table did not survive, so only measured runs are drawn: the
# reference machine (filled points), the second machine (open circles) and yours (open squares),
# when build/bench/05-column-reduce.csv exists.
load "plots/common.gp"

lesson = "05-column-reduce"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)

# The nine shapes, in the order of the assignment's run script, as x positions 1..9.
shapes = "160000x8 1600000x8 6400000x8 160000x32 1600000x32 6400000x32 160000x64 1600000x64 6400000x64"
shape_x(s) = (s eq word(shapes, 1)) ? 1 : (s eq word(shapes, 2)) ? 2 : (s eq word(shapes, 3)) ? 3 : \
             (s eq word(shapes, 4)) ? 4 : (s eq word(shapes, 5)) ? 5 : (s eq word(shapes, 6)) ? 6 : \
             (s eq word(shapes, 7)) ? 7 : (s eq word(shapes, 8)) ? 8 : (s eq word(shapes, 9)) ? 9 : NaN
set xtics ("160000x8" 1, "1.6Mx8" 2, "6.4Mx8" 3, "160000x32" 4, "1.6Mx32" 5, "6.4Mx32" 6, \
           "160000x64" 7, "1.6Mx64" 8, "6.4Mx64" 9)

set title "Lesson 05: column sums of an m x n matrix of doubles, kernel time only"
set xlabel "shape (m rows x n columns)\n"  # "\n": see the key in common.gp
set ylabel "GB/s (8 m n / t)"
set xrange [0.5:9.5]
set yrange [0.3:6000]
set logscale y

versions = "original split16 high2 split16-cas bandwidth bandwidth-shuffle cub-segmented thrust-by-key cublas-dgemv"
array version_colour[9] = ["#999999", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#e6ab02", "#66a61e", "#a6761d", "#000000"]
ref_name = has(ref) ? device(ref) : ""
# Each version a little to the side of the shape's tick, so that versions of equal speed
# (split16 and split16-cas) do not hide one another.
dodge(i) = (i - 5) * 0.07

plot for [i=1:9] (has(ref) ? ref : "/dev/null") using (shape_x(strcol("shape")) + dodge(i)):(pick(is("kernel", word(versions, i)), column("rate"))) \
        with points pt 7 ps 0.9 lc rgb version_colour[i] title (has(ref) ? sprintf("%s %s", ref_name, word(versions, i)) : ""), \
     for [i=1:9] usable(sec) using (shape_x(strcol("shape")) + dodge(i)):(pick(is("kernel", word(versions, i)), column("rate"))) \
        with points pt 6 ps 0.9 lc rgb version_colour[i] title (i == 1 ? titled(sec, ", each version (open)") : ""), \
     for [i=1:9] (has(mine) ? mine : "/dev/null") using (shape_x(strcol("shape")) + dodge(i)):(pick(is("kernel", word(versions, i)), column("rate"))) \
        with points lw 2 pt 4 ps 1.6 lc rgb version_colour[i] title (has(mine) ? sprintf("%s %s", yours_label(lesson), word(versions, i)) : ""), \
     (has(ref) ? ref : "/dev/null") using (0.5):(pick(is("kernel", "device-copy"), column("rate"))):(9.0):(0) \
        with vectors nohead dt 3 lc rgb "#555555" title (has(ref) ? "device copy (read + write)" : "")
