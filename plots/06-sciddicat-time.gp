# Lesson 06: time per version and thread block (source 002 tables, reference H100, yours).
what = "time"
load "plots/06-sciddicat.gpi"
