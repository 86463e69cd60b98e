/// @file high2_coverage.h
/// @brief Version 3's index arithmetic simulated on the CPU (no GPU needed): for which numbers
/// of columns it sums every element exactly once.
#pragma once

#include "wb/args.h"

/// What the simulation found over a matrix of m rows and n columns.
struct High2Coverage {
    bool divides_by_zero = false;
    long long missing = 0;   ///< elements no thread reads
    long long repeated = 0;  ///< elements read more than once
    bool ok() const { return !divides_by_zero && missing == 0 && repeated == 0; }
};

/// Runs version 3's arithmetic for every thread of its fixed launch and counts how often each
/// element of an m x n matrix is summed.
High2Coverage high2_coverage(long long m, int n);

/// True when version 3 sums every element of an m x n matrix exactly once, for any m.
bool high2_covers_matrix(int n);

/// Prints the verdict for n columns (what --high2-coverage N shows).
void print_high2_coverage(int n);

/// --high2-coverage N (its bounds declared by the driver): prints the verdict for N columns and
/// returns the exit code (0).
int show_high2_coverage(const wb::Options& options);
