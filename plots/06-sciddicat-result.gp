# Lesson 06: the final debris thickness over the terrain (grey: altitude, lighter is higher;
# colour: thickness). Uses the tessina result of your benchmark (build/bench, written by
# --bench --result-dir) with the real DEM when both exist, else the committed synthetic grid
# after 4000 steps (data/sciddicat), so the picture renders on any machine.
load "plots/common.gp"
set datafile separator whitespace

tessina_out = strlen(benchdir) > 0 ? benchdir."/06-sciddicat-tessina.txt" : ""
tessina_dem = system("for d in .data ../shared/data; do [ -s $d/sciddicat/tessina_dem.txt ] && echo $d/sciddicat/tessina_dem.txt && break; done")
use_tessina = !report_only && has(tessina_out) && strlen(tessina_dem) > 0
dem = use_tessina ? tessina_dem : need(datadir."/sciddicat/synthetic_dem.txt")
thickness = use_tessina ? tessina_out : need(datadir."/sciddicat/synthetic-after-4000-steps.txt")
name = use_tessina ? "tessina 610x496" : "synthetic 100x80"

set title sprintf("SciddicaT: debris thickness after 4000 steps over the terrain (%s)", name)
set size ratio -1
set autoscale fix
set yrange [*:*] reverse

unset key
unset grid
set xlabel "column"
set ylabel "row (north at the top)"
stats dem matrix using 3 nooutput
zmin = STATS_min
zmax = STATS_max
stats thickness matrix using 3 nooutput
hmax = STATS_max > 0 ? STATS_max : 1
grey(z) = int(60 + 170 * (z - zmin) / (zmax - zmin > 0 ? zmax - zmin : 1))
frac(h) = h / hmax < 1 ? h / hmax : 1
set cbrange [0:hmax]
set cblabel "thickness (m)"
set palette defined (0 "#ffe066", 0.5 "#f03b20", 1 "#67000d")
set colorbox
plot dem matrix using 1:2:(grey($3)):(grey($3)):(grey($3)) with rgbimage, \
     thickness matrix using 1:2:($3 > 0.001 ? $3 : NaN) with image
