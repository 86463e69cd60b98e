/// @file hopper.cuh
/// @brief Lesson 13: the Hopper (sm_90a) instructions the kernels use, each wrapped in a
/// short function. mbarriers, TMA tile loads, setmaxnreg, the wgmma fences and the shared-memory
/// descriptor are in wb/hopper_ops.cuh (common/include), which lesson 16 uses too; this file
/// adds clusters, TMA stores and the wgmma shapes of the matrix-product kernels.
///
/// Read both files with the lesson page open; every function names the PTX instruction it
/// issues, so the PTX ISA manual ("Parallel Synchronization and Communication Instructions:
/// mbarrier", "Data Movement: cp.async.bulk.tensor", "Warpgroup MMA") tells the rest.
///
/// wgmma and setmaxnreg exist only in the architecture-specific target sm_90a (the build adds
/// it for compute capability 9.0). A build without it compiles these helpers to a trap, and the
/// driver does not launch the kernels that use them.
#pragma once

#include "wb/hopper_ops.cuh"

#include <cuda.h>  // CUtensorMap (the type only: nothing from the driver library is called here)
#include <cuda_bf16.h>
#include <cuda_runtime.h>  // cudaLaunchConfig_t (ClusterLaunch)

#include <cstdint>

using wb::accumulators_in_use;
using wb::align_to_1024;
using wb::arrive;
using wb::arrive_expecting_bytes;
using wb::claim_registers;
using wb::init_barrier;
using wb::load_tile;
using wb::phase_completed;
using wb::publish_barrier_init;
using wb::release_registers;
using wb::shared_address;
using wb::tile_descriptor;
using wb::wait_for_phase;
using wb::wgmma_commit;
using wb::wgmma_fence;
using wb::wgmma_wait;

using bf16 = __nv_bfloat16;

// ---- clusters: blocks that reach into each other's shared memory ------------------------
// A cluster is a group of blocks (here 2) that the GPU runs at the same time on neighbouring
// multiprocessors. A block of a cluster may address the shared memory of the others ("distributed
// shared memory"): arrive on their mbarriers, and have TMA write one tile into all of them at
// once (multicast). Blocks of a cluster are numbered by their rank, 0 .. cluster size - 1.

/// The launch of `blocks` blocks of `threads` threads in clusters of `cluster_size` blocks along
/// x, with `shared_bytes` of dynamic shared memory, on the default stream: pass `&config` to
/// cudaLaunchKernelEx (a cluster size is a launch attribute, which <<<...>>> cannot give).
/// `blocks` must be a multiple of `cluster_size`.
struct ClusterLaunch {
    cudaLaunchAttribute cluster_dims{};
    cudaLaunchConfig_t config{};
    ClusterLaunch(unsigned blocks, unsigned threads, unsigned cluster_size, size_t shared_bytes) {
        cluster_dims.id = cudaLaunchAttributeClusterDimension;
        cluster_dims.val.clusterDim.x = cluster_size;
        cluster_dims.val.clusterDim.y = 1;
        cluster_dims.val.clusterDim.z = 1;
        config.gridDim = dim3(blocks);
        config.blockDim = dim3(threads);
        config.dynamicSmemBytes = shared_bytes;
        config.stream = nullptr;
        config.attrs = &cluster_dims;  // points into this object: it is neither copied nor moved
        config.numAttrs = 1;
    }
    ClusterLaunch(const ClusterLaunch&) = delete;
    ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

/// This block's rank in its cluster (%cluster_ctarank).
__device__ inline uint32_t cluster_rank() {
    uint32_t rank = 0;
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
    return rank;
}

/// Every thread of every block of the cluster waits here until all have arrived
/// (barrier.cluster.arrive.release + barrier.cluster.wait.acquire): what any of them wrote before,
/// shared memory and mbarrier initialisations included, is visible to all after. It also does
/// what __syncthreads() does for the block. Every thread of the cluster must call it.
__device__ inline void cluster_sync() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
#else
    __trap();
#endif
}

