/// @file pinned_buffer.h
/// @brief Page-locked ("pinned") host memory: the only host memory that cudaMemcpyAsync copies
/// without staging, and so the only kind whose copies can overlap kernels.
#pragma once

#include "wb/cuda_check.h"

#include <cstddef>

namespace wb {

/// Owns `count` elements of pinned host memory (cudaMallocHost / cudaFreeHost).
template <class T>
class PinnedBuffer {
public:
    /// Allocates `count` elements of page-locked host memory.
    explicit PinnedBuffer(std::size_t count) : count_(count) {
        if (count_) WB_CUDA_CHECK(cudaMallocHost(&data_, count_ * sizeof(T)));
    }
    ~PinnedBuffer() {
        if (data_) cudaFreeHost(data_);
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    T* get() const { return data_; }                         ///< the host pointer
    std::size_t count() const { return count_; }             ///< elements
    T& operator[](std::size_t i) const { return data_[i]; }  ///< element i

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace wb
