// Kernel 04 (step 4, given: read it once your kernel 03 passes its check): kernel 03's
// pipeline, three changes that take it to cuBLAS's speed on large matrices.
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
// The ring, the producer and the consumers' k steps are in persistent_ring.cuh, which kernels
// 05 and 06 share.
#include "persistent_ring.cuh"

#include <stdexcept>

namespace {

constexpr int kSharedBytes = kRingBytes + 1024;
int launch_band_rows = kDefaultBandRows;  // the band height of the next launches (kernels.h)
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");

__device__ void consume(uint8_t* ring, uint64_t* full, uint64_t* empty, int consumer, float* c, int n, int tile_rows,
                        int tile_cols, int band_rows, int steps) {
    RingPosition at;
    for (int tile = blockIdx.x; tile < tile_rows * tile_cols; tile += gridDim.x) {
        const wb::TilePosition position = wb::tile_in_bands(tile, tile_rows, tile_cols, band_rows);
        float acc[kBlockN / 2] = {};
        accumulate_tile(acc, ring, full, consumer, steps, at, [&](int stage) { arrive(&empty[stage]); });
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
    init_ring(full, empty, kConsumerWarps);
    __syncthreads();

    if (warpgroup == 0) {
        release_registers<40>();
        if (threadIdx.x == 0) produce_tiles(&a_map, &bt_map, ring, full, empty, tile_rows, tile_cols, band_rows, steps);
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
    persistent<<<persistent_blocks(m, n), kThreads, kSharedBytes>>>(a_map, bt_map, c, m, n, k, launch_band_rows);
    WB_CHECK_LAUNCH("persistent");
}

void set_persistent_band_rows(int rows) {
    if (rows < 1) throw std::invalid_argument("a band holds at least one block-row");
    launch_band_rows = rows;
}
