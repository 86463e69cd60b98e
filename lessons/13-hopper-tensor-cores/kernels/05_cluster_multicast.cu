// Kernel 05 (step 5, given: read it once your kernel 03 passes its check): kernel 04 in
// clusters of two blocks that load each tile of B once for both.
// - Pairs of tiles. The two blocks of a cluster compute the tiles of two neighbouring
//   block-rows in one block-column (wb::cluster_tile_in_bands): they need the same 256 x 64 tile
//   of Bt at every k step. Kernel 04 has each block bring its own copy from the L2 cache; here
//   block r of the pair asks TMA for half of it (rows 128 r .. 128 r + 127) and TMA writes that
//   half into the shared memory of *both* blocks (multicast). Per k step a block's copy engine
//   then reads 16 KiB of A and 16 KiB of B from the L2 instead of 16 + 32 KiB: a third less
//   traffic between the L2 and the multiprocessors. B is the operand to share: it is the
//   larger one of a 128 x 256 tile.
// - The full barrier. Each block's `full[stage]` still completes when 48 KiB have landed in
//   its stage (its own A, its own half of B, and the other block's half), on one arrival, its
//   own producer's: bytes written by the other block's TMA count on it as if its own producer
//   had asked for them. They may even land before that producer arms the barrier for the phase:
//   the phase waits for its arrival anyway.
// - The empty barrier spans the cluster. A block's producer now writes into the other block's
//   shared memory too, so before refilling a stage it must know that the consumers of *both*
//   blocks are done with it: every consumer warp arrives on `empty[stage]` of both blocks, which
//   therefore expects 2 x 8 arrivals per phase instead of 8.
// - Cluster barriers at both ends. A block may arrive on the other block's barriers only once
//   that block has initialised them (cluster_sync() before the roles part), and it must not exit
//   while the other one may still arrive on its barriers (cluster_sync() at the end). Both
//   blocks of a cluster walk the same pieces, so their rings advance in step and neither waits
//   for a phase that the other one never reaches.
// The grid is as many clusters as can run at once (cudaOccupancyMaxActiveClusters), launched
// with cudaLaunchKernelEx and the cluster-dimension attribute.
#include "persistent_ring.cuh"

