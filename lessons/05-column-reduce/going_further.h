/// @file going_further.h
/// @brief Lesson 05, going further: version 5 with warp shuffles. Its first step is the answer
/// of TODO 3, so it is built from solutions/05-column-reduce/bandwidth_shuffle.cu into a
/// library: read it once your version 5 passes its check.
#pragma once

#include "column_reduce.h"

/// True when the shuffle version handles n columns: n must divide the warp size, 32.
inline bool shuffle_handles(int n) { return n >= 1 && n <= 32 && 32 % n == 0; }

/// Version 5 whose block combination is done with warp shuffles (cooperative groups) and a
/// small table of one row per warp; n must divide 32 (shuffle_handles). Clears the sums first.
LaunchConfig column_sums_bandwidth_shuffle(const double* d_matrix, double* d_sums, long long m, int n);
