// Included first in every file of a lesson that checks what its exercise does on the device
// (nvcc --pre-include, see workbook_watch_device_calls in common/cmake/Workbook.cmake).
//
// Fresh device memory often comes back zeroed, so a program that forgets to fill or zero-fill
// memory can pass by luck: here, in check mode, every cudaMalloc and cudaMallocPitch fills the
// new block with 0xFF bytes (a NaN in every double and float) before the caller sees it. The calls keep their
// signatures and error codes, and are recorded, with every cudaFree, so that the check can tell
// a leak (wb/device_call_watch.h).
//
// Launches: with __NV_LEGACY_LAUNCH (given to the host compiler by the same CMake function) the
// code nvcc generates for kernel<<<grid, block, shared, stream>>> calls cudaLaunchKernel with the
// kernel as a char pointer; the overload below is the better match, records the launch's shape,
// then launches through the runtime as usual.
//
// Barriers: with WB_COUNT_BARRIERS (workbook_watch_device_calls(COUNT_BARRIERS)) every
// __syncthreads() of the file also counts, once per block, the barriers passed while a check runs,
// so that a check can tell a loop that makes more phases (or fewer barriers) than the data needs:
// a phase that only adds zeros leaves every result right and only costs time.
#pragma once

#include "wb/device_call_watch.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace wb::detail {

/// Marks this program as watched once (a static object per file that includes this header).
struct WatchedFile {
    WatchedFile() { watch_compiled_in(); }
};
static const WatchedFile watched_file;  ///< this file's mark

/// cudaMalloc, then (in check mode) the new block filled with 0xFF bytes, then recorded.
template <class T>
cudaError_t malloc_watched(T** pointer, std::size_t bytes) {
    cudaError_t status = ::cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
    if (status == cudaSuccess && bytes && poisoning_allocations()) status = ::cudaMemset(*pointer, 0xFF, bytes);
    if (status == cudaSuccess) note_allocation(*pointer, bytes);
    return status;
}

/// cudaMallocPitch, then (in check mode) the new block filled with 0xFF bytes, then recorded.
template <class T>
cudaError_t malloc_pitch_watched(T** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
    cudaError_t status = ::cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width, height);
    if (status == cudaSuccess && width && height && poisoning_allocations())
        status = ::cudaMemset2D(*pointer, *pitch, 0xFF, width, height);
    if (status == cudaSuccess) note_allocation(*pointer, *pitch * height);
    return status;
}

/// cudaFree, then the allocation's record dropped.
inline cudaError_t free_watched(void* pointer) {
    const cudaError_t status = ::cudaFree(pointer);
    if (status == cudaSuccess && pointer) note_free(pointer);
    return status;
}

}  // namespace wb::detail

#if defined(WB_COUNT_BARRIERS) && defined(__CUDACC__)
namespace wb::detail {

static __device__ unsigned long long barriers_passed;  ///< this file's count, by thread 0 of each block
static __constant__ int counting_barriers;             ///< set while a check runs (constant: the
                                                       ///< kernel reads it once, not per barrier)

/// __syncthreads(), then one count per block while counting is on.
static __device__ __forceinline__ void counted_syncthreads() {
    (__syncthreads)();  // the parentheses call the real barrier, not this file's macro
    if (counting_barriers && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        atomicAdd(&barriers_passed, 1ULL);
}

/// This file's count into *count, then the count set to zero and counting turned on.
static cudaError_t take_barrier_count(unsigned long long* count) {
    const unsigned long long zero = 0;
    const int on = 1;
    cudaError_t status = cudaMemcpyFromSymbol(count, barriers_passed, sizeof *count);
    if (status == cudaSuccess) status = cudaMemcpyToSymbol(barriers_passed, &zero, sizeof zero);
    if (status == cudaSuccess) status = cudaMemcpyToSymbol(counting_barriers, &on, sizeof on);
    return status;
}

/// Registers this file's counter once (a static object per file that includes this header).
struct BarrierCountedFile {
    BarrierCountedFile() { note_barrier_counter(&take_barrier_count); }
};
static const BarrierCountedFile barrier_counted_file;  ///< this file's registration

}  // namespace wb::detail

#define __syncthreads() wb::detail::counted_syncthreads()
#endif

#if defined(__NV_LEGACY_LAUNCH)
// grid and block by non-const reference: the launch code passes variables, and a placeholder call
// nvcc writes for kernel templates, cudaLaunchKernel(0, 0, 0, 0, 0, 0), still finds only the
// runtime's own function.
static inline cudaError_t cudaLaunchKernel(char* kernel, dim3& grid, dim3& block, void** args, std::size_t shared_bytes,
                                           cudaStream_t stream) {
    wb::detail::note_launch(kernel, grid, block, shared_bytes);
    return ::cudaLaunchKernel(static_cast<const void*>(kernel), grid, block, args, shared_bytes, stream);
}
#endif

#define cudaMalloc wb::detail::malloc_watched
#define cudaMallocPitch wb::detail::malloc_pitch_watched
#define cudaFree wb::detail::free_watched
