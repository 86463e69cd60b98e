# Roofline: the GFLOP/s each benchmark row achieved against its arithmetic intensity (its
# floating-point operations per byte of device memory, both declared by the benchmark from the
# problem's size), under the roofs measured in the same run ('# roofs:' line of the CSV:
# streaming bandwidth, FP64 and FP32 FMA, FP64 tensor cores) and NVIDIA's published figures
# (the reference machine's data/specs/ file, dotted). Kernel rows only: rows with transfers, or
# that do no floating-point work (a transpose, a copy), have no point on this chart.
# lesson='all' (default): every lesson's rows, the reference machine's runs (filled), the second
# machine's (open triangles) and this machine's runs (open circles); lesson='NN-name': one
# lesson's or program's CSV. The roofs are those of the first run of the filled points.
load "plots/common.gp"
if (!exists("lesson")) lesson = "all"

# A machine's runs that were placed under a roofline (their CSV has a '# roofs:' line); where the
# reference machine has none yet, the second machine's are drawn as the filled points.
placed_runs(folder) = system("grep -l '^# roofs:' ".datadir."/".folder."/[0-9][0-9]-*.csv 2>/dev/null | tr '\\n' ' '")
reference_has_runs = strlen(placed_runs(reference_folder)) > 0
if (lesson eq "all" && !reference_has_runs) {
    print sprintf("note: no run under %s/%s/ yet: the chart draws %s/", datadir, reference_folder, second_folder)
}
reference_files = (lesson eq "all") ? placed_runs(reference_has_runs ? reference_folder : second_folder) : \
    reference(lesson)
second_files = (lesson eq "all") ? (reference_has_runs ? placed_runs(second_folder) : "") : second(lesson)
required = required." ".word(reference_files, 1)  # at least one committed run
your_files = (strlen(benchdir) > 0) ? \
    ((lesson eq "all") ? system("grep -l '^# roofs:' ".benchdir."/[0-9][0-9]-*.csv 2>/dev/null | tr '\\n' ' '") : \
     (has(yours(lesson)) ? yours(lesson) : "")) : ""  # no run of this machine yet: nothing to read

# A roof from the '# roofs:' line of a CSV (key=value), or from the published figures.
roof(f, key) = real(system(sprintf("sed -n 's/^# roofs:.* %s=\\([0-9.e+]*\\).*/\\1/p' '%s' | head -n 1", key, f)))
first = word(reference_files, 1)
stream = roof(first, "stream_gbs")
fp64 = roof(first, "fp64_gflops")
fp32 = roof(first, "fp32_gflops")
dmma = roof(first, "fp64_tensor_gflops")
hbm = published("memory-bandwidth") * 1000
fp64_paper = published("fp64-peak") * 1000
fp32_paper = published("fp32-peak") * 1000
dmma_paper = published("fp64-tensor-peak") * 1000

under(peak, x) = (x * stream < peak) ? x * stream : peak
paper(peak, x) = (x * hbm < peak) ? x * hbm : peak
# A kernel row with work: no transfers, some flops, an intensity.
placed(dummy) = column("transfers") == 0 && column("flops") > 0 && column("intensity") > 0
precision_is(p) = placed(0) && strcol("precision") eq p
# rows(p, files): how many rows of precision p the chart places from FILES (a key entry only for
# those).
rows(p, files) = strlen(files) == 0 ? 0 : int(system(sprintf("awk -F, -v p=%s '/^#/ {next} " \
    . "!(FILENAME in head) {head[FILENAME]; " \
    . "for (i = 1; i <= NF; i++) c[$i] = i; next} $c[\"transfers\"] == 0 && $c[\"flops\"] > 0 " \
    . "&& $c[\"intensity\"] > 0 && $c[\"precision\"] == p {n++} END {print n + 0}' %s", p, files)))
filled_label = host_of(first)
open_label = strlen(second_files) > 0 ? host_of(word(second_files, 1)) : ""

