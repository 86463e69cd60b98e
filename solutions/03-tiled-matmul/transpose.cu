// Lesson 03 reference solution, program "banks".
#include "transpose.h"

#include "wb/cuda_check.h"

#include <cstddef>

// >>> TODO 2: a row pitch that lets a warp read a column of the tile without bank conflicts
// One element more per row: going down a column then moves one element along the banks, so
// 32 floats land in 32 different banks; for doubles each half-warp's 16 land in 16 different
// bank pairs.
constexpr int kTilePitch = kTile + 1;
// <<< TODO 2

int transpose_tile_pitch() { return kTilePitch; }

// One block moves the tile whose top-left corner is (blockIdx.y * kTile, blockIdx.x * kTile)
// of `in` to (blockIdx.x * kTile, blockIdx.y * kTile) of `out`; blockDim is kTile x kRowsPerPass.
template <typename T, int kPitch>
__global__ void transpose_kernel(const T* in, T* out, int rows, int cols) {
    __shared__ T tile[kTile * kPitch];
    // >>> TODO 1: copy the tile in row by row, wait for the whole block, copy it out turned
    const int first_row = blockIdx.y * kTile;
    const int first_col = blockIdx.x * kTile;
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
        const int row = first_row + r, col = first_col + threadIdx.x;
        if (row < rows && col < cols) tile[r * kPitch + threadIdx.x] = in[static_cast<std::size_t>(row) * cols + col];
    }
    // Every thread writes out elements that other warps read in.
    __syncthreads();
    // out has `rows` columns: its row first_col + r holds column first_col + r of `in`.
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
        const int out_row = first_col + r, out_col = first_row + threadIdx.x;
        if (out_row < cols && out_col < rows)
            out[static_cast<std::size_t>(out_row) * rows + out_col] = tile[threadIdx.x * kPitch + r];
    }
    // <<< TODO 1
}

template <typename T>
void launch_transpose(const T* in, T* out, int rows, int cols, bool padded) {
    const dim3 block(kTile, kRowsPerPass);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    if (padded) {
        transpose_kernel<T, kTilePitch><<<grid, block>>>(in, out, rows, cols);
    } else {
        transpose_kernel<T, kTile><<<grid, block>>>(in, out, rows, cols);
    }
    WB_CHECK_LAUNCH("transpose_kernel");
}

template void launch_transpose<float>(const float*, float*, int, int, bool);
template void launch_transpose<double>(const double*, double*, int, int, bool);
