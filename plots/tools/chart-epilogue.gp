# Run by render-chart.sh after every chart script: a chart fails when a file it needs (need() in
# plots/common.gp; of "a|b", both) is missing, or when its last plot drew no point at all
# (gnuplot then leaves GPVAL_DATA_Y_MIN at its largest value): an empty frame must never pass
# for a chart.
do for [file in required] {
    if (!has_any(file)) {
        print (strstrt(file, "|") ? sprintf("error: the chart needs one of %s, each missing or empty", file) \
                                  : sprintf("error: the chart needs %s, which is missing or empty", file))
        exit status 3
    }
}
if (!exists("GPVAL_DATA_Y_MIN") || GPVAL_DATA_Y_MIN > 1e300) {
    print "error: the chart plotted no point"
    exit status 4
}
