# Lesson 10: time for 4000 SciddicaT steps per version and tile, on tessina (610 x 496) and on
# the synthetic terrain of the same size, whose larger landslide reaches more tiles. The
# reference machine's run (filled symbols), the second machine's (open symbols) and yours
# (crosses, build/bench/10-sciddicat-active-tiles.csv when present). Your run also holds the
# baselines: the SciddicaT lesson's fused step, plain and from a CUDA graph.
load "plots/common.gp"

lesson = "10-sciddicat-active-tiles"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
ref_name = has(ref) ? device(ref) : ""

# One column per version and tile, in the order of the benchmark.
xpos(k, b) = k eq "fused" ? 1 : k eq "fused-graph" ? 2 : \
    k eq "multistep" ? (b eq "32x16/k2" ? 3 : b eq "32x16/k4" ? 4 : b eq "64x16/k4" ? 5 : b eq "32x8/k8" ? 6 : NaN) : \
    k eq "active-tiles" ? (b eq "20x8/k3/t640" ? 7 : b eq "16x12/k3/t672" ? 8 : b eq "12x8/k3/t960" ? 9 : \
                           b eq "16x8/k2/t768" ? 10 : b eq "8x8/k2/t1024" ? 11 : b eq "16x16/k4/t1024" ? 12 : NaN) : NaN
x(dummy) = xpos(strcol("kernel"), strcol("block"))
# Rows of the real grid (baseline "serial") and of the synthetic one ("synthetic-serial...").
tessina = 'is("baseline", "serial")'
synthetic = 'strstrt(strcol("baseline"), "synthetic") == 1'

set title "SciddicaT, 610x496, 4000 steps: multistep and active tiles"
set xrange [0.5:12.5]
set xtics rotate by -35 ("fused 32x8" 1, "fused graph" 2, "multistep 32x16 K2" 3, "32x16 K4" 4, "64x16 K4" 5, \
    "32x8 K8" 6, "active 20x8 K3" 7, "16x12 K3" 8, "12x8 K3" 9, "16x8 K2" 10, "8x8 K2" 11, "16x16 K4" 12)
set ylabel "time for 4000 steps (ms)"
set logscale y

if (has(ref) || has(sec) || has(mine)) {
plot (has(ref) ? ref : "/dev/null") using (x(0)):(pick(@tessina, column("median_ms"))) \
        with points pt 7 ps 1.3 lc rgb block_colour[1] title (has(ref) ? ref_name.", tessina" : ""), \
     (has(ref) ? ref : "/dev/null") using (x(0)):(pick(@synthetic, column("median_ms"))) \
        with points pt 5 ps 1.1 lc rgb block_colour[2] title (has(ref) ? ref_name.", synthetic" : ""), \
     usable(sec) using (x(0)):(pick(@tessina, column("median_ms"))) \
        with points pt 6 ps 1.3 lc rgb block_colour[1] title titled(sec, ", tessina"), \
     usable(sec) using (x(0)):(pick(@synthetic, column("median_ms"))) \
        with points pt 4 ps 1.1 lc rgb block_colour[2] title titled(sec, ", synthetic"), \
     (has(mine) ? mine : "/dev/null") using (x(0)):(pick(@tessina, column("median_ms"))) \
        with points pt 2 ps 1.5 lw 2 lc rgb block_colour[1] title (has(mine) ? yours_label(lesson).", tessina" : ""), \
     (has(mine) ? mine : "/dev/null") using (x(0)):(pick(@synthetic, column("median_ms"))) \
        with points pt 2 ps 1.5 lw 2 lc rgb block_colour[2] title (has(mine) ? yours_label(lesson).", synthetic" : "")
} else {
unset logscale y
set yrange [0:1]
set label 1 "no benchmark run of lesson 10 yet" at graph 0.5, graph 0.5 center
plot 2 notitle
}
