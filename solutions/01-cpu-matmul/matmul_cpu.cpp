// Lesson 01 reference solution.
#include "matmul_cpu.h"

// Matrices are row-major: element (row, col) of an n x n matrix m is m[row * n + col].

void matmul_ijk(const double* a, const double* b, double* c, int n) {
    // >>> TODO 1: loops i, j, k: each c[i][j] is one dot product, summed then stored once
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            double sum = 0.0;
            for (int k = 0; k < n; ++k) {
                sum += a[i * n + k] * b[k * n + j];  // b is read down a column: stride n
            }
            c[i * n + j] = sum;
        }
    }
    // <<< TODO 1
}

void matmul_ikj(const double* a, const double* b, double* c, int n) {
    // >>> TODO 2: loops i, k, j: row i of c accumulates a[i][k] times row k of b
    for (int i = 0; i < n; ++i) {
        double* c_row = c + static_cast<long>(i) * n;
        for (int j = 0; j < n; ++j) c_row[j] = 0.0;
        for (int k = 0; k < n; ++k) {
            const double a_ik = a[i * n + k];
            const double* b_row = b + static_cast<long>(k) * n;
            for (int j = 0; j < n; ++j) {
                c_row[j] += a_ik * b_row[j];  // b and c are read along rows: stride 1
            }
        }
    }
    // <<< TODO 2
}
