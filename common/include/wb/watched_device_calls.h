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
