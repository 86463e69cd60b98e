# Lesson 11: the timeline of one pipelined run (--bench --timeline FILE): one lane per stream,
# each copy in, kernel and copy out a box from the CUDA event recorded before it on its stream to
# the one recorded after it; below the lanes, the ideal of the same run (the busiest engine back
# to back plus one chunk through the other two, wb::ideal_pipeline_ms) as a black bar, its end
# marked across the lanes. The reference machine's committed run, above it the second
# machine's (its lanes named by the machine) and above them your own timeline when build/bench
# holds one (11-streams-overlap-timeline.csv), in the same colours.
load "plots/common.gp"

lesson = "11-streams-overlap-timeline"
ref = reference(lesson)
sec = second(lesson)
mine = yours(lesson)
streams = 4  # the --timeline run's streams (kTimelineStreams in the driver)
sec_at = streams + 2  # the second machine's lanes start above the reference's
mine_at = has(sec) ? 2 * (streams + 2) : streams + 2  # yours above both
sec_name = has(sec) ? host_of(sec) : ""

# The '# pipeline:' line of a timeline: "4 streams x 16 chunks, 33554432 doubles, work 2000".
pipeline(f) = system(sprintf("sed -n 's/^# pipeline: //p' '%s' | head -n 1", f))
kinds = "h2d kernel d2h"
array kind_title[3] = ["copy in (host to device)", "kernel", "copy out (device to host)"]
array kind_colour[3] = ["#1b9e77", "#d95f02", "#7570b3"]
lane(base) = base + 1 + column("stream")  # stream s of a run drawn at lane base + 1 + s

set title sprintf("Lesson 11: one pipelined run, %s", has(ref) ? pipeline(ref) . " (" . device(ref) . ")" : "")
set xlabel "time since the start event (ms)\n"  # "\n": see the key in common.gp
if (has(ref) || has(mine)) { set xrange [0:*] } else { set xrange [0:1] }  # no run: the epilogue names the missing file
set yrange [-0.7:(has(mine) ? mine_at + streams + 0.7 : has(sec) ? sec_at + streams + 0.7 : streams + 0.7)]
set ytics ("ideal" 0) font ",9"
do for [s = 0:streams - 1] { set ytics add (sprintf("stream %d", s) s + 1) }
if (has(sec)) {
    set ytics add (sec_name." ideal" sec_at)
    do for [s = 0:streams - 1] { set ytics add (sprintf("%s stream %d", sec_name, s) sec_at + s + 1) }
}
if (has(mine)) {
    set ytics add ("your ideal" mine_at)
    do for [s = 0:streams - 1] { set ytics add (sprintf("your stream %d", s) mine_at + s + 1) }
}
set grid xtics noytics
set style fill solid 0.85 border lc rgb "#444444"

# A box from start_ms to end_ms, 0.7 of a lane high; rows of other kinds are skipped (NaN).
box(kind, base) = pick(is("operation", kind), lane(base))
plot for [k = 1:3] (has(ref) ? ref : "/dev/null") \
        using (0):(box(word(kinds, k), 0)):(column("start_ms")):(column("end_ms")):(box(word(kinds, k), 0) - 0.35):(box(word(kinds, k), 0) + 0.35) \
        with boxxyerror lc rgb kind_colour[k] title kind_title[k], \
     (has(ref) ? ref : "/dev/null") using (0):(pick(is("operation", "ideal"), 0)):(column("start_ms")):(column("end_ms")):(-0.3):(0.3) \
        with boxxyerror lc rgb "#000000" title "ideal: busiest engine back to back + one chunk through the others", \
     (has(ref) ? ref : "/dev/null") using (column("end_ms")):(pick(is("operation", "ideal"), -0.5)):(0):(streams + 1) \
        with vectors nohead dt 3 lw 1.5 lc rgb "#000000" notitle, \
     for [k = 1:3] usable(sec) \
        using (0):(box(word(kinds, k), sec_at)):(column("start_ms")):(column("end_ms")):(box(word(kinds, k), sec_at) - 0.35):(box(word(kinds, k), sec_at) + 0.35) \
        with boxxyerror lc rgb kind_colour[k] notitle, \
     usable(sec) using (0):(pick(is("operation", "ideal"), sec_at)):(column("start_ms")):(column("end_ms")):(sec_at - 0.3):(sec_at + 0.3) \
        with boxxyerror lc rgb "#000000" notitle, \
     for [k = 1:3] (has(mine) ? mine : "/dev/null") \
        using (0):(box(word(kinds, k), mine_at)):(column("start_ms")):(column("end_ms")):(box(word(kinds, k), mine_at) - 0.35):(box(word(kinds, k), mine_at) + 0.35) \
        with boxxyerror lc rgb kind_colour[k] notitle, \
     (has(mine) ? mine : "/dev/null") using (0):(pick(is("operation", "ideal"), mine_at)):(column("start_ms")):(column("end_ms")):(mine_at - 0.3):(mine_at + 0.3) \
        with boxxyerror lc rgb "#000000" notitle
