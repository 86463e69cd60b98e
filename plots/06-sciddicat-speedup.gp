# Lesson 06: speedup over the serial version per version and thread block.
what = "speedup"
load "plots/06-sciddicat.gpi"
