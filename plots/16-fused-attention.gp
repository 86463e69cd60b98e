# Lesson 16: attention forward along the sequence length, head dim 128 (d=64 with -e "dim=64"),
# as TFLOP/s (4 B H S^2 d / t, halved with causal): the unfused baseline, the exercise's fused
# kernel, the given Hopper kernel (step 3) and PyTorch's two backends measured right after them on the same GPU, not causal (filled)
# and causal (open), under NVIDIA's published dense BF16 peak. The reference machine's run; yours (squares) where build/bench holds one.
load "plots/common.gp"

lesson = "16-fused-attention"
ref = reference(lesson)
mine = yours(lesson)
if (!exists("dim")) dim = 128

set title sprintf("Lesson 16: attention forward, bf16, head dim %d, 16384 tokens per batch", dim)
set xlabel "sequence length S (batch 16384 / S, heads 2048 / d)\n"  # "\n": see the key in common.gp
set ylabel "TFLOP/s (4 B H S^2 d / t, halved with causal)"
set logscale x 2
set xrange [360:23000]
set yrange [0:1100]
set xtics ("512" 512, "1024" 1024, "2048" 2048, "4096" 4096, "8192" 8192, "16384" 16384)

versions = "01-unfused 02-flash 03-hopper torch-flash torch-cudnn"
names = "'01 unfused (cuBLAS, softmax, cuBLAS)' '02 fused (the exercise)' '03 Hopper (wgmma, TMA)' 'PyTorch FlashAttention-2' 'PyTorch cuDNN'"
array version_colour[5] = ["#999999", "#1b9e77", "#e7298a", "#d95f02", "#7570b3"]
wanted(k, c) = is("kernel", k) && column("head_dim") == dim && column("causal") == c
tflops(f) = column("rate") / 1000.0
# Causal rows a little right of their length, so that both are seen.
x_of(c) = column("seq") * (c ? 1.06 : 1.0)

# NVIDIA's published dense BF16 tensor-core peak of the reference machine (its data/specs/ file).
peak = published("bf16-tensor-peak")
set arrow from 360, peak to 23000, peak nohead dt 2 lc rgb "#888888"
set label sprintf("BF16 tensor-core peak (%s SXM, datasheet): %.0f", published_label, peak) at 400, peak + 30 font ",9" tc rgb "#666666"

plot for [i=1:5] (has(ref) ? ref : "/dev/null") using (x_of(0)):(pick(wanted(word(versions, i), 0), tflops(0))) \
        with points pt 7 ps 1.1 lc rgb version_colour[i] \
        title (has(ref) ? sprintf("%s, %s", device(ref), word(names, i)) : ""), \
     for [i=1:5] (has(ref) ? ref : "/dev/null") using (x_of(1)):(pick(wanted(word(versions, i), 1), tflops(0))) \
        with points pt 6 ps 1.1 lc rgb version_colour[i] title (i == 1 && has(ref) ? "causal (open)" : ""), \
     for [i=1:5] (has(mine) ? mine : "/dev/null") using (x_of(0)):(pick(wanted(word(versions, i), 0), tflops(0))) \
        with points pt 4 ps 1.6 lw 2 lc rgb version_colour[i] \
        title (has(mine) ? sprintf("%s %s", yours_label(lesson), word(versions, i)) : "")
