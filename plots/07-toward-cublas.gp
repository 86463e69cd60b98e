# Lesson 07: every step toward cuBLAS at the largest n of the run (8192 in the quick
# benchmark), as TFLOP/s (bars) with the percentage of cuBLAS DGEMM measured in the same run
# written above each bar. Kernels 01 and 02 are those of lessons 02 and 03. The reference
# machine's run (left bars), the second machine's (hatched, middle) and yours (right).
load "plots/common.gp"

lesson = "07-toward-cublas"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
if (!exists("at_n")) at_n = 8192

set title sprintf("Lesson 07: double-precision matrix product, n = %d, step by step", at_n)
set ylabel "TFLOP/s (2n^3/t); labels: % of cuBLAS DGEMM, same run"
set xrange [0.3:11.7]
set yrange [0:75]
set xtics ("01 naive (L02)" 1, "02 tiled (L03)" 2, "03 transposed" 3, "04 1D regs" 4, "05 2D regs" 5, \
           "06 double2, 2 buf" 6, "07 warp tile" 7, "08 DMMA" 8, "09 DMMA 16x8x16" 9, \
           "10 FMA pipelined" 10, "cuBLAS" 11) \
          rotate by -30 font ",9"
set style fill solid 0.8 border lc rgb "#555555"
set boxwidth 0.26

# Position on the x axis from the kernel column ("05-register-tile-2d" -> 5, "cublas" -> 11);
# found by position in a string, since gnuplot would read "08" as a bad octal number.
step_of(k) = strstrt("01-02-03-04-05-06-07-08-09-10-cu", substr(k, 1, 2)) / 3 + 1
wanted(f) = is("precision", "double") && column("n") == at_n
tflops(f) = column("rate") / 1000.0
percent(f) = sprintf("%.0f%%", 100.0 * column("ratio"))

# NVIDIA's published peaks of the reference machine (its data/specs/ file): FP64 FMA on the
# ordinary cores, and on the FP64 tensor cores (kernels 08, 09 and cuBLAS).
fma_peak = published("fp64-peak")
tensor_peak = published("fp64-tensor-peak")
set arrow from 0.3, fma_peak to 11.7, fma_peak nohead dt 2 lc rgb "#888888"
set label sprintf("FP64 FMA peak (%s SXM, datasheet): %.1f", published_label, fma_peak) at 0.4, fma_peak + 2 font ",9" tc rgb "#666666"
set arrow from 0.3, tensor_peak to 11.7, tensor_peak nohead dt 2 lc rgb "#888888"
set label sprintf("FP64 tensor-core peak (datasheet): %.1f", tensor_peak) at 0.4, tensor_peak + 2 font ",9" tc rgb "#666666"

plot (has(ref) ? ref : "/dev/null") using (step_of(strcol("kernel")) - 0.27):(pick(wanted(0), tflops(0))) \
        with boxes lc rgb block_colour[3] title (has(ref) ? device(ref) : ""), \
     (has(ref) ? ref : "/dev/null") using (step_of(strcol("kernel")) - 0.27):(pick(wanted(0), tflops(0)) + 1.5):(percent(0)) \
        with labels font ",7" notitle, \
     usable(sec) using (step_of(strcol("kernel"))):(pick(wanted(0), tflops(0))) \
        with boxes fs pattern 4 border lc rgb block_colour[3] lc rgb block_colour[3] title titled(sec, ""), \
     usable(sec) using (step_of(strcol("kernel"))):(pick(wanted(0), tflops(0)) + 4.5):(percent(0)) \
        with labels font ",7" tc rgb "#777777" notitle, \
     (has(mine) ? mine : "/dev/null") using (step_of(strcol("kernel")) + 0.27):(pick(wanted(0), tflops(0))) \
        with boxes lc rgb block_colour[2] title (has(mine) ? yours_label(lesson).": ".device(mine) : ""), \
     (has(mine) ? mine : "/dev/null") using (step_of(strcol("kernel")) + 0.27):(pick(wanted(0), tflops(0)) + 1.5):(percent(0)) \
        with labels font ",7" notitle
