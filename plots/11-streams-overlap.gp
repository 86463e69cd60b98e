# Lesson 11: time of the whole job (copy in, kernel, copy out) against the number of chunks,
# one curve per number of streams, beside the job on one stream in one chunk (no overlap) and
# the ideal overlap (the slowest engine alone), both measured in the same run.
# The reference machine's run (filled points, dashed), the second machine's (open points,
# dotted) and yours (solid).
load "plots/common.gp"

lesson = "11-streams-overlap"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
# The block column of a pipelined row reads "4 streams x 16 chunks"; other rows have no numbers.
pipelined(dummy) = is("kernel", "pipelined")
streams_of(dummy) = pipelined(0) ? real(substr(strcol("block"), 1, strstrt(strcol("block"), " ") - 1)) : NaN
chunks_of(dummy) = pipelined(0) ? real(substr(strcol("block"), strstrt(strcol("block"), "x ") + 2, strstrt(strcol("block"), " chunks") - 1)) : NaN
sel(streams) = pipelined(0) ? streams_of(0) == streams : 0

set title "Lesson 11: one job in chunks over several streams (transfers included)"
set xlabel "chunks\n"  # "\n": see the key in common.gp
set ylabel "time of the whole job (ms)"
set logscale x 2
set xrange [3:90]
set yrange [0:*]
set xtics (4, 16, 64)

counts = "1 2 4 8"
plot for [i=1:4] (has(ref) ? ref : "/dev/null") using (chunks_of(0)):(pick(sel(word(counts, i) + 0), column("median_ms"))) \
        with linespoints dt 2 pt 7 lc rgb block_colour[i] title (has(ref) ? sprintf("%s %s stream(s)", device(ref), word(counts, i)) : ""), \
     (has(ref) ? ref : "/dev/null") using (3):(pick(is("kernel", "serial"), column("median_ms"))):(87):(0) \
        with vectors nohead dt 3 lc rgb "#555555" title (has(ref) ? sprintf("%s one stream, one chunk", device(ref)) : ""), \
     (has(ref) ? ref : "/dev/null") using (3):(pick(is("kernel", "serial"), column("ceiling_rate") > 0 ? column("n") * 8 / column("ceiling_rate") / 1e6 : NaN)):(87):(0) \
        with vectors nohead lw 2 lc rgb "#000000" title (has(ref) ? sprintf("%s ideal overlap (slowest engine alone)", device(ref)) : ""), \
     for [i=1:4] usable(sec) using (chunks_of(0)):(pick(sel(word(counts, i) + 0), column("median_ms"))) \
        with linespoints dt 3 pt 6 lc rgb block_colour[i] title (i == 1 ? titled(sec, ", each stream count (open)") : ""), \
     for [i=1:4] (has(mine) ? mine : "/dev/null") using (chunks_of(0)):(pick(sel(word(counts, i) + 0), column("median_ms"))) \
        with linespoints lw 2 pt 5 lc rgb block_colour[i] title (has(mine) ? sprintf("%s %s stream(s)", yours_label(lesson), word(counts, i)) : "")
