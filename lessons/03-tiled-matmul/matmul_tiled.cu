// Lesson 03 exercise: the tiled shared-memory matrix product (Kirk and Hwu).
// Check your work with:  scripts/check 03-tiled-matmul   (rebuilds, then runs the check)
// The lesson page has the steps and the hints; driver.cu calls launch_matmul_tiled.
#include "matmul_tiled.h"

#include "wb/cuda_check.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

template <int TILE, class T>
__global__ void matmul_tiled_kernel(const T* a, const T* b, T* c, int n) {
    __shared__ T a_tile[TILE][TILE];  // the block's current tile of A ...
    __shared__ T b_tile[TILE][TILE];  // ... and of B, shared by its TILE x TILE threads

    // >>> TODO 1: this thread's place in the block and its element of C
    // Each thread of a TILE x TILE block computes one element of the block's TILE x TILE tile of
    // C: find the row and column of that element from the block's and the thread's indices.
    // <<< TODO 1
    // >>> TODO 2: phase by phase, load one tile of A and one of B, then use them
    // The dot product of the thread's row of A and column of B is walked in n / TILE phases.
    // In each phase the block's threads together copy one TILE x TILE tile of A (from the
    // block's rows) and one of B (from the block's columns) into a_tile and b_tile, one element
    // per thread each; then every thread adds its TILE products from the shared tiles to a
    // running sum. Two moments need every thread of the block to wait for the others: which?
    // <<< TODO 2
    // >>> TODO 3: store the sum in C
    // Write the sum to the thread's element of C (index products can pass 2^31: use std::size_t).
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    (void)a_tile;
    (void)b_tile;
    // <<< TODO 3
}

// ---- Launching: one instantiation per tile width (you need not change this part). ----

template <int TILE, class T>
void launch_with_tile(const T* d_a, const T* d_b, T* d_c, int n) {
    const dim3 block(TILE, TILE);
    const dim3 grid(n / TILE, n / TILE);  // n is a multiple of TILE
    matmul_tiled_kernel<TILE, T><<<grid, block>>>(d_a, d_b, d_c, n);
    WB_CHECK_LAUNCH("matmul_tiled_kernel");
}

template <class T>
void launch_matmul_tiled(int tile, const T* d_a, const T* d_b, T* d_c, int n) {
    switch (tile) {  // the tile width must be known when compiling: one kernel per width
        case 2: launch_with_tile<2>(d_a, d_b, d_c, n); break;
        case 4: launch_with_tile<4>(d_a, d_b, d_c, n); break;
        case 8: launch_with_tile<8>(d_a, d_b, d_c, n); break;
        case 16: launch_with_tile<16>(d_a, d_b, d_c, n); break;
        case 32: launch_with_tile<32>(d_a, d_b, d_c, n); break;
        default: std::fprintf(stderr, "error: tile %d is not compiled\n", tile); std::exit(2);
    }
}

template void launch_matmul_tiled<float>(int, const float*, const float*, float*, int);
template void launch_matmul_tiled<double>(int, const double*, const double*, double*, int);
