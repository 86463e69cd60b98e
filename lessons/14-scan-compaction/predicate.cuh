/// @file predicate.cuh
/// @brief Lesson 14: the compaction's predicate, the same on the GPU and in the CPU reference.
#pragma once

#include "scan.h"

#include <type_traits>

/// True when `keep` keeps x: always, never, or for about half the elements (even integers,
/// positive floats).
template <class T>
__host__ __device__ inline bool keeps(T x, Keep keep) {
    if (keep == Keep::all) return true;
    if (keep == Keep::none) return false;
    if constexpr (std::is_integral_v<T>) {
        return (x & 1) == 0;  // integers
    } else {
        return x > T(0);  // floats
    }
}
