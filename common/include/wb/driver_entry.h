/// @file driver_entry.h
/// @brief A function of the CUDA driver API, found through the runtime.
#pragma once

#include "wb/cuda_check.h"

#include <cuda_runtime.h>

namespace wb {

/// The address of the driver API's function `name` in the form of `version` (12000 for CUDA
/// 12.0), or nullptr where this driver lacks it. The runtime hands out the address, so the course
/// links no driver library (libcuda) itself; a failing lookup call ends the program as
/// WB_CUDA_CHECK does. Callers cast it to the PFN_ type of cudaTypedefs.h and say what a missing
/// function means for them.
inline void* driver_entry_point(const char* name, unsigned int version) {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    WB_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &function, version, cudaEnableDefault, &found));
    return found == cudaDriverEntryPointSuccess ? function : nullptr;
}

}  // namespace wb
