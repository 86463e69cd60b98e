// Lesson 13 exercise, part 1 (with ring_waits.cuh and TODOs 4 and 5 in 03_warp_specialized.cu): the
// tensor cores' product of one stage, which kernels 02 to 06 all issue once TMA has brought a
// tile of A and a tile of Bt into shared memory and they have landed.
// Check your work with:  scripts/check 13-hopper-tensor-cores   (rebuilds, then runs the check)
// The lesson page has the idea and the hints.
#pragma once

#include "hopper.cuh"
#include "tensor_maps.h"  // kTileK

/// Called by the 128 threads of a warpgroup: adds A x B to the warpgroup's 64 x N accumulators
/// (N = 128 or 256: 64 or 128 floats per thread), for the stage's 64 x kTileK tile of A at
/// `a_tile` and N x kTileK tile of Bt at `b_tile`, both K-major with the 128-byte swizzle, as one
/// committed group of wgmmas. It does not wait for them: the caller does (wgmma_wait).
template <int kCount>
__device__ inline void multiply_stage(float (&acc)[kCount], const bf16* a_tile, const bf16* b_tile) {
    // >>> TODO 1: the stage's product, issued as one committed group of wgmmas
    // One wgmma covers 16 of the tiles' kTileK values of k. The accumulators are read and
    // written asynchronously: what must come before the first wgmma, and what makes them one
    // group that a single wait covers?
    (void)acc;
    (void)a_tile;
    (void)b_tile;
    // <<< TODO 1
}

/// The stage's product, waited for: multiply_stage() and then wgmma_wait<0>(), with the
/// accumulators fenced for the compiler on both sides (accumulators_in_use: no read or write of
/// them may move across). When it returns, the wgmmas have finished reading both tiles.
template <int kCount>
__device__ inline void multiply_stage_and_wait(float (&acc)[kCount], const bf16* a_tile, const bf16* b_tile) {
    accumulators_in_use(acc);
    multiply_stage(acc, a_tile, b_tile);
    wgmma_wait<0>();
    accumulators_in_use(acc);
}
