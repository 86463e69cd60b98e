// Lesson 03 exercise, program "banks": a transpose whose reads and writes of global memory are
// both coalesced, because the turn happens in a shared-memory tile.
// Check your work with:  scripts/check 03-tiled-matmul.banks   (rebuilds, then runs the check)
// The lesson page's section "Shared-memory banks" has the steps and the hints.
#include "transpose.h"

#include "wb/cuda_check.h"

#include <cstddef>

// >>> TODO 2: a row pitch that lets a warp read a column of the tile without bank conflicts
// With a pitch of kTile, how many of a column's 32 elements fall into the same bank, for
// 4-byte floats and for 8-byte doubles? The check counts it for you.
constexpr int kTilePitch = kTile;
// <<< TODO 2

int transpose_tile_pitch() { return kTilePitch; }

// One block moves the tile whose top-left corner is (blockIdx.y * kTile, blockIdx.x * kTile)
// of `in` to (blockIdx.x * kTile, blockIdx.y * kTile) of `out`; blockDim is kTile x kRowsPerPass.
template <typename T, int kPitch>
__global__ void transpose_kernel(const T* in, T* out, int rows, int cols) {
    __shared__ T tile[kTile * kPitch];
    // >>> TODO 1: copy the tile in row by row, wait for the whole block, copy it out turned
    // Pass p moves tile rows threadIdx.y + p * kRowsPerPass. Reading, a warp takes one row of
    // the input tile; writing, a warp writes one row of the output tile, which is a column of
    // the shared tile. Skip elements outside the matrices (their sides need not be multiples
    // of kTile). Which barrier is needed, and why is one enough?
    (void)tile;
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
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