/// Arrives on the barrier at the same place as `barrier` in the shared memory of the block of
/// rank `rank` of the cluster (this block's own when rank is its own). mapa turns the local
/// address into that block's address in the cluster's shared window. The arrival keeps
/// mbarrier.arrive's default semantics, a release at CTA scope, as NVIDIA's CUTLASS pipelines do
/// for the same hand-over: what it hands back, a stage's reads by wgmma, has completed before it
/// (wgmma_wait), so there is nothing left in flight for a wider release to order. A release at
/// cluster scope (.release.cluster) made kernel 05 more than twice as slow on an H100.
__device__ inline void arrive_in_block(uint64_t* barrier, uint32_t rank) {
#ifdef WB_HOPPER_AVAILABLE
    uint32_t remote = 0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(shared_address(barrier)), "r"(rank));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
#else
    (void)barrier, (void)rank;
    __trap();
#endif
}

/// As load_tile(), but the TMA unit writes the tile into the shared memory of every block of the
/// cluster whose bit is set in `blocks` (bit r: rank r), at the same offset as `destination`,
/// and counts its bytes on each of those blocks' barrier at the offset of `barrier`. Each
/// receiving block's barrier must therefore expect these bytes too, though its own producer did
/// not ask for them.
__device__ inline void load_tile_multicast(void* destination, const CUtensorMap* map, uint64_t* barrier, int k, int row,
                                           uint16_t blocks) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(shared_address(destination)),
                 "l"(reinterpret_cast<uint64_t>(map)), "r"(shared_address(barrier)), "r"(k), "r"(row), "h"(blocks)
                 : "memory");
#else
    (void)destination, (void)map, (void)barrier, (void)k, (void)row, (void)blocks;
    __trap();
#endif
}

// ---- TMA stores: C through shared memory -------------------------------------------------
// Kernel 06 writes C as kernel 04 computes it, but through shared memory: each consumer
// warpgroup copies its accumulators into a chunk buffer, and one thread hands the chunk to the
// TMA unit, which writes it to global memory while the warpgroup goes on to its next tile.

/// Makes this thread's ordinary stores to shared memory visible to the TMA unit (the "async
/// proxy"), which reads shared memory by another path (fence.proxy.async.shared::cta). Every
/// thread that wrote a chunk runs it before the barrier after which the chunk is stored.
__device__ inline void fence_shared_for_tma() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// The 128 threads of one warpgroup wait for one another at named barrier `id` (bar.sync id,
/// 128); ids 1, 2, ... leave id 0 to __syncthreads().
__device__ inline void sync_warpgroup(int id) { asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory"); }

/// Asks the TMA unit to write the chunk at `source` in shared memory into the tile of `map` whose
/// first element is (row, col) (cp.async.bulk.tensor ... .global.shared::cta.bulk_group), and
/// closes a bulk group holding that store (cp.async.bulk.commit_group). Issued by one thread.
__device__ inline void store_chunk(const CUtensorMap* map, const void* source, int col, int row) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n"
                 "cp.async.bulk.commit_group;\n" ::"l"(reinterpret_cast<uint64_t>(map)),
                 "r"(shared_address(source)), "r"(col), "r"(row)
                 : "memory");
#else
    (void)map, (void)source, (void)col, (void)row;
    __trap();
#endif
}

/// Waits until at most `pending` of this thread's latest store groups still read their shared
/// memory (cp.async.bulk.wait_group.read): the buffers of the older ones may be written again.
template <int pending>
__device__ inline void wait_chunks_read() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(pending) : "memory");
#endif
}

/// Waits until every store group of this thread has finished, its writes to global memory
/// included (cp.async.bulk.wait_group 0).
__device__ inline void wait_chunks_written() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}

