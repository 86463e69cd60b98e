/// @file hopper_ops.cuh
/// @brief Instructions of compute capability 9.0 (sm_90a) that several lessons' kernels use, each
/// wrapped once: mbarriers, TMA tile loads, setmaxnreg, and warpgroup MMA (wgmma) with its
/// shared-memory descriptors and fragment layouts.
///
/// Every function names the PTX instruction it issues, so the PTX ISA manual ("Parallel
/// Synchronization and Communication Instructions: mbarrier", "Data Movement:
/// cp.async.bulk.tensor", "Warpgroup MMA") tells the rest.
///
/// wgmma and setmaxnreg exist only in the architecture-specific target sm_90a (the lessons that use
/// them build compute capability 9.0 as 90a). A build without it compiles these helpers to a trap,
/// and the drivers do not launch the kernels that use them.
#pragma once

#include <cuda.h>  // CUtensorMap (the type only: nothing from the driver library is called here)
#include <cuda_bf16.h>

#include <cstdint>

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
#define WB_HOPPER_AVAILABLE 1
#endif

namespace wb {

// ---- shared-memory addresses ------------------------------------------------------------

/// The 32-bit shared-memory address that PTX instructions take for a pointer into shared memory.
__device__ inline uint32_t shared_address(const void* pointer) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

/// `shared` rounded up to a multiple of 1024 bytes: the 128-byte swizzle repeats every 1024
/// bytes, so every tile TMA writes with it must start on such a boundary (kernels reserve 1024
/// bytes more dynamic shared memory than their tiles need, for this).
__device__ inline uint8_t* align_to_1024(uint8_t* shared) {
    return shared + (1024 - shared_address(shared) % 1024) % 1024;
}

// ---- registers between warpgroups -------------------------------------------------------

/// Lowers this warpgroup's registers per thread to `count` (setmaxnreg.dec), returning the rest
/// to the multiprocessor's pool. All threads of the warpgroup must call it together.
template <int count>
__device__ inline void release_registers() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(count));
#endif
}

/// Raises this warpgroup's registers per thread to `count` (setmaxnreg.inc), taking them from
/// the pool (waiting until other warpgroups have released enough).
template <int count>
__device__ inline void claim_registers() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(count));
#endif
}

// ---- mbarriers --------------------------------------------------------------------------
// An mbarrier is a 64-bit object in shared memory that counts arrivals. It completes a phase
// when the expected number of threads have arrived *and* the bytes it was told to expect have
// landed; then it starts the next phase. Phases alternate parity 0, 1, 0, 1 ...: a thread waits
// for "the phase with parity p has completed".

/// Prepares a barrier that completes a phase after `arrivals` arrivals (one thread calls this).
__device__ inline void init_barrier(uint64_t* barrier, uint32_t arrivals) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
#else
    (void)barrier, (void)arrivals;
    __trap();
#endif
}

/// Makes freshly initialised barriers visible to the TMA unit (the "async proxy") before it
/// signals them. Call once, by the initialising thread, before the block synchronises.
__device__ inline void publish_barrier_init() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Arrives on the barrier and tells it that `bytes` more bytes will land this phase (the TMA
/// loads that signal it): the phase completes only when they have.
__device__ inline void arrive_expecting_bytes(uint64_t* barrier, uint32_t bytes) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(bytes)
                 : "memory");
#else
    (void)barrier, (void)bytes;
#endif
}

/// Arrives on the barrier (one of the arrivals its phase waits for).
__device__ inline void arrive(uint64_t* barrier) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier)) : "memory");
#else
    (void)barrier;
#endif
}

/// True when the barrier's phase of parity `parity` has completed (does not block for long).
__device__ inline bool phase_completed(uint64_t* barrier, uint32_t parity) {
    uint32_t done = 1;
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(shared_address(barrier)), "r"(parity)
                 : "memory");
#else
    (void)barrier, (void)parity;
#endif
    return done != 0;
}

