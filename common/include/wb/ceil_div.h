/// @file ceil_div.h
/// @brief Integer division rounded up, in host and device code (any source: outside nvcc
/// __host__ and __device__ are empty).
#pragma once

#include <cuda_runtime.h>

namespace wb {

/// `count / parts` rounded up (count >= 0, parts > 0): the length of each of `parts` chunks that
/// together cover `count` elements, or the number of blocks of `parts` threads for `count` threads.
template <class T>
__host__ __device__ constexpr T ceil_div(T count, T parts) {
    return (count + parts - 1) / parts;
}

}  // namespace wb
