// Lesson 03: the variant of the course notebook (source 001) to compare with your tiled kernel.
// Same tiling, three differences: thread x walks down the ROWS of C (so neighbouring threads
// of a warp read addresses n elements apart), both tiles are stored transposed, and the inner
// loop is unrolled. The notebook's version skipped the barriers in threads past the edge and
// loaded past the edge; this one keeps every thread in the loop and loads zeros there, so it
// is correct for any n. Being a complete tiled kernel (the answer of lesson 03, with lesson 04's
// bounds fix), it lives here and is built into a library that the lesson's programs link.
#include "matmul_tiled.h"

#include "wb/cuda_check.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

template <int TILE, class T>
__global__ void matmul_transposed_kernel(const T* a, const T* b, T* c, int n) {
    __shared__ T a_tile[TILE][TILE];  // a_tile[k][r] = A[first row + r][phase * TILE + k]
    __shared__ T b_tile[TILE][TILE];  // b_tile[q][k] = B[phase * TILE + k][first col + q]

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.x * TILE + tx;  // x picks the row, as in the notebook
    const int col = blockIdx.y * TILE + ty;

    T sum = 0;
    const int phases = (n + TILE - 1) / TILE;
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = phase * TILE + ty;
        const int b_row = phase * TILE + tx;
        a_tile[ty][tx] = (row < n && a_col < n) ? a[static_cast<std::size_t>(row) * n + a_col] : T(0);
        b_tile[ty][tx] = (b_row < n && col < n) ? b[static_cast<std::size_t>(b_row) * n + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            sum += a_tile[k][tx] * b_tile[ty][k];
        }
        __syncthreads();
    }
    if (row < n && col < n) c[static_cast<std::size_t>(row) * n + col] = sum;
}

template <int TILE, class T>
void launch_transposed_with_tile(const T* d_a, const T* d_b, T* d_c, int n) {
    const dim3 block(TILE, TILE);
    const dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul_transposed_kernel<TILE, T><<<grid, block>>>(d_a, d_b, d_c, n);
    WB_CHECK_LAUNCH("matmul_transposed_kernel");
}

template <class T>
void launch_matmul_transposed(int tile, const T* d_a, const T* d_b, T* d_c, int n) {
    switch (tile) {
        case 2: launch_transposed_with_tile<2>(d_a, d_b, d_c, n); break;
        case 4: launch_transposed_with_tile<4>(d_a, d_b, d_c, n); break;
        case 8: launch_transposed_with_tile<8>(d_a, d_b, d_c, n); break;
        case 16: launch_transposed_with_tile<16>(d_a, d_b, d_c, n); break;
        case 32: launch_transposed_with_tile<32>(d_a, d_b, d_c, n); break;
        default: std::fprintf(stderr, "error: tile %d is not compiled\n", tile); std::exit(2);
    }
}

template void launch_matmul_transposed<float>(int, const float*, const float*, float*, int);
template void launch_matmul_transposed<double>(int, const double*, const double*, double*, int);