namespace {

constexpr int kClusterSize = 2;                      // blocks of a cluster, stacked along m: they share the tile of B
constexpr int kSliceRowsB = kBlockN / kClusterSize;  // the rows of Bt's tile one block loads
constexpr int kSliceBytesB = kBytesB / kClusterSize;
constexpr int kSharedBytes = kRingBytes + 1024;
constexpr uint16_t kWholeCluster = (1u << kClusterSize) - 1;  // multicast to every block
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");
// Every tile-column has an even number of tiles, so no block of a cluster is ever left without
// a partner tile (m is a multiple of kTileMultiple, kernels.h).
static_assert(kTileMultiple % (kClusterSize * kBlockM) == 0, "the tile-rows must pair up");
static_assert(kDefaultBandRows % kClusterSize == 0, "a band must hold whole clusters");
// A slice of B must start on a 1024-byte boundary (the swizzle's period), and the two slices
// side by side must be laid out as one 256-row tile would be: 16 KiB of whole 8-row groups.
static_assert(kSliceBytesB % 1024 == 0, "each block's slice of B must keep the swizzle's alignment");

// Where this block's tile of the cluster's `piece`-th piece of work lies, in tiles.
__device__ wb::TilePosition tile_of(int piece, uint32_t rank, int tile_rows, int tile_cols) {
    return wb::cluster_tile_in_bands(piece, static_cast<int>(rank), tile_rows, tile_cols, kDefaultBandRows,
                                     kClusterSize);
}

__device__ void produce(const CUtensorMap* a_map, const CUtensorMap* bt_slice_map, uint8_t* ring, uint64_t* full,
                        uint64_t* empty, uint32_t rank, int tile_rows, int tile_cols, int steps) {
    const int cluster = blockIdx.x / kClusterSize, clusters = gridDim.x / kClusterSize;
    const int pieces = tile_rows / kClusterSize * tile_cols;
    RingPosition at;
    for (int piece = cluster; piece < pieces; piece += clusters) {
        const wb::TilePosition position = tile_of(piece, rank, tile_rows, tile_cols);
        for (int step = 0; step < steps; ++step, at.advance()) {
            // Both blocks' consumers have released the stage (2 x 8 arrivals): the multicast below
            // may overwrite it in this block and in the other one.
            wait_until_released(&empty[at.stage], at.use);
            uint8_t* a_tile = ring + at.stage * kStageBytes;
            uint8_t* b_tile = a_tile + kBytesA;
            // Everything this stage receives, the other block's slice of B included.
            arrive_expecting_bytes(&full[at.stage], kStageBytes);
            load_tile(a_tile, a_map, &full[at.stage], step * kBlockK, position.row * kBlockM);
            load_tile_multicast(b_tile + rank * kSliceBytesB, bt_slice_map, &full[at.stage], step * kBlockK,
                                position.col * kBlockN + static_cast<int>(rank) * kSliceRowsB, kWholeCluster);
        }
    }
}

__device__ void consume(uint8_t* ring, uint64_t* full, uint64_t* empty, uint32_t rank, int consumer, float* c, int n,
                        int tile_rows, int tile_cols, int steps) {
    const int cluster = blockIdx.x / kClusterSize, clusters = gridDim.x / kClusterSize;
    const int pieces = tile_rows / kClusterSize * tile_cols;
    // Hands a stage back to the producers of both blocks (each writes into it): one lane of each
    // warp arrives on each block's `empty`.
    const auto release = [&](int stage) {
#pragma unroll
        for (uint32_t block = 0; block < kClusterSize; ++block) arrive_in_block(&empty[stage], block);
    };
    RingPosition at;
    for (int piece = cluster; piece < pieces; piece += clusters) {
        const wb::TilePosition position = tile_of(piece, rank, tile_rows, tile_cols);
        float acc[kBlockN / 2] = {};
        accumulate_tile(acc, ring, full, consumer, steps, at, release);
        const long row0 = static_cast<long>(position.row) * kBlockM + 64 * consumer;
        store_accumulators(acc, c + row0 * n + static_cast<long>(position.col) * kBlockN, n);
    }
}

__global__ void __launch_bounds__(kThreads, 1)
    cluster_multicast(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_slice_map,
                      float* c, int m, int n, int k) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t full[kStages], empty[kStages];
    // Every block of the cluster has its ring at the same offset: align_to_1024 gives the same
    // answer in both, since their shared memory is laid out alike.
    uint8_t* ring = align_to_1024(shared);
    const int warpgroup = threadIdx.x / 128;
    const uint32_t rank = cluster_rank();
    const int tile_rows = m / kBlockM, tile_cols = n / kBlockN, steps = k / kBlockK;
    init_ring(full, empty, kClusterSize * kConsumerWarps);  // `empty`: both blocks' consumer warps
    // The other block's barriers exist from here on: both blocks have initialised theirs.
    cluster_sync();

    if (warpgroup == 0) {
        release_registers<40>();
        if (threadIdx.x == 0) produce(&a_map, &bt_slice_map, ring, full, empty, rank, tile_rows, tile_cols, steps);
    } else {
        claim_registers<232>();
        consume(ring, full, empty, rank, warpgroup - 1, c, n, tile_rows, tile_cols, steps);
    }
    // Neither block exits while the other one may still arrive on its barriers (its consumers'
    // last releases). The bytes either block multicast into the other have all landed by now: the
    // receiving block's consumers waited for them before reaching this barrier.
    __syncwarp();
    cluster_sync();
}

}  // namespace

void launch_cluster_multicast(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const CUtensorMap a_map = make_tile_map(a, m, k, kBlockM);
    const CUtensorMap bt_slice_map = make_tile_map(bt, n, k, kSliceRowsB);  // half a tile of Bt per load
    WB_CUDA_CHECK(cudaFuncSetAttribute(cluster_multicast, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));

    // One cluster first, to ask how many can run at once.
    ClusterLaunch launch(kClusterSize, kThreads, kClusterSize, kSharedBytes);

    // As many clusters as the GPU can hold at once: a cluster's blocks must sit in one GPC, so
    // this may be fewer than half the multiprocessors. Then no more clusters than pieces of work.
    const int pieces = (m / kBlockM) / kClusterSize * (n / kBlockN);
    int resident = 0;
    WB_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&resident, cluster_multicast, &launch.config));
    if (resident < 1) resident = std::max(1, wb::multiprocessor_count() / kClusterSize);
    // The grid is a whole number of clusters (a launch with a cluster dimension requires it).
    launch.config.gridDim = dim3(std::min(pieces, resident) * kClusterSize);
    WB_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, cluster_multicast, a_map, bt_slice_map, c, m, n, k));
    WB_CHECK_LAUNCH("cluster_multicast");
}
