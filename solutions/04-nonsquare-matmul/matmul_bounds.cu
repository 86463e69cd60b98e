// Lesson 04 reference solution, approach 2: bounds-checked tile loads, no padding.
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
    // Every thread stays in the loop, even one outside C: it still has to load its share of
    // the tiles and to reach each __syncthreads() (a barrier must be reached by all threads).
    double sum = 0.0;
    const int phases = (m + TILE - 1) / TILE;
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = phase * TILE + tx;
        const int b_row = phase * TILE + ty;
        // Outside a matrix, load 0: it adds nothing to any dot product.
        a_tile[ty][tx] = (row < n && a_col < m) ? a[static_cast<std::size_t>(row) * m + a_col] : 0.0;
        b_tile[ty][tx] = (b_row < m && col < p) ? b[static_cast<std::size_t>(b_row) * p + col] : 0.0;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += a_tile[ty][k] * b_tile[k][tx];
        }
        __syncthreads();
    }
    if (row < n && col < p) {  // only the store is guarded
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
