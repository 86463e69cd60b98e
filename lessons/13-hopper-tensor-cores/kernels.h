/// @file kernels.h
/// @brief Lesson 13: BF16 matrix products on Hopper's tensor cores, from mma.sync to a
/// warp-specialized wgmma pipeline, persistent and in clusters.
///
/// Every launcher computes C = A * B for a row-major m x k matrix A and a k x n matrix B given
/// transposed, as Bt (n x k, row-major: each column of B is a row of k values). Both inputs are
/// bf16, C is float (FP32 accumulation). Storing B this way lets every tile of A and of B be
/// read along k, the layout ("K-major") that wgmma takes for bf16 without transposing.
/// m, n and k must be multiples of kTileMultiple; the driver pads smaller problems with zeros.
#pragma once

#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;

/// Every kernel's tiles divide this: the largest block tile is 128 x 256, k goes by 64.
constexpr int kTileMultiple = 256;

// Step 1: the Ampere way. mma.sync m16n8k16 per warp, fragments loaded from shared memory by
// every thread; a 128 x 128 block of 8 warps. Needs compute capability 8.0.
void launch_mma_sync(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/01
// Step 2: Hopper's wgmma, fed by TMA: one warpgroup, a 64 x 128 tile, one stage, one mbarrier.
void launch_wgmma_tma(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/02
// Step 3: a pipeline of four stages, a producer warpgroup and two consumer warpgroups on a
// 128 x 256 tile (the exercise).
void launch_warp_specialized(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/03
// Step 4: persistent blocks walking tiles in bands (L2 reuse), one wgmma group kept in flight.
void launch_persistent(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/04
/// The height of the bands of tiles of kernels 04 to 06, in block-rows (wb::tile_in_bands); kernel
/// 04 takes another one from set_persistent_band_rows.
constexpr int kDefaultBandRows = 8;
/// Sets the band height of kernel 04's next launches, in block-rows of 128 (default 8; 1 walks the
/// tiles in plain row order): the driver's --band-rows.
void set_persistent_band_rows(int rows);  // kernels/04
// Step 5: as step 4, in clusters of two blocks on neighbouring tiles that load each tile of B
// once for both (TMA multicast) and release each stage together.
void launch_cluster_multicast(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/05
// Step 6: as step 4, with C written through shared memory by TMA stores, while the consumers
// go on to their next tile.
void launch_tma_epilogue(const bf16* a, const bf16* bt, float* c, int m, int n, int k);  // kernels/06

// Exercise part 2, step 5's idea on its own: the two blocks of each of `clusters` clusters share
// the tiles of a matrix of tiles x 256 rows and kTileK columns. For each tile, each block loads
// half and TMA multicast writes it into both blocks; each block then writes the whole tile to
// copies[rank] (copies: 2 x tiles x 256 x kTileK). Block 1 of each cluster waits lag_ns before
// writing each tile out (the check's way to show a block that runs ahead).
void launch_cluster_share(const bf16* matrix, bf16* copies, int tiles, int clusters,
                          unsigned lag_ns);  // kernels/cluster_share.cu
