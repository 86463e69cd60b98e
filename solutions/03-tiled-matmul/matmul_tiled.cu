// Lesson 03 reference solution: the tiled kernel.
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
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;  // the element of C this thread computes
    const int col = blockIdx.x * TILE + tx;
    // <<< TODO 1
    // >>> TODO 2: phase by phase, load one tile of A and one of B, then use them
    const T* a_row = a + static_cast<std::size_t>(row) * n;  // size_t: row * n can pass 2^31
    T sum = 0;
    for (int phase = 0; phase < n / TILE; ++phase) {
        // Each thread loads one element of each tile: A along row `row`, B down column `col`.
        a_tile[ty][tx] = a_row[phase * TILE + tx];
        b_tile[ty][tx] = b[static_cast<std::size_t>(phase * TILE + ty) * n + col];
        __syncthreads();  // the tiles are complete before anyone reads them

        for (int k = 0; k < TILE; ++k) {
            sum += a_tile[ty][k] * b_tile[k][tx];
        }
        __syncthreads();  // everyone is done reading before the next phase overwrites them
    }
    // <<< TODO 2
    // >>> TODO 3: store the sum in C
    c[static_cast<std::size_t>(row) * n + col] = sum;
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
