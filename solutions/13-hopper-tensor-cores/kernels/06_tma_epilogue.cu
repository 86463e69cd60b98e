// Kernel 06 (step 6, exercise part 3): kernel 04 with an epilogue that does not hold the tensor
// cores back.
// - Kernel 04's consumers write their 64 x 256 floats of C straight from the accumulators:
//   128 8-byte stores per thread, and while the memory system takes them, neither consumer
//   issues wgmmas. Without those stores (a timing experiment, not a kernel: C stays wrong)
//   kernel 04 ran about a tenth faster at 4096^3 on an H100.
// - Here each consumer copies its accumulators into shared memory, 64 x 32 floats at a time
//   (a chunk, 8 KiB), and one of its threads hands each chunk to the TMA unit, which writes it
//   to C (cp.async.bulk.tensor, global from shared). The consumer goes on to its next tile as
//   soon as its last chunk is handed over: the writes to global memory overlap the next tile's
//   wgmmas.
// - Two chunk buffers per consumer (32 KiB in all: beside the 192 KiB ring, what an H100 block
//   may still have): while TMA reads one, the consumer fills the other. Before refilling a
//   buffer, the handing thread waits until TMA has read the store before last
//   (cp.async.bulk.wait_group.read 1), and the warpgroup waits for it at its own named barrier.
// - The buffers use the 128-byte swizzle (put_in_chunk): a warp's eight rows of one store land
//   on different banks, and the TMA store un-swizzles them on the way out.
// - Ordering: threads write a chunk with ordinary stores, but TMA reads shared memory through
//   the async proxy: each thread fences (fence.proxy.async.shared::cta) before the barrier after
//   which the chunk is handed over. At the end the handing thread waits until its stores have
//   written global memory.
#include "kernels/persistent_ring.cuh"

namespace {

constexpr int kChunkRows = 64;                            // a consumer's rows
constexpr int kChunkBytes = kChunkRows * kChunkCols * 4;  // 64 x 32 floats: 8 KiB
constexpr int kChunkBuffers = 2;                          // per consumer
constexpr int kSharedBytes = kRingBytes + kConsumers * kChunkBuffers * kChunkBytes + 1024;
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");
static_assert(kRingBytes % 1024 == 0 && kChunkBytes % 1024 == 0, "each chunk buffer starts on the swizzle's period");

// Writes this consumer's 64 x 256 accumulators to C at (row0, col0) through its two chunk
// buffers, 64 x 32 floats at a time, and returns as soon as the last chunk is handed to TMA.
__device__ void store_through_shared(const float (&acc)[kBlockN / 2], uint8_t* buffers, const CUtensorMap* c_map,
                                     int consumer, int row0, int col0) {
    const int thread = threadIdx.x % 128, warp = thread / 32, lane = thread % 32;
    const bool hands_over = thread == 0;
    const int barrier = 1 + consumer;  // this warpgroup's named barrier
    const int row = 16 * warp + lane / 4;
#pragma unroll
    for (int chunk = 0; chunk < kBlockN / kChunkCols; ++chunk) {
        uint8_t* buffer = buffers + (chunk % kChunkBuffers) * kChunkBytes;
        // >>> TODO 10: refill the buffer only once TMA has read the chunk it last held
        // The store that last read this buffer (two chunks ago, maybe in the previous tile) is done
        // reading it; the other threads learn it at the barrier.
        if (hands_over) wait_chunks_read<kChunkBuffers - 1>();
        sync_warpgroup(barrier);
        // <<< TODO 10
#pragma unroll
        for (int q = 0; q < kChunkCols / 8; ++q) {
            const int j = chunk * kChunkCols / 8 + q;  // accumulator columns 8 j .. 8 j + 7
            const int col = 8 * q + 2 * (lane % 4);
            put_in_chunk(buffer, row, col, acc[4 * j], acc[4 * j + 1]);
            put_in_chunk(buffer, row + 8, col, acc[4 * j + 2], acc[4 * j + 3]);
        }
        // >>> TODO 11: hand the chunk to TMA, which writes it to C at (row0, col0 + its columns)
        // Every thread's writes are ordered before TMA's reads (the async proxy), then one thread
        // asks TMA for the store.
        fence_shared_for_tma();
        sync_warpgroup(barrier);
        if (hands_over) store_chunk(c_map, buffer, col0 + chunk * kChunkCols, row0);
        // <<< TODO 11
    }
}

__device__ void consume(uint8_t* ring, uint64_t* full, uint64_t* empty, int consumer, const CUtensorMap* c_map,
                        int tile_rows, int tile_cols, int steps) {
    RingPosition at;
    for (int tile = blockIdx.x; tile < tile_rows * tile_cols; tile += gridDim.x) {
        const wb::TilePosition position = wb::tile_in_bands(tile, tile_rows, tile_cols, kDefaultBandRows);
        float acc[kBlockN / 2] = {};
        accumulate_tile(acc, ring, full, consumer, steps, at, [&](int stage) { arrive(&empty[stage]); });
        uint8_t* buffers = ring + kRingBytes + consumer * kChunkBuffers * kChunkBytes;
        store_through_shared(acc, buffers, c_map, consumer, position.row * kBlockM + 64 * consumer,
                             position.col * kBlockN);
    }
    // The kernel may end only once C is written: the thread that issued the stores waits for them.
    if (threadIdx.x % 128 == 0) {
        // >>> TODO 12: wait until every store of this thread has written C
        wait_chunks_written();
        // <<< TODO 12
    }
}

__global__ void __launch_bounds__(kThreads, 1)
    tma_epilogue(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_map,
                 const __grid_constant__ CUtensorMap c_map, int m, int n, int k) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t full[kStages], empty[kStages];
    uint8_t* ring = align_to_1024(shared);
    const int warpgroup = threadIdx.x / 128;
    const int tile_rows = m / kBlockM, tile_cols = n / kBlockN, steps = k / kBlockK;
    init_ring(full, empty, kConsumerWarps);
    __syncthreads();

    if (warpgroup == 0) {
        release_registers<40>();
        if (threadIdx.x == 0)
            produce_tiles(&a_map, &bt_map, ring, full, empty, tile_rows, tile_cols, kDefaultBandRows, steps);
    } else {
        claim_registers<232>();
        consume(ring, full, empty, warpgroup - 1, &c_map, tile_rows, tile_cols, steps);
    }
}

}  // namespace

void launch_tma_epilogue(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const CUtensorMap a_map = make_tile_map(a, m, k, kBlockM);
    const CUtensorMap bt_map = make_tile_map(bt, n, k, kBlockN);
    const CUtensorMap c_map = make_output_map(c, m, n, kChunkRows);
    WB_CUDA_CHECK(cudaFuncSetAttribute(tma_epilogue, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    tma_epilogue<<<persistent_blocks(m, n), kThreads, kSharedBytes>>>(a_map, bt_map, c_map, m, n, k);
    WB_CHECK_LAUNCH("tma_epilogue");
}
