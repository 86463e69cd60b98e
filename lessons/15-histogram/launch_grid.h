/// @file launch_grid.h
/// @brief Lesson 15: the grid of a grid-stride kernel, shared by every version.
#pragma once

#include "wb/cuda_check.h"
#include "wb/device.h"

#include <algorithm>
#include <cstddef>

/// As many blocks of `threads` as stay resident together on the GPU (the occupancy calculator,
/// with `shared_bytes` of dynamic shared memory each), but no more than `count` items need at
/// `items_per_thread` per thread: a grid-stride loop then has no block without work.
template <class Kernel>
int resident_grid(Kernel kernel, int threads, std::size_t shared_bytes, long long count, int items_per_thread = 1) {
    const int sms = wb::multiprocessor_count();  // fewer under WB_SM_LIMIT (wb/sm_limit.h)
    int per_sm = 0;
    WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
    const long long per_block = static_cast<long long>(threads) * items_per_thread;
    const long long needed = (count + per_block - 1) / per_block;
    const long long resident = static_cast<long long>(sms) * std::max(per_sm, 1);
    return static_cast<int>(std::max(1LL, std::min(needed, resident)));
}

/// The most dynamic shared memory one block may have on this GPU (after opting in).
inline std::size_t shared_bytes_per_block() {
    int device = 0, bytes = 0;
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return static_cast<std::size_t>(bytes);
}

/// Lets `kernel` use `bytes` of dynamic shared memory (above 48 KiB a kernel must ask for it).
template <class Kernel>
void allow_shared_bytes(Kernel kernel, std::size_t bytes) {
    WB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}