/// Waits until the barrier's phase of parity `parity` has completed. A pipeline bug can make a
/// thread wait for a phase that nobody will ever complete: the kernel then never ends. The
/// driver's check waits a few seconds for each kernel and reports such a deadlock (the kernels
/// carry no timer of their own: a spin loop this small keeps the consumers fast).
__device__ inline void wait_for_phase(uint64_t* barrier, uint32_t parity) {
    while (!phase_completed(barrier, parity)) {
    }
}

// ---- TMA: tile loads by the Tensor Memory Accelerator ---------------------------------------

/// One thread asks the TMA unit to copy the tile of `map` whose corner is (row, column k) into
/// shared memory at `destination` (1024-byte aligned for the 128-byte swizzle). The copy runs in
/// the background and counts its bytes on `barrier` when they land. The tile's size and the
/// swizzle were fixed when the host built the map (wb/tensor_maps.h).
__device__ inline void load_tile(void* destination, const CUtensorMap* map, uint64_t* barrier, int k, int row) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::
            "r"(shared_address(destination)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(shared_address(barrier)), "r"(k), "r"(row)
        : "memory");
#else
    (void)destination, (void)map, (void)barrier, (void)k, (void)row;
    __trap();
#endif
}

// ---- wgmma: a warpgroup's matrix multiply-add --------------------------------------------
// Four consecutive warps (a warpgroup, 128 threads) issue one wgmma together. It multiplies a
// 64 x 16 tile of A by a 16 x N tile of B, B read from shared memory through a descriptor, A too
// or taken from registers, and adds the product to a 64 x N tile of C held in registers: N/2 floats per thread. It runs
// asynchronously: wgmma_commit() closes a group of issued wgmmas and wgmma_wait<n>() waits until
// at most n groups are still running. Registers that a running wgmma uses must not be touched.

/// Orders earlier register writes before the wgmmas that follow (once before a batch).
__device__ inline void wgmma_fence() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

/// Closes the group of wgmmas issued since the last commit.
__device__ inline void wgmma_commit() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

/// Waits until at most `pending` groups of this warpgroup's wgmmas are still running.
template <int pending>
__device__ inline void wgmma_wait() {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(pending) : "memory");
#endif
}

/// Tells the compiler that the wgmmas may have changed the accumulators: it must not keep
/// copies of them in other registers or move reads of them across this point.
template <int count>
__device__ inline void accumulators_in_use(float (&acc)[count]) {
#pragma unroll
    for (int i = 0; i < count; ++i) asm volatile("" : "+f"(acc[i])::"memory");
}

/// The descriptor of a tile in shared memory that TMA wrote with the 128-byte swizzle: rows of
/// 64 bf16 (128 bytes, the k direction), in groups of 8 rows (1024 bytes). PTX ISA, "Matrix
/// Descriptor Format": bits 0-13 the start address / 16, bits 16-29 the leading-dimension byte
/// offset / 16 (not used by this layout; 1 by convention), bits 32-45 the stride byte offset /
/// 16 (1024 bytes from one group of 8 rows to the next), bits 62-63 the swizzle mode (1 = 128
/// bytes). A slice 16 deep in k starts 32 bytes further along the row: pass `tile + 16 * s`.
///
/// The same descriptor serves a B tile read "MN-major", with the wgmma's transpose flag for B set
/// (allowed for bf16): a tile of rows of k, each 64 bf16 of n long (128 bytes), which wgmma takes
/// as a 16 x 64 B operand without anyone transposing it (lesson 16's V: rows of keys, d along
/// them). In the canonical MN-major layout with the 128-byte swizzle (CUTLASS's GMMA descriptors
/// write it, in 16-byte units, as Swizzle<3,4,3> o ((8,n),(8,k)):((1,LBO),(8,SBO))), 8 rows of k
/// are again 1024 bytes and the stride byte offset steps from one group of 8 rows of k to the
/// next (1024); the leading byte offset would step from one 64-wide group of n to the next, and
/// is unused when n is 64. Rows 16 s .. 16 s + 15 of k start 2048 s bytes further: pass
/// `tile + 16 * 64 * s`.
__device__ inline uint64_t tile_descriptor(const __nv_bfloat16* tile) {
    const uint64_t address = shared_address(tile);
    uint64_t descriptor = (address & 0x3FFFF) >> 4;
    descriptor |= uint64_t(1) << 16;
    descriptor |= uint64_t(1024 >> 4) << 32;
    descriptor |= uint64_t(1) << 62;
    return descriptor;
}

