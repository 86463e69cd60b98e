/// @file register_array.h
/// @brief A thread's small array meant for registers, whose index is checked where it costs nothing.
#pragma once

namespace wb {

/// A fixed-size array of one thread's values, meant to live in registers. Indexed by constants
/// (the loops over it are unrolled), it compiles to registers as a plain array does and the range
/// test folds away. An index past the end, which in a plain array is undefined behaviour that the
/// compiler may silently delete (a loop bound written `<=` then passes every check), stops the
/// kernel here with a trap instead, and the check reports the fault.
template <class T, int N>
struct RegisterArray {
    T values[N];  ///< the elements: `RegisterArray<T, N> x = {};` sets them to zero

    /// Element `i` (0 <= i < N); a trap outside that range.
    __device__ __forceinline__ T& operator[](int i) {
        if (i < 0 || i >= N) __trap();
        return values[i];
    }

    /// Element `i` (0 <= i < N), read-only; a trap outside that range.
    __device__ __forceinline__ const T& operator[](int i) const {
        if (i < 0 || i >= N) __trap();
        return values[i];
    }
};

}  // namespace wb
