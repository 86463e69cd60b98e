# Reads a benchmark CSV; prints a header line, then "intensity,gflops,kernel" for the labels of
# plots/roofline.gp: one per kernel (its fastest kernel row with work), dropping any whose box
# would overlap one already kept. The pixel mapping follows roofline.gp's margins and axis
# ranges (log x 0.01 to 10000, log y 1 to 200000, on a W x H canvas); a label starts 0.6
# characters right of its point.
/^#/ { next }
!header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
$col["transfers"] == 0 && $col["flops"] > 0 && $col["intensity"] > 0 {
  k = $col["kernel"]; g = $col["achieved_gflops"] + 0
  if (!(k in best) || g > best[k]) { best[k] = g; at[k] = $col["intensity"] + 0 }
}
END {
  # A header line first: the charts read their data with column headers, so the first line is
  # never plotted.
  print "intensity,gflops,kernel"
  size = 7 * 1.0; cw = 0.6 * size
  x0 = 0.11 * W; x1 = 0.97 * W; y0 = 0.07 * H; y1 = 0.70 * H
  n = 0
  for (k in best) { n++; name[n] = k }
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)   # fastest first
    if (best[name[j]] > best[name[i]]) { t = name[i]; name[i] = name[j]; name[j] = t }
  kept = 0
  for (i = 1; i <= n; i++) {
    k = name[i]
    px = x0 + (log(at[k]) / log(10) + 2) / 6 * (x1 - x0) + cw
    py = y1 - (log(best[k]) / log(10)) / (log(200000) / log(10)) * (y1 - y0)
    l = px - 2; r = px + cw * length(k) + 2; t = py - 0.75 * size - 2; b = py + 0.2 * size + 2
    if (r > W) continue
    clear = 1
    for (m = 1; m <= kept; m++)
      if (l < R[m] && L[m] < r && t < B[m] && T[m] < b) { clear = 0; break }
    if (!clear) continue
    kept++; L[kept] = l; R[kept] = r; T[kept] = t; B[kept] = b
    printf "%s,%s,%s\n", at[k], best[k], k
  }
}
