// Lesson 14, going further: a thread's consecutive elements read and written 16 bytes at a
// time (four 32-bit values per load or store), element by element at the input's end.
#pragma once

#include <type_traits>

template <class T>
using Vector4 = std::conditional_t<std::is_same_v<T, float>, float4, int4>;

/// items[k] = in[first + k] for k < kCount (`fill` past n). kCount is a multiple of 4 and
/// `first` a multiple of kCount, so whole vectors are 16-byte aligned.
template <class T, int kCount>
__device__ inline void load_items(const T* __restrict__ in, long long n, long long first, T (&items)[kCount], T fill) {
    static_assert(kCount % 4 == 0 && sizeof(T) == 4, "whole 16-byte vectors of 32-bit values");
    if (first + kCount <= n) {
        const Vector4<T>* vectors = reinterpret_cast<const Vector4<T>*>(in + first);
#pragma unroll
        for (int v = 0; v < kCount / 4; ++v) {
            const Vector4<T> four = vectors[v];
            items[4 * v] = four.x;
            items[4 * v + 1] = four.y;
            items[4 * v + 2] = four.z;
            items[4 * v + 3] = four.w;
        }
    } else {
#pragma unroll
        for (int k = 0; k < kCount; ++k) items[k] = first + k < n ? in[first + k] : fill;
    }
}

/// out[first + k] = items[k] for k < kCount and first + k < n.
template <class T, int kCount>
__device__ inline void store_items(T* __restrict__ out, long long n, long long first, const T (&items)[kCount]) {
    if (first + kCount <= n) {
        Vector4<T>* vectors = reinterpret_cast<Vector4<T>*>(out + first);
#pragma unroll
        for (int v = 0; v < kCount / 4; ++v)
            vectors[v] = Vector4<T>{items[4 * v], items[4 * v + 1], items[4 * v + 2], items[4 * v + 3]};
    } else {
#pragma unroll
        for (int k = 0; k < kCount; ++k)
            if (first + k < n) out[first + k] = items[k];
    }
}
