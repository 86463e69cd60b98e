# Lesson 15: 16-bit values into 65,536 bins, where a block's copy of the bins no longer fits in
# shared memory (plots/15-histogram.gpi draws it).
bins = "65536"
set title "Lesson 15: histogram of 2^{27} 16-bit values into 65,536 bins, as contention grows"
load "plots/15-histogram.gpi"
