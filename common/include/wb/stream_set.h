/// @file stream_set.h
/// @brief Several streams with one owner, and their handles in one array, as a function that
/// spreads work over streams takes them (const cudaStream_t* streams, int count).
#pragma once

#include "wb/cuda_graph.h"

#include <cuda_runtime.h>

#include <memory>
#include <vector>

namespace wb {

/// `count` non-blocking streams (wb::Stream), created together and destroyed with their owner.
class StreamSet {
public:
    /// Creates the streams.
    explicit StreamSet(int count) {
        for (int s = 0; s < count; ++s) {
            owned_.push_back(std::make_unique<Stream>());
            handles_.push_back(owned_.back()->get());
        }
    }
    const cudaStream_t* data() const { return handles_.data(); }    ///< the handles, in order
    cudaStream_t operator[](int s) const { return handles_[s]; }    ///< stream s
    int size() const { return static_cast<int>(handles_.size()); }  ///< how many

private:
    std::vector<std::unique_ptr<Stream>> owned_;  // a Stream cannot move: each has its own place
    std::vector<cudaStream_t> handles_;
};

}  // namespace wb
