// Lesson 04, approach 1: the tiled kernel of lesson 03 on padded matrices. Every dimension is a
// multiple of the tile, so every tile is full and no thread ever needs a bounds check; rows are
// `pitch` bytes apart, so the kernel receives leading dimensions (elements per row in memory).
// Being lesson 03's answer, it lives here and is built into a library that the lesson's
// programs link.
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

#include <cstdio>
#include <cstdlib>

template <int TILE>
__global__ void matmul_full_tiles_kernel(const double* a, std::size_t lda, const double* b, std::size_t ldb, double* c,
                                         std::size_t ldc, int inner) {
    __shared__ double a_tile[TILE][TILE];
    __shared__ double b_tile[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    double sum = 0.0;
    for (int phase = 0; phase < inner / TILE; ++phase) {
        a_tile[ty][tx] = a[row * lda + phase * TILE + tx];
        b_tile[ty][tx] = b[(phase * TILE + ty) * ldb + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += a_tile[ty][k] * b_tile[k][tx];
        }
        __syncthreads();
    }
    c[row * ldc + col] = sum;
}

template <int TILE>
void launch_full_tiles_with(const PaddedProduct& d) {
    const dim3 block(TILE, TILE);
    const dim3 grid(d.cols / TILE, d.rows / TILE);
    matmul_full_tiles_kernel<TILE><<<grid, block>>>(d.a, d.a_pitch / sizeof(double), d.b, d.b_pitch / sizeof(double),
                                                    d.c, d.c_pitch / sizeof(double), d.inner);
    WB_CHECK_LAUNCH("matmul_full_tiles_kernel");
}

void launch_full_tiles(int tile, const PaddedProduct& padded) {
    switch (tile) {
        case 2: launch_full_tiles_with<2>(padded); break;
        case 4: launch_full_tiles_with<4>(padded); break;
        case 8: launch_full_tiles_with<8>(padded); break;
        case 16: launch_full_tiles_with<16>(padded); break;
        case 32: launch_full_tiles_with<32>(padded); break;
        default: std::fprintf(stderr, "error: tile %d is not compiled\n", tile); std::exit(2);
    }
}
