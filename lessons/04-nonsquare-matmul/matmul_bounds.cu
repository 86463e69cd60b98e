// Lesson 04 exercise, approach 2: bounds-checked tile loads, no padding.
// The kernel below has a bug to find and fix (see "The bug hunt" on the lesson page).
// Check your work with:  scripts/check 04-nonsquare-matmul   (rebuilds, then runs the check)
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

#include <cstdio>
#include <cstdlib>

template <int TILE>
__global__ void matmul_bounds_kernel(const double* a, const double* b, double* c, int n, int m, int p) {
    __shared__ double a_tile[TILE][TILE];
    __shared__ double b_tile[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    // >>> TODO 1: the product for every shape, not only multiples of the tile (the bug hunt)
    // This is the course notebook's kernel (source 001) in the layout of lesson 03. It passes
    // when n, m and p are multiples of TILE, and at n = m = p = 60 with 32 x 32 tiles it got
    // 3572 of 3600 elements wrong. There are two mistakes; the lesson page guides you to them.
    if (row < n && col < p) {
        double sum = 0.0;
        const int phases = (m + TILE - 1) / TILE;
        for (int phase = 0; phase < phases; ++phase) {
            a_tile[ty][tx] = a[static_cast<std::size_t>(row) * m + phase * TILE + tx];
            b_tile[ty][tx] = b[static_cast<std::size_t>(phase * TILE + ty) * p + col];
            __syncthreads();
            for (int k = 0; k < TILE; ++k) {
                sum += a_tile[ty][k] * b_tile[k][tx];
            }
            __syncthreads();
        }
        c[static_cast<std::size_t>(row) * p + col] = sum;
    }
    // <<< TODO 1
}

// ---- Launching (you need not change this part) ----

template <int TILE>
void launch_bounds_with(const double* d_a, const double* d_b, double* d_c, int n, int m, int p) {
    const dim3 block(TILE, TILE);
    const dim3 grid((p + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_bounds_kernel<TILE><<<grid, block>>>(d_a, d_b, d_c, n, m, p);
    WB_CHECK_LAUNCH("matmul_bounds_kernel");
}

void launch_matmul_bounds(int tile, const double* d_a, const double* d_b, double* d_c, int n, int m, int p) {
    switch (tile) {
        case 2: launch_bounds_with<2>(d_a, d_b, d_c, n, m, p); break;
        case 4: launch_bounds_with<4>(d_a, d_b, d_c, n, m, p); break;
        case 8: launch_bounds_with<8>(d_a, d_b, d_c, n, m, p); break;
        case 16: launch_bounds_with<16>(d_a, d_b, d_c, n, m, p); break;
        case 32: launch_bounds_with<32>(d_a, d_b, d_c, n, m, p); break;
        default: std::fprintf(stderr, "error: tile %d is not compiled\n", tile); std::exit(2);
    }
}
