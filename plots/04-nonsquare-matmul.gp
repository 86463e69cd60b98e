# Lesson 04: GFLOP/s (2nmp/t, useful work only) per shape, 32 x 32 tiles: approach 1 (padding)
# and approach 2 (bounds checks), kernel alone and with allocation and copies, and cuBLAS DGEMM
# measured in the same run. The reference machine (darker bars), the second machine (hatched)
# and yours (lighter, when present).
load "plots/common.gp"

lesson = "04-nonsquare-matmul"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)

set title "Lesson 04: non-square products, double, 32 x 32 tiles"
set ylabel "GFLOP/s"
set logscale y
set yrange [1:100000]
set style fill solid 0.8 border lc rgb "#555555"
set boxwidth 0.05

shapes = "4096x3x4096 2049x2049x2049 3000x2000x5000"
set xrange [-0.6:2.6]
set xtics ("4096x3x4096, tall and skinny" 0, "2049x2049x2049, just past 2048" 1, "3000x2000x5000" 2)
array K[5] = ["padded", "padded", "bounds", "bounds", "cublas-dgemm"]
array T[5] = [0, 1, 0, 1, 0]
array N[5] = ["padded, kernel", "padded, with copies", "bounds, kernel", "bounds, with copies", "cuBLAS DGEMM"]
shape_index(dummy) = (is("shape", word(shapes, 1)) ? 0 : is("shape", word(shapes, 2)) ? 1 : is("shape", word(shapes, 3)) ? 2 : NaN)
sel(i) = is("kernel", K[i]) && column("transfers") == T[i] && (is("block", "32x32") || K[i] eq "cublas-dgemm")

plot for [i=1:5] usable(ref) using (shape_index(0) - 0.4 + 0.16 * i - 0.05):(pick(sel(i), column("rate"))) \
        with boxes lc rgb block_colour[i] title (has(ref) ? device(ref)." ".N[i] : ""), \
     for [i=1:5] usable(sec) using (shape_index(0) - 0.4 + 0.16 * i):(pick(sel(i), column("rate"))) \
        with boxes fs pattern 4 border lc rgb block_colour[i] lc rgb block_colour[i] title (i == 1 ? titled(sec, ", each kernel (hatched)") : ""), \
     for [i=1:5] usable(mine) using (shape_index(0) - 0.4 + 0.16 * i + 0.05):(pick(sel(i), column("rate"))) \
        with boxes fs transparent solid 0.35 lc rgb block_colour[i] title (has(mine) ? yours_label(lesson)." ".N[i] : "")
