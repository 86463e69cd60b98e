// Lesson 13 exercise (kernel 03, step 3): a pipeline with warp specialization. A block of three
// warpgroups computes a 128 x 256 tile of C:
//   - warpgroup 0, the producer: one of its threads keeps the TMA unit busy, filling a ring of
//     four shared-memory stages (a 128 x 64 tile of A and a 256 x 64 tile of Bt each, 48 KiB);
//   - warpgroups 1 and 2, the consumers: each multiplies 64 rows of the tile, stage after stage,
//     with wgmma m64n256k16 (128 float accumulators per thread).
// Two mbarriers per stage carry the handshake: `full` completes when the stage's bytes have
// landed (the producer arms it with the byte count), `empty` when all 8 consumer warps have
// finished reading it (one arrival per warp). The producer may be up to four stages ahead, so
// the copies of the next tiles travel while the tensor cores work on this one.
// Stage s is used by k steps s, s + 4, s + 8 ...: use number `use` = step / 4 of a stage is
// phase `use` of its barriers. The producer's loop (TODO 4) and the consumers' (TODO 5) are
// yours, and so are the two waits they call (ring_waits.cuh) and the wgmma group
// (wgmma_group.cuh).
#include "hopper.cuh"
#include "kernels.h"
#include "tensor_maps.h"
#include "wb/workbook.h"

// Your waits (ring_waits.cuh) and wgmma group (wgmma_group.cuh). Angle brackets, so that the
// exercise build takes lessons/'s copies and the solution build solutions/' copies (a name in
// quotes would be found beside this file first).
#include <kernels/ring_waits.cuh>
#include <kernels/wgmma_group.cuh>

namespace {

constexpr int kBlockM = 128, kBlockN = 256, kBlockK = kTileK;
constexpr int kStages = 4;
constexpr int kConsumers = 2;                               // warpgroups; each owns 64 rows of the tile
constexpr int kThreads = 128 * (1 + kConsumers);            // the producer warpgroup first
constexpr int kConsumerWarps = 4 * kConsumers;              // the arrivals each `empty` phase waits for
constexpr int kBytesA = kBlockM * kBlockK * 2;              // 16 KiB
constexpr int kBytesB = kBlockN * kBlockK * 2;              // 32 KiB
constexpr int kStageBytes = kBytesA + kBytesB;              // 48 KiB, a multiple of 1024
constexpr int kSharedBytes = kStages * kStageBytes + 1024;  // + room to align to 1024 bytes
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");

// The producer: one thread keeps the ring filled, one k step per stage.
__device__ void produce(const CUtensorMap* a_map, const CUtensorMap* bt_map, uint8_t* ring, uint64_t* full,
                        uint64_t* empty, int row0, int col0, int steps) {
    // >>> TODO 4: for each k step, refill the next stage of the ring once the consumers have freed it
    // Step `step` is use step / kStages of stage step % kStages. Before TMA writes into the stage
    // it must be free, and its `full` barrier must know how many bytes will land. Which tile of A
    // and which of Bt does the step need, and where in the stage does each go?
    (void)a_map;
    (void)bt_map;
    (void)ring;
    (void)full;
    (void)empty;
    (void)row0;
    (void)col0;
    (void)steps;
    // <<< TODO 4
}

// A consumer warpgroup: rows [64 consumer, 64 consumer + 64) of the block's tile of C, whose
// first element is (row0, col0).
__device__ void consume(uint8_t* ring, uint64_t* full, uint64_t* empty, int consumer, int steps, float* c, int n,
                        int row0, int col0) {
    // >>> TODO 5: for each k step, multiply the stage once it has landed and hand it back; then store
    // your rows of C
    // Which rows of the stage's tile of A are this warpgroup's? The wgmmas read the stage and
    // write acc asynchronously: what must hold before the stage goes back, and how many
    // arrivals does `empty` wait for? store_accumulators() (hopper.cuh) writes the
    // accumulators to C.
    (void)ring;
    (void)full;
    (void)empty;
    (void)consumer;
    (void)steps;
    (void)c;
    (void)n;
    (void)row0;
    (void)col0;
    // <<< TODO 5
}

// A 128-register accumulator tile per consumer thread leaves the producer little to spare:
// setmaxnreg moves registers from the producer warpgroup (40 each) to the consumers (232).
__global__ void __launch_bounds__(kThreads, 1)
    warp_specialized(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_map, float* c,
                     int n, int k) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t full[kStages], empty[kStages];
    uint8_t* ring = align_to_1024(shared);
    const int warpgroup = threadIdx.x / 128;
    const int row0 = blockIdx.y * kBlockM, col0 = blockIdx.x * kBlockN;
    const int steps = k / kBlockK;
    if (threadIdx.x == 0) {
        for (int stage = 0; stage < kStages; ++stage) {
            init_barrier(&full[stage], 1);                // the producer's arrival (+ the bytes)
            init_barrier(&empty[stage], kConsumerWarps);  // one arrival per consumer warp
        }
        publish_barrier_init();
    }
    __syncthreads();  // the last barrier of the whole block: from here on the roles part

    // >>> TODO 6: part the roles: one producer thread, two consumer warpgroups, registers moved to the consumers
    // Warpgroup 0 produces, and one of its threads is enough; warpgroups 1 and 2 consume, the
    // first of them rows 0 to 63. Every thread of a warpgroup changes its register count, or
    // none does.
    (void)warpgroup;
    (void)row0;
    (void)col0;
    (void)steps;
    (void)a_map;
    (void)bt_map;
    (void)c;
    (void)n;
    (void)produce;
    (void)consume;
    // <<< TODO 6
}

}  // namespace

void launch_warp_specialized(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const CUtensorMap a_map = make_tile_map(a, m, k, kBlockM);
    const CUtensorMap bt_map = make_tile_map(bt, n, k, kBlockN);
    WB_CUDA_CHECK(cudaFuncSetAttribute(warp_specialized, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    const dim3 grid(n / kBlockN, m / kBlockM);
    warp_specialized<<<grid, kThreads, kSharedBytes>>>(a_map, bt_map, c, n, k);
    WB_CHECK_LAUNCH("warp_specialized");
}
