/// @file gflops_rate.h
/// @brief Bug gallery, program gflops-unit: the rate of a matrix product.
#pragma once

/// GFLOP/s of an n x n matrix product (2 n^3 operations) that took `seconds`.
double gflops_of_matmul(long n, double seconds);