/// Where byte `byte` (0 .. 127) of row `row` lies in a tile laid out with the 128-byte swizzle,
/// as TMA reads and writes such tiles: row r is 128 bytes at r * 128 (from a 1024-byte
/// boundary), and its 16-byte piece p sits at piece p XOR (r % 8).
__device__ inline int swizzled_offset(int row, int byte) {
    return row * 128 + ((byte / 16) ^ (row % 8)) * 16 + byte % 16;
}

/// Puts (first, second) at row `row`, columns `col` and `col` + 1 (col even) of a 64 x 32 float
/// chunk laid out with the 128-byte swizzle, as a TMA store of make_output_map() reads it. The
/// eight rows a warp writes at once then fall on different banks.
__device__ inline void put_in_chunk(uint8_t* chunk, int row, int col, float first, float second) {
    *reinterpret_cast<float2*>(chunk + swizzled_offset(row, col * 4)) = make_float2(first, second);
}

// ---- wgmma shapes of the matrix-product kernels ----------------------------------------------
// wb/hopper_ops.cuh says how wgmma runs (fences, groups, descriptors); these are its shapes here.

/// acc (64 x 128 of C, 64 floats per thread) += A (64 x 16) * B (16 x 128), with B stored as
/// 128 rows of k (both tiles "K-major"). The operands after the descriptors: the predicate
/// `accumulate` (true: add to acc; false would overwrite it), the scales of A and B (1, not -1)
/// and their transposes (0: both K-major). store_accumulators() says which thread holds what.
__device__ inline void wgmma_64x128x16(float (&acc)[64], uint64_t a_tile, uint64_t b_tile) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("{\n .reg .pred accumulate;\n setp.ne.b32 accumulate, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, accumulate, 1, 1, 0, 0;\n"
                 "}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]),
                   "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]),
                   "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]),
                   "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]),
                   "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31]),
                   "+f"(acc[32]), "+f"(acc[33]), "+f"(acc[34]), "+f"(acc[35]), "+f"(acc[36]), "+f"(acc[37]),
                   "+f"(acc[38]), "+f"(acc[39]), "+f"(acc[40]), "+f"(acc[41]), "+f"(acc[42]), "+f"(acc[43]),
                   "+f"(acc[44]), "+f"(acc[45]), "+f"(acc[46]), "+f"(acc[47]), "+f"(acc[48]), "+f"(acc[49]),
                   "+f"(acc[50]), "+f"(acc[51]), "+f"(acc[52]), "+f"(acc[53]), "+f"(acc[54]), "+f"(acc[55]),
                   "+f"(acc[56]), "+f"(acc[57]), "+f"(acc[58]), "+f"(acc[59]), "+f"(acc[60]), "+f"(acc[61]),
                   "+f"(acc[62]), "+f"(acc[63])
                 : "l"(a_tile), "l"(b_tile), "r"(1));
#else
    (void)acc, (void)a_tile, (void)b_tile;
    __trap();
#endif
}

