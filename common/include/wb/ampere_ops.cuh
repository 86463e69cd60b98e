/// @file ampere_ops.cuh
/// @brief Instructions of compute capability 8.0 that several lessons' kernels use, each wrapped
/// once: the BF16 tensor-core product of one 16 x 16 by 16 x 8 fragment (mma.sync), registers of
/// two bf16, and copies from global to shared memory that do not pass through registers (cp.async).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace wb {

// A build for a GPU older than 8.0 compiles these helpers to a trap; the drivers never launch the
// kernels that use them there.
#if __CUDA_ARCH__ >= 800 || !defined(__CUDA_ARCH__)
#define WB_AMPERE_OPS_AVAILABLE 1
#endif

/// d += a * b on one 16 x 8 fragment (mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32).
/// With g = lane / 4 and t = lane % 4, each 32-bit register holds two neighbouring bf16 along k
/// (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"):
///   a[0]: A(g, 2t..2t+1)  a[1]: A(g+8, 2t..)  a[2]: A(g, 2t+8..)  a[3]: A(g+8, 2t+8..)
///   b[0]: B(2t..2t+1, g)  b[1]: B(2t+8..2t+9, g)
///   d[0..1]: D(g, 2t..2t+1)  d[2..3]: D(g+8, 2t..2t+1)
__device__ inline void mma_16x8x16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
#ifdef WB_AMPERE_OPS_AVAILABLE
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

/// Two neighbouring bf16 (row[i], row[i + 1], i even) as one 32-bit register.
__device__ inline uint32_t bf16_pair(const __nv_bfloat16* row, int i) {
    return *reinterpret_cast<const uint32_t*>(row + i);
}

/// Two bf16 from different places (lo in the low half, as bf16_pair puts row[i]).
__device__ inline uint32_t bf16_pair(__nv_bfloat16 lo, __nv_bfloat16 hi) {
    return static_cast<uint32_t>(__bfloat16_as_ushort(lo)) | static_cast<uint32_t>(__bfloat16_as_ushort(hi)) << 16;
}

/// Two floats rounded to bf16, lo in the low half.
__device__ inline uint32_t bf16_pair(float lo, float hi) {
    return bf16_pair(__float2bfloat16_rn(lo), __float2bfloat16_rn(hi));
}

/// Starts copying 16 bytes (16-byte aligned on both sides) from global to shared memory. The
/// "memory" clobbers keep the compiler from moving shared-memory reads across copies and waits.
__device__ inline void copy_async_16(void* shared_dst, const void* global_src) {
#ifdef WB_AMPERE_OPS_AVAILABLE
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
#else
    (void)shared_dst, (void)global_src;
    __trap();
#endif
}

/// Starts copying 8 bytes (8-byte aligned on both sides) from global to shared memory. Copies
/// of 8 bytes go through the L1 cache (`.ca`): the bypassing form (`.cg`) takes only 16-byte
/// copies (PTX ISA, cp.async).
__device__ inline void copy_async_8(void* shared_dst, const void* global_src) {
#ifdef WB_AMPERE_OPS_AVAILABLE
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(dst), "l"(global_src) : "memory");
#else
    (void)shared_dst, (void)global_src;
    __trap();
#endif
}

/// Closes this thread's current group of copies (an empty group is allowed).
__device__ inline void commit_copies() {
#ifdef WB_AMPERE_OPS_AVAILABLE
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `pending` groups of this thread's copies are still in flight.
template <int pending>
__device__ inline void wait_copies() {
#ifdef WB_AMPERE_OPS_AVAILABLE
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
#endif
}

}  // namespace wb