// The 64 x N accumulator tile of a wgmma with .f32 accumulators (PTX ISA, "Register Fragments"
// of wgmma, matrix D): warp w of the warpgroup holds rows 16 w .. 16 w + 15; with g = lane / 4
// and t = lane % 4, thread (w, lane) holds rows r = 16 w + g and r + 8, columns 8 j + 2 t and
// 8 j + 2 t + 1 for j = 0 .. N / 8 - 1: acc[4 j] = (r, 8 j + 2 t), acc[4 j + 1] = (r, 8 j + 2 t + 1),
// acc[4 j + 2] = (r + 8, 8 j + 2 t), acc[4 j + 3] = (r + 8, 8 j + 2 t + 1).
//
// A 64 x 16 A operand in registers (PTX ISA, "Register Fragments" of wgmma, matrix A, .bf16):
// warp w holds rows 16 w .. 16 w + 15, each thread four registers of two bf16 (the lower column
// in the low half), as mma.m16n8k16's A fragment: a[0] = (r, 2 t .. 2 t + 1), a[1] = (r + 8,
// 2 t ..), a[2] = (r, 2 t + 8 ..), a[3] = (r + 8, 2 t + 8 ..). Columns 16 s .. 16 s + 15 of an
// accumulator tile are therefore, rounded to bf16 pairwise, such an operand as they lie:
// a[0] = (acc[8 s], acc[8 s + 1]), a[1] = (acc[8 s + 2], acc[8 s + 3]), a[2] = (acc[8 s + 4],
// acc[8 s + 5]), a[3] = (acc[8 s + 6], acc[8 s + 7]).

/// acc (64 x 64, 32 floats per thread) += A (64 x 16) * B (16 x 64), both from shared memory
/// and K-major (tile_descriptor()), as wgmma_64x128x16 of lesson 13.
__device__ inline void wgmma_64x64x16(float (&acc)[32], uint64_t a_tile, uint64_t b_tile) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("{\n .reg .pred accumulate;\n setp.ne.b32 accumulate, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
                 "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, accumulate, 1, 1, 0, 0;\n"
                 "}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]),
                   "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]),
                   "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]),
                   "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]),
                   "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
                 : "l"(a_tile), "l"(b_tile), "r"(1));
#else
    (void)acc, (void)a_tile, (void)b_tile;
    __trap();
#endif
}

/// acc (64 x 64, 32 floats per thread) += A (64 x 16, in registers, the layout above) * B (16 x 64)
/// from shared memory, MN-major (tile_descriptor() of its rows of k). The operands after B's descriptor:
/// `accumulate`, the scales of A and B (1), and B's transpose flag (1: MN-major); A in registers
/// has no transpose flag.
__device__ inline void wgmma_64x64x16_a_in_registers(float (&acc)[32], const uint32_t (&a)[4], uint64_t b_tile) {
#ifdef WB_HOPPER_AVAILABLE
    asm volatile("{\n .reg .pred accumulate;\n setp.ne.b32 accumulate, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
                 "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "{%32, %33, %34, %35}, %36, accumulate, 1, 1, 1;\n"
                 "}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]),
                   "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]), "+f"(acc[12]), "+f"(acc[13]),
                   "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]), "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]),
                   "+f"(acc[20]), "+f"(acc[21]), "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]),
                   "+f"(acc[26]), "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_tile), "r"(1));
#else
    (void)acc, (void)a, (void)b_tile;
    __trap();
#endif
}

}  // namespace wb
