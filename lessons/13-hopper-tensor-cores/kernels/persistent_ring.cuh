// Lesson 13, kernels 04 to 06 (given: read them once your kernel 03 passes its check): what
// they share. Kernel 03's pipeline, made persistent: each block walks tiles of C of 128 x 256;
// one producer thread fills a ring of four stages (a 128 x 64 tile of A and a 256 x 64 tile of
// Bt each) and two consumer warpgroups compute 64 x 256 each. The ring goes on from one tile to
// the next, so its position is counted across tiles, and its waits are yours (ring_waits.cuh).
// Kernel 04 explains the steps; kernels 05 and 06 change one thing each.
#pragma once

#include "hopper.cuh"
#include "kernels.h"
#include "tensor_maps.h"
#include "wb/tile_order.h"
#include "wb/workbook.h"

// Your waits and wgmma group of kernel 03 (ring_waits.cuh, wgmma_group.cuh). Angle brackets: the
// exercise build takes lessons/'s copies, the solution build solutions/' copies.
#include <kernels/ring_waits.cuh>
#include <kernels/wgmma_group.cuh>

#include <algorithm>

constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kTileK;
constexpr int kStages = 4;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kConsumerWarps = 4 * kConsumers;
constexpr int kBytesA = kBlockM * kBlockK * 2;
constexpr int kBytesB = kBlockN * kBlockK * 2;
constexpr int kStageBytes = kBytesA + kBytesB;  // what lands in a stage per k step
constexpr int kRingBytes = kStages * kStageBytes;

/// The ring's position: the stage, and the number of its current use (0, 1, 2, ...).
struct RingPosition {
    int stage = 0;
    uint32_t use = 0;
    __device__ void advance() {
        if (++stage == kStages) stage = 0, ++use;
    }
};

/// Thread 0 prepares the ring's barriers: `full` completes on the producer's arrival and its
/// bytes, `empty` on `empty_arrivals` consumer warps' arrivals. The caller synchronises after.
__device__ inline void init_ring(uint64_t* full, uint64_t* empty, uint32_t empty_arrivals) {
    if (threadIdx.x != 0) return;
    for (int stage = 0; stage < kStages; ++stage) {
        init_barrier(&full[stage], 1);
        init_barrier(&empty[stage], empty_arrivals);
    }
    publish_barrier_init();
}

/// The producer thread of kernels 04 and 06: for every tile of this block (band order, bands of
/// band_rows block-rows) and every k step, waits until the consumers have emptied the stage, arms
/// `full` with the stage's bytes and asks TMA for the tiles of A and Bt.
__device__ inline void produce_tiles(const CUtensorMap* a_map, const CUtensorMap* bt_map, uint8_t* ring, uint64_t* full,
                                     uint64_t* empty, int tile_rows, int tile_cols, int band_rows, int steps) {
    RingPosition at;
    for (int tile = blockIdx.x; tile < tile_rows * tile_cols; tile += gridDim.x) {
        const wb::TilePosition position = wb::tile_in_bands(tile, tile_rows, tile_cols, band_rows);
        for (int step = 0; step < steps; ++step, at.advance()) {
            wait_until_released(&empty[at.stage], at.use);
            uint8_t* a_tile = ring + at.stage * kStageBytes;
            arrive_expecting_bytes(&full[at.stage], kStageBytes);
            load_tile(a_tile, a_map, &full[at.stage], step * kBlockK, position.row * kBlockM);
            load_tile(a_tile + kBytesA, bt_map, &full[at.stage], step * kBlockK, position.col * kBlockN);
        }
    }
}

/// One consumer's part of one tile: adds the `steps` k steps of its 64 x 256 product into acc,
/// reading the stages from `at` on (and leaving `at` after them). One group of wgmmas stays in
/// flight: after issuing step s it waits only for step s - 1's group, and one lane of each warp
/// then hands that step's stage back with release(stage). The last stage goes back once all
/// groups are done.
template <class Release>
__device__ inline void accumulate_tile(float (&acc)[kBlockN / 2], const uint8_t* ring, uint64_t* full, int consumer,
                                       int steps, RingPosition& at, Release release) {
    const bool releases = threadIdx.x % 32 == 0;  // one arrival per warp
    int in_flight = -1;                           // the stage whose wgmmas may still be running
    for (int step = 0; step < steps; ++step, at.advance()) {
        wait_until_landed(&full[at.stage], at.use);
        const bf16* a_tile = reinterpret_cast<const bf16*>(ring + at.stage * kStageBytes) + consumer * 64 * kBlockK;
        const bf16* b_tile = reinterpret_cast<const bf16*>(ring + at.stage * kStageBytes + kBytesA);
        accumulators_in_use(acc);
        multiply_stage(acc, a_tile, b_tile);  // wgmma_group.cuh
        wgmma_wait<1>();                      // the previous step's group is done: its stage may go back
        accumulators_in_use(acc);
        if (in_flight >= 0 && releases) release(in_flight);
        in_flight = at.stage;
    }
    wgmma_wait<0>();
    accumulators_in_use(acc);
    if (in_flight >= 0 && releases) release(in_flight);
}

/// The grid of a persistent kernel: as many blocks as multiprocessors, and no more than tiles.
inline int persistent_blocks(int m, int n) {
    return std::min((m / kBlockM) * (n / kBlockN), wb::multiprocessor_count());
}
