// Kernel 02 (step 2, given, but for the wgmma group it calls: yours, TODO 1): Hopper's own way,
// in its simplest form. One warpgroup (4 warps, 128 threads) computes a 64 x 128 tile of C. Each
// k step:
//   1. one thread asks the TMA unit for the 64 x 64 tile of A and the 128 x 64 tile of Bt and
//      arms an mbarrier with the bytes they will bring (8 KiB + 16 KiB);
//   2. the whole warpgroup waits on the mbarrier until the bytes have landed;
//   3. wgmma instructions (your multiply_stage) read both tiles straight from shared memory (no
//      fragment loads) and add their product to 64 float accumulators per thread;
//   4. the warpgroup waits for its wgmmas, then syncs, so that the next copy may overwrite the tiles.
// Nothing overlaps: while the tiles travel the tensor cores idle, and while they compute no copy
// is in flight. Kernel 03 removes both waits with a pipeline.
#include "hopper.cuh"
#include "kernels.h"
#include "tensor_maps.h"
#include "wb/workbook.h"

// Your wgmma group (wgmma_group.cuh). Angle brackets, so that the exercise build takes lessons/'s
// copy and the solution build solutions/' copy (a name in quotes would be found beside this file
// first).
#include <kernels/wgmma_group.cuh>

namespace {

constexpr int kBlockM = 64, kBlockN = 128, kBlockK = kTileK;
constexpr int kThreads = 128;
constexpr int kBytesA = kBlockM * kBlockK * 2, kBytesB = kBlockN * kBlockK * 2;  // 8 KiB, 16 KiB
// The 128-byte swizzle repeats every 1024 bytes: each tile must start on such a boundary. The
// dynamic shared memory is aligned by hand, hence the extra 1024 bytes.
constexpr int kSharedBytes = kBytesA + kBytesB + 1024;

__global__ void __launch_bounds__(kThreads)
    wgmma_tma(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_map, float* c, int n,
              int k) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t loaded;  // completes a phase when both tiles of a k step have landed
    bf16* a_tile = reinterpret_cast<bf16*>(align_to_1024(shared));
    bf16* b_tile = a_tile + kBlockM * kBlockK;
    const int row0 = blockIdx.y * kBlockM, col0 = blockIdx.x * kBlockN;
    const bool leader = threadIdx.x == 0;
    if (leader) {
        init_barrier(&loaded, 1);  // one arrival per phase: the leader's
        publish_barrier_init();
    }
    __syncthreads();

    float acc[kBlockN / 2] = {};
    const int steps = k / kBlockK;
    for (int step = 0; step < steps; ++step) {
        if (leader) {
            arrive_expecting_bytes(&loaded, kBytesA + kBytesB);
            load_tile(a_tile, &a_map, &loaded, step * kBlockK, row0);
            load_tile(b_tile, &bt_map, &loaded, step * kBlockK, col0);
        }
        wait_for_phase(&loaded, step % 2);  // the barrier's phase `step` has parity step % 2

        multiply_stage_and_wait(acc, a_tile, b_tile);  // wgmma_group.cuh
        __syncthreads();                               // the tiles are free: the leader may start the next copy
    }
    store_accumulators(acc, c + static_cast<long>(row0) * n + col0, n);
}

}  // namespace

void launch_wgmma_tma(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const CUtensorMap a_map = make_tile_map(a, m, k, kBlockM);
    const CUtensorMap bt_map = make_tile_map(bt, n, k, kBlockN);
    WB_CUDA_CHECK(cudaFuncSetAttribute(wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    const dim3 grid(n / kBlockN, m / kBlockM);
    wgmma_tma<<<grid, kThreads, kSharedBytes>>>(a_map, bt_map, c, n, k);
    WB_CHECK_LAUNCH("wgmma_tma");
}
