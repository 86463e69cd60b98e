# The course notebook's comparison (source 001) as bars, GFLOP/s on a log scale: its own float
# runs at N = 64 (and the wrong N = 60, 32 x 32 run) beside the reference machine at n = 2000,
# kernel time only: lesson 02's naive kernel (double), lesson 03's tiled kernel and the
# notebook's transposed variant with 8 x 8 and 32 x 32 tiles in float and double, and cuBLAS
# as the library peer; the second machine's beside them (hatched), and yours (lighter bars)
# when your lesson 02/03 benchmarks exist.
load "plots/common.gp"

notebook = need(datadir."/source001/notebook.csv")
ref02 = reference("02-naive-matmul")
ref03 = reference("03-tiled-matmul")
sec02 = second("02-naive-matmul")
sec03 = second("03-tiled-matmul")
mine02 = yours("02-naive-matmul")
mine03 = yours("03-tiled-matmul")
order = 2000

set title "Naive versus shared-memory tiles: the notebook (float, N = 64) and today's GPU (n = 2000)"
set ylabel "GFLOP/s"
set logscale y
set yrange [0.3:200000]
set xrange [-0.8:17.8]
set style fill solid 0.8 border lc rgb "#555555"
set boxwidth 0.27
set xtics rotate by -40 font ",8" nomirror

# The machines' bars: lesson (02 or 03), kernel, precision, block.
array L[12] = [2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
array K[12] = ["naive", "naive", "tiled", "tiled", "transposed", "transposed", "tiled", "tiled", "transposed", "transposed", "cublas-sgemm", "cublas-dgemm"]
array P[12] = ["double", "double", "float", "float", "float", "float", "double", "double", "double", "double", "float", "double"]
array B[12] = ["8x8", "32x32", "8x8", "32x32", "8x8", "32x32", "8x8", "32x32", "8x8", "32x32", "-", "-"]
set xtics ("notebook cpu" 0, "notebook naive 8" 1, "notebook shared 8" 2, "notebook shared 32, N=60 (wrong)" 3)
do for [i=1:12] { set xtics add ((B[i] eq "-" ? sprintf("%s %s", K[i], P[i]) : sprintf("%s %s %s", K[i], P[i], B[i])) 5 + i) }
sel(i) = is("kernel", K[i]) && is("precision", P[i]) && is("block", B[i]) && column("n") == order && column("transfers") == 0
file(lesson_no, a, b) = lesson_no == 2 ? a : b

plot notebook using 0:(column("gflops")) with boxes lc rgb "#999999" title "notebook (float, its Colab GPU)", \
     for [i=1:12] usable(file(L[i], ref02, ref03)) using (5 + i - 0.28):(pick(sel(i), column("rate"))) \
        with boxes lc rgb block_colour[1] title (i == 1 && has(ref03) ? device(ref03)." (reference)" : ""), \
     for [i=1:12] usable(file(L[i], sec02, sec03)) using (5 + i):(pick(sel(i), column("rate"))) \
        with boxes fs pattern 4 border lc rgb block_colour[3] lc rgb block_colour[3] title (i == 1 ? titled(sec03, "") : ""), \
     for [i=1:12] usable(file(L[i], mine02, mine03)) using (5 + i + 0.28):(pick(sel(i), column("rate"))) \
        with boxes lc rgb block_colour[2] title (i == 1 && has(mine03) ? yours_label("03-tiled-matmul") : "")
