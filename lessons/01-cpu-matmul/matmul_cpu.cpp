// Lesson 01 exercise: write the two loop orders of the CPU matrix product.
// Check your work with:  scripts/check 01-cpu-matmul   (rebuilds, then runs the check)
// The lesson page (docs) has the hints; the driver that calls these is driver.cpp.
#include "matmul_cpu.h"

// Matrices are row-major: element (row, col) of an n x n matrix m is m[row * n + col].

void matmul_ijk(const double* a, const double* b, double* c, int n) {
    // >>> TODO 1: loops i, j, k: each c[i][j] is one dot product, summed then stored once
    // For every row i and column j, set c[i * n + j] to the sum over k of
    // a[i * n + k] * b[k * n + j]. Accumulate in a local variable, then store once.
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    // <<< TODO 1
}

void matmul_ikj(const double* a, const double* b, double* c, int n) {
    // >>> TODO 2: loops i, k, j: row i of c accumulates a[i][k] times row k of b
    // The same product, loops ordered i, k, j. The innermost loop adds
    // a[i * n + k] * b[k * n + j] into c[i * n + j] for every j.
    // c arrives full of garbage (NaN): clear row i before accumulating into it.
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    // <<< TODO 2
}
