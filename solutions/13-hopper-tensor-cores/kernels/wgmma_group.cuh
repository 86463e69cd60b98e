// Lesson 13 reference solution, part 1: the tensor cores' product of one stage.
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
    wgmma_fence();  // the accumulators were touched by other instructions since the last wgmma
#pragma unroll
    for (int slice = 0; slice < kTileK / 16; ++slice)
        wgmma_64xNx16(acc, tile_descriptor(a_tile + 16 * slice), tile_descriptor(b_tile + 16 * slice));
    wgmma_commit();
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
