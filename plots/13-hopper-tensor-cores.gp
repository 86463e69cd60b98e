# Lesson 13: every step of the BF16 climb at the largest n of the run (8192 in the quick
# benchmark), as TFLOP/s (bars) with the percentage of the ceiling measured in the same run
# written above each bar (the CSV's ratio: cuBLASLt's best where the run has a cublaslt-best
# row, else cublasGemmEx), under NVIDIA's published dense BF16 peak. Runs made before the
# cublaslt-best row existed leave its place empty. The reference machine's run (left bars), the
# second machine's (hatched, middle) and yours (right).
load "plots/common.gp"

lesson = "13-hopper-tensor-cores"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
if (!exists("at_n")) at_n = 8192

set title sprintf("Lesson 13: BF16 matrix product on Hopper, %d^3, step by step", at_n)
set ylabel "TFLOP/s (2n^3/t); labels: % of the best library, same run"
set xrange [0.3:8.7]
set yrange [0:1100]
set xtics ("01 mma.sync" 1, "02 wgmma + TMA" 2, "03 warp-specialized" 3, "04 persistent" 4, \
           "05 cluster multicast" 5, "06 TMA epilogue" 6, "cublasGemmEx" 7, "cuBLASLt best" 8) \
          rotate by -20 font ",9"
set style fill solid 0.8 border lc rgb "#555555"
set boxwidth 0.26

# Step number from the kernel column ("03-warp-specialized" -> 3, "cublas" -> 7,
# "cublaslt-best" -> 8); found by position in a string, since gnuplot would read "08" as a bad
# octal number.
step_of(k) = k eq "cublaslt-best" ? 8 : strstrt("01-02-03-04-05-06-cu", substr(k, 1, 2)) / 3 + 1
wanted(f) = is("precision", "bf16") && column("n") == at_n
tflops(f) = column("rate") / 1000.0
percent(f) = sprintf("%.0f%%", 100.0 * column("ratio"))

# NVIDIA's published dense BF16 tensor-core peak of the reference machine (its data/specs/ file).
peak = published("bf16-tensor-peak")
set arrow from 0.3, peak to 8.7, peak nohead dt 2 lc rgb "#888888"
set label sprintf("BF16 tensor-core peak (%s SXM, datasheet): %.0f", published_label, peak) at 0.4, peak + 25 font ",9" tc rgb "#666666"

plot (has(ref) ? ref : "/dev/null") using (step_of(strcol("kernel")) - 0.27):(pick(wanted(0), tflops(0))) \
        with boxes lc rgb block_colour[3] title (has(ref) ? device(ref) : ""), \
     (has(ref) ? ref : "/dev/null") using (step_of(strcol("kernel")) - 0.27):(pick(wanted(0), tflops(0)) + 20):(percent(0)) \
        with labels font ",7" notitle, \
     usable(sec) using (step_of(strcol("kernel"))):(pick(wanted(0), tflops(0))) \
        with boxes fs pattern 4 border lc rgb block_colour[3] lc rgb block_colour[3] title titled(sec, ""), \
     usable(sec) using (step_of(strcol("kernel"))):(pick(wanted(0), tflops(0)) + 55):(percent(0)) \
        with labels font ",7" tc rgb "#777777" notitle, \
     (has(mine) ? mine : "/dev/null") using (step_of(strcol("kernel")) + 0.27):(pick(wanted(0), tflops(0))) \
        with boxes lc rgb block_colour[2] title (has(mine) ? yours_label(lesson).": ".device(mine) : ""), \
     (has(mine) ? mine : "/dev/null") using (step_of(strcol("kernel")) + 0.27):(pick(wanted(0), tflops(0)) + 20):(percent(0)) \
        with labels font ",7" notitle
