# Lesson 15: bytes into 256 bins (plots/15-histogram.gpi draws it).
bins = "256"
set title "Lesson 15: histogram of 2^{28} bytes into 256 bins, as contention grows"
load "plots/15-histogram.gpi"
