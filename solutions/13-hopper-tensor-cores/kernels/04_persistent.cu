// Kernel 04 (step 4, given once kernel 03 passes its check): kernel 03's pipeline, three
// changes that take it to cuBLAS's speed on large matrices.
// - Persistent blocks: as many blocks as multiprocessors, each walking tiles (tile = block,
//   block + gridDim.x, ...). The producer runs on into the next tile while the consumers still
//   store the last one, so the ring never drains between tiles.
// - Tiles in bands: consecutive tiles walk down band_rows block-rows (8 unless the driver's
//   --band-rows says otherwise; 1 is plain row order) before moving right. The
//   132 tiles in flight then share few tiles of A and B, which stay in the L2 cache (in plain
//   row order at 8192 x 8192 they would span about four block-rows of A and all of B).
// - One group of wgmmas kept in flight: a consumer issues the wgmmas of step s, then waits only
//   for those of step s - 1 (wgmma_wait<1>) and releases that step's stage. The tensor cores
//   always have the next group queued.
#include "hopper.cuh"
#include "kernels.h"
#include "tensor_maps.h"
#include "wb/tile_order.h"
#include "wb/workbook.h"

#include <algorithm>
#include <stdexcept>

namespace {

constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kTileK;
constexpr int kStages = 4;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kConsumerWarps = 4 * kConsumers;
constexpr int kBytesA = kBlockM * kBlockK * 2;
constexpr int kBytesB = kBlockN * kBlockK * 2;
constexpr int kStageBytes = kBytesA + kBytesB;
constexpr int kSharedBytes = kStages * kStageBytes + 1024;
constexpr int kGroupRows = 8;  // block-rows per band of tiles, unless set_persistent_band_rows says otherwise

int launch_band_rows = kGroupRows;  // the band height of the next launches
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");

// The ring's position: k steps are counted across tiles, because the ring goes on.
struct RingPosition {
    int stage = 0;
    uint32_t parity = 0;  // of the current use of the stage
    __device__ void advance() {
        if (++stage == kStages) stage = 0, parity ^= 1;
    }
};

__device__ void produce(const CUtensorMap* a_map, const CUtensorMap* bt_map, uint8_t* ring, uint64_t* full,
                        uint64_t* empty, int tile_rows, int tile_cols, int band_rows, int steps) {
    RingPosition at;
    for (int tile = blockIdx.x; tile < tile_rows * tile_cols; tile += gridDim.x) {
        const wb::TilePosition position = wb::tile_in_bands(tile, tile_rows, tile_cols, band_rows);
        for (int step = 0; step < steps; ++step, at.advance()) {
            wait_for_phase(&empty[at.stage], at.parity ^ 1);
            uint8_t* a_tile = ring + at.stage * kStageBytes;
            arrive_expecting_bytes(&full[at.stage], kStageBytes);
            load_tile(a_tile, a_map, &full[at.stage], step * kBlockK, position.row * kBlockM);
            load_tile(a_tile + kBytesA, bt_map, &full[at.stage], step * kBlockK, position.col * kBlockN);
        }
    }
}

__device__ void consume(uint8_t* ring, uint64_t* full, uint64_t* empty, int consumer, float* c, int n, int tile_rows,
                        int tile_cols, int band_rows, int steps) {
    const bool arrives = threadIdx.x % 32 == 0;  // one arrival per warp on `empty`
    RingPosition at;
    for (int tile = blockIdx.x; tile < tile_rows * tile_cols; tile += gridDim.x) {
        const wb::TilePosition position = wb::tile_in_bands(tile, tile_rows, tile_cols, band_rows);
        float acc[kBlockN / 2] = {};
        int in_flight = -1;  // the stage whose wgmmas may still be running
        for (int step = 0; step < steps; ++step, at.advance()) {
            wait_for_phase(&full[at.stage], at.parity);
            const bf16* a_tile = reinterpret_cast<const bf16*>(ring + at.stage * kStageBytes) + consumer * 64 * kBlockK;
            const bf16* b_tile = reinterpret_cast<const bf16*>(ring + at.stage * kStageBytes + kBytesA);
            accumulators_in_use(acc);
            wgmma_fence();
#pragma unroll
            for (int slice = 0; slice < kBlockK / 16; ++slice)
                wgmma_64x256x16(acc, tile_descriptor(a_tile + 16 * slice), tile_descriptor(b_tile + 16 * slice));
            wgmma_commit();
            wgmma_wait<1>();  // the previous step's group is done: its stage may go back
            accumulators_in_use(acc);
            if (in_flight >= 0 && arrives) arrive(&empty[in_flight]);
            in_flight = at.stage;
        }
        wgmma_wait<0>();
        accumulators_in_use(acc);
        if (in_flight >= 0 && arrives) arrive(&empty[in_flight]);
        const long row0 = static_cast<long>(position.row) * kBlockM + 64 * consumer;
        store_accumulators(acc, c + row0 * n + static_cast<long>(position.col) * kBlockN, n);
    }
}

__global__ void __launch_bounds__(kThreads, 1)
    persistent(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_map, float* c, int m,
               int n, int k, int band_rows) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t full[kStages], empty[kStages];
    uint8_t* ring = align_to_1024(shared);
    const int warpgroup = threadIdx.x / 128;
    const int tile_rows = m / kBlockM, tile_cols = n / kBlockN, steps = k / kBlockK;
    if (threadIdx.x == 0) {
        for (int stage = 0; stage < kStages; ++stage) {
            init_barrier(&full[stage], 1);
            init_barrier(&empty[stage], kConsumerWarps);
        }
        publish_barrier_init();
    }
    __syncthreads();

    if (warpgroup == 0) {
        release_registers<40>();
        if (threadIdx.x == 0) produce(&a_map, &bt_map, ring, full, empty, tile_rows, tile_cols, band_rows, steps);
    } else {
        claim_registers<232>();
        consume(ring, full, empty, warpgroup - 1, c, n, tile_rows, tile_cols, band_rows, steps);
    }
}

}  // namespace

void launch_persistent(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const CUtensorMap a_map = make_tile_map(a, m, k, kBlockM);
    const CUtensorMap bt_map = make_tile_map(bt, n, k, kBlockN);
    WB_CUDA_CHECK(cudaFuncSetAttribute(persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    int device = 0, multiprocessors = 0;
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const int tiles = (m / kBlockM) * (n / kBlockN);
    persistent<<<std::min(tiles, multiprocessors), kThreads, kSharedBytes>>>(a_map, bt_map, c, m, n, k,
                                                                             launch_band_rows);
    WB_CHECK_LAUNCH("persistent");
}

void set_persistent_band_rows(int rows) {
    if (rows < 1) throw std::invalid_argument("a band holds at least one block-row");
    launch_band_rows = rows;
}
