// Exercise part 2 (step 5's idea on its own): two blocks of a cluster share each tile they
// load. The matrix is a column of tiles of 256 rows x 64 bf16 (32 KiB each). The two blocks of
// a cluster walk the same tiles; for each, block r asks TMA for its half, rows 128 r ..
// 128 r + 127, and TMA writes that half into the shared memory of *both* blocks (multicast), at
// the same offset in each. Each block thus holds the whole tile after loading only half of it,
// and writes its whole copy out (copies[rank]), which the check compares with the tile.
// The three parts to write:
// - TODO 7: `landed` completes a phase when the bytes it was told to expect have arrived. Which
//   bytes land in this block per tile: its own half only, or both halves?
// - TODO 8: the multicast load of this block's half: where it goes in shared memory, which rows
//   of the matrix it reads, and which blocks receive it.
// - TODO 9: the next tile overwrites both blocks' copies of this one. Neither block may load it
//   before the other has written its copy out.
#include "hopper.cuh"
#include "kernels.h"
#include "tensor_maps.h"
#include "wb/workbook.h"

namespace {

constexpr int kClusterSize = 2;
constexpr int kThreads = 128;
constexpr int kTileRows = 256;                        // a tile: 256 rows x kTileK bf16
constexpr int kSliceRows = kTileRows / kClusterSize;  // the rows one block loads
constexpr int kTileBytes = kTileRows * kTileK * 2;    // 32 KiB
// Used by the parts you write ([[maybe_unused]]: the exercise compiles before they exist).
[[maybe_unused]] constexpr int kSliceBytes = kTileBytes / kClusterSize;        // 16 KiB: whole swizzle periods
[[maybe_unused]] constexpr uint16_t kWholeCluster = (1u << kClusterSize) - 1;  // bit r: the block of rank r
constexpr int kSharedBytes = kTileBytes + 1024;                                // + 1024 to align the tile by hand

// Writes the tile in shared memory to `copy` (row-major, kTileK columns), undoing the 128-byte
// swizzle TMA wrote it with (swizzled_offset).
__device__ void write_copy(const uint8_t* tile, bf16* copy) {
    constexpr int kPiecesPerRow = kTileK * 2 / 16;
    for (int piece = threadIdx.x; piece < kTileRows * kPiecesPerRow; piece += kThreads) {
        const int row = piece / kPiecesPerRow, column = piece % kPiecesPerRow;
        const uint4 value = *reinterpret_cast<const uint4*>(tile + swizzled_offset(row, column * 16));
        *reinterpret_cast<uint4*>(copy + row * kTileK + column * 8) = value;
    }
}

__global__ void __launch_bounds__(kThreads)
    cluster_share(const __grid_constant__ CUtensorMap slice_map, bf16* copies, int tiles, unsigned lag_ns) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t landed;  // completes a phase when the whole tile has landed in this block
    uint8_t* tile = align_to_1024(shared);
    const uint32_t rank = cluster_rank();
    const int cluster = blockIdx.x / kClusterSize, clusters = gridDim.x / kClusterSize;
    if (threadIdx.x == 0) {
        init_barrier(&landed, 1);  // one arrival per phase: this block's thread 0
        publish_barrier_init();
    }
    // Both blocks' barriers exist before either block's TMA counts bytes on them.
    cluster_sync();

    int round = 0;
    for (int t = cluster; t < tiles; t += clusters, ++round) {
        if (threadIdx.x == 0) {
            // >>> TODO 7: arm `landed` for this tile, with the bytes that will land in this block
            arrive_expecting_bytes(&landed, kTileBytes);
            // <<< TODO 7
            // >>> TODO 8: load this block's half of tile t into both blocks (load_tile_multicast)
            load_tile_multicast(tile + rank * kSliceBytes, &slice_map, &landed, 0,
                                t * kTileRows + static_cast<int>(rank) * kSliceRows, kWholeCluster);
            // <<< TODO 8
        }
        wait_for_phase(&landed, round % 2);
        // The check slows block 1 down (lag_ns a tile), so that a block that runs ahead shows.
        if (rank == 1 && lag_ns > 0) __nanosleep(lag_ns);
        write_copy(tile, copies + (static_cast<long>(rank) * tiles + t) * kTileRows * kTileK);
        // >>> TODO 9: neither block loads the next tile before both have written this one out
        cluster_sync();
        // <<< TODO 9
    }
}

}  // namespace

void launch_cluster_share(const bf16* matrix, bf16* copies, int tiles, int clusters, unsigned lag_ns) {
    const CUtensorMap slice_map = make_tile_map(matrix, tiles * kTileRows, kTileK, kSliceRows);
    WB_CUDA_CHECK(cudaFuncSetAttribute(cluster_share, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    const ClusterLaunch launch(clusters * kClusterSize, kThreads, kClusterSize, kSharedBytes);
    WB_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, cluster_share, slice_map, copies, tiles, lag_ns));
    WB_CHECK_LAUNCH("cluster_share");
}