/// acc (64 x 256 of C, 128 floats per thread) += A (64 x 16) * B (16 x 256), as above.
__device__ inline void wgmma_64x256x16(float (&acc)[128], uint64_t a_tile, uint64_t b_tile) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile(
        "{\n .reg .pred accumulate;\n setp.ne.b32 accumulate, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
        "%128, %129, accumulate, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]),
          "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]),
          "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]),
          "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]), "+f"(acc[27]),
          "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31]), "+f"(acc[32]), "+f"(acc[33]), "+f"(acc[34]),
          "+f"(acc[35]), "+f"(acc[36]), "+f"(acc[37]), "+f"(acc[38]), "+f"(acc[39]), "+f"(acc[40]), "+f"(acc[41]),
          "+f"(acc[42]), "+f"(acc[43]), "+f"(acc[44]), "+f"(acc[45]), "+f"(acc[46]), "+f"(acc[47]), "+f"(acc[48]),
          "+f"(acc[49]), "+f"(acc[50]), "+f"(acc[51]), "+f"(acc[52]), "+f"(acc[53]), "+f"(acc[54]), "+f"(acc[55]),
          "+f"(acc[56]), "+f"(acc[57]), "+f"(acc[58]), "+f"(acc[59]), "+f"(acc[60]), "+f"(acc[61]), "+f"(acc[62]),
          "+f"(acc[63]), "+f"(acc[64]), "+f"(acc[65]), "+f"(acc[66]), "+f"(acc[67]), "+f"(acc[68]), "+f"(acc[69]),
          "+f"(acc[70]), "+f"(acc[71]), "+f"(acc[72]), "+f"(acc[73]), "+f"(acc[74]), "+f"(acc[75]), "+f"(acc[76]),
          "+f"(acc[77]), "+f"(acc[78]), "+f"(acc[79]), "+f"(acc[80]), "+f"(acc[81]), "+f"(acc[82]), "+f"(acc[83]),
          "+f"(acc[84]), "+f"(acc[85]), "+f"(acc[86]), "+f"(acc[87]), "+f"(acc[88]), "+f"(acc[89]), "+f"(acc[90]),
          "+f"(acc[91]), "+f"(acc[92]), "+f"(acc[93]), "+f"(acc[94]), "+f"(acc[95]), "+f"(acc[96]), "+f"(acc[97]),
          "+f"(acc[98]), "+f"(acc[99]), "+f"(acc[100]), "+f"(acc[101]), "+f"(acc[102]), "+f"(acc[103]), "+f"(acc[104]),
          "+f"(acc[105]), "+f"(acc[106]), "+f"(acc[107]), "+f"(acc[108]), "+f"(acc[109]), "+f"(acc[110]),
          "+f"(acc[111]), "+f"(acc[112]), "+f"(acc[113]), "+f"(acc[114]), "+f"(acc[115]), "+f"(acc[116]),
          "+f"(acc[117]), "+f"(acc[118]), "+f"(acc[119]), "+f"(acc[120]), "+f"(acc[121]), "+f"(acc[122]),
          "+f"(acc[123]), "+f"(acc[124]), "+f"(acc[125]), "+f"(acc[126]), "+f"(acc[127])
        : "l"(a_tile), "l"(b_tile), "r"(1));
#else
    (void)acc, (void)a_tile, (void)b_tile;
    __trap();
#endif
}

/// The wgmma of the accumulators' width: 64 floats per thread hold a 64 x 128 tile of C
/// (wgmma_64x128x16), 128 a 64 x 256 tile (wgmma_64x256x16).
__device__ inline void wgmma_64xNx16(float (&acc)[64], uint64_t a_tile, uint64_t b_tile) {
    wgmma_64x128x16(acc, a_tile, b_tile);
}
__device__ inline void wgmma_64xNx16(float (&acc)[128], uint64_t a_tile, uint64_t b_tile) {
    wgmma_64x256x16(acc, a_tile, b_tile);
}

/// Writes a warpgroup's 64 x `cols` accumulator tile to C (row-major, `ldc` floats per row) at
/// `c_tile`. wgmma's layout (PTX ISA, "Register Fragments" of wgmma with .f32 accumulators): warp w
/// of the warpgroup holds rows 16 w .. 16 w + 15; lane l holds row 16 w + l / 4 and the row 8
/// below it, columns 8 j + 2 (l % 4) and the next one, for j = 0 .. cols / 8 - 1, in the order
/// acc[4 j] (row, col), acc[4 j + 1] (row, col + 1), acc[4 j + 2] (row + 8, col), acc[4 j + 3].
template <int count>
__device__ inline void store_accumulators(const float (&acc)[count], float* c_tile, long ldc) {
    const int thread = threadIdx.x % 128, warp = thread / 32, lane = thread % 32;
    float* row = c_tile + (16 * warp + lane / 4) * ldc + 2 * (lane % 4);
#pragma unroll
    for (int j = 0; j < count / 4; ++j) {
        *reinterpret_cast<float2*>(row + 8 * j) = make_float2(acc[4 * j], acc[4 * j + 1]);
        *reinterpret_cast<float2*>(row + 8 * ldc + 8 * j) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
    }
}