set title (lesson eq "all" ? "Every lesson's kernels under the roofline" : sprintf("%s under the roofline", lesson))
set logscale xy
set xrange [0.01:10000]
set yrange [1:200000]
set xlabel "arithmetic intensity (flops per byte of device memory)"
set ylabel "GFLOP/s achieved"
set samples 400
# Fixed margins, so that label_rows can place the labels in pixels; the key goes below the plot.
set lmargin at screen 0.11
set rmargin at screen 0.97
set tmargin at screen 0.93
set bmargin at screen 0.30
set key at screen 0.5, screen 0.01 center bottom horizontal font ",8"
# Per-point labels, thinned out so that none overlaps another: one label per kernel, at its
# fastest row, kept only when its box (characters x 0.6 x 7 points wide, as the chart's check
# measures it) is clear of every label already placed, fastest kernels first.
label_rows(f) = sprintf("< awk -F, -v W=900 -v H=560 -f plots/roofline-labels.awk '%s'", f)

plot under(fp64, x) lw 2 lc rgb "#1f4e9c" title sprintf("FP64 FMA roof (%.0f GFLOP/s; stream %.0f GB/s), measured", fp64, stream), \
     under(fp32, x) lw 2 lc rgb "#d95f02" title sprintf("FP32 FMA roof (%.0f GFLOP/s), measured", fp32), \
     (dmma > 0 ? under(dmma, x) : NaN) lw 2 lc rgb "#7570b3" title sprintf("FP64 tensor-core roof (%.0f GFLOP/s), measured", dmma), \
     paper(fp64_paper, x) dt 3 lc rgb "#1f4e9c" title "NVIDIA's published figures (dotted)", \
     paper(fp32_paper, x) dt 3 lc rgb "#d95f02" notitle, \
     paper(dmma_paper, x) dt 3 lc rgb "#7570b3" notitle, \
     for [f in reference_files] f using (column("intensity")):(precision_is("double") ? column("achieved_gflops") : NaN) \
        with points pt 7 ps 0.8 lc rgb "#1f4e9c" notitle, \
     for [f in reference_files] f using (column("intensity")):(precision_is("float") ? column("achieved_gflops") : NaN) \
        with points pt 7 ps 0.8 lc rgb "#d95f02" notitle, \
     for [f in (strlen(second_files) > 0 ? second_files : "/dev/null")] f using (column("intensity")):(precision_is("double") ? column("achieved_gflops") : NaN) \
        with points pt 8 ps 0.9 lc rgb "#1f4e9c" notitle, \
     for [f in (strlen(second_files) > 0 ? second_files : "/dev/null")] f using (column("intensity")):(precision_is("float") ? column("achieved_gflops") : NaN) \
        with points pt 8 ps 0.9 lc rgb "#d95f02" notitle, \
     for [f in (lesson ne "all" ? reference_files : "")] label_rows(f) using 1:2:3 \
        with labels left offset 0.6,0 font ",7" tc rgb "#555555" notitle, \
     for [f in (strlen(your_files) > 0 ? your_files : "/dev/null")] f using (column("intensity")):(placed(0) ? column("achieved_gflops") : NaN) \
        with points pt 6 ps 1.4 lw 2 lc rgb "#222222" notitle, \
     NaN with points pt 7 lc rgb "#1f4e9c" title (rows("double", reference_files) > 0 ? filled_label.", double" : ""), \
     NaN with points pt 7 lc rgb "#d95f02" title (rows("float", reference_files) > 0 ? filled_label.", float" : ""), \
     NaN with points pt 8 lc rgb "#1f4e9c" title (rows("double", second_files) > 0 ? open_label.", double (open)" : ""), \
     NaN with points pt 8 lc rgb "#d95f02" title (rows("float", second_files) > 0 ? open_label.", float (open)" : ""), \
     NaN with points pt 6 lw 2 lc rgb "#222222" title (strlen(your_files) > 0 ? "your runs on this machine" : "")
