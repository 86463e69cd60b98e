/// @file unfused.h
/// @brief Lesson 16, step 1 (given): attention in three passes over device memory. cuBLAS writes the
/// scores S = Q K^T (FP32), a row-softmax kernel reads them and writes P (bf16), and cuBLAS writes
/// O = P V: the S x S scores of every head go to device memory and back, which the fused kernel avoids.
#pragma once

#include "attention.h"

#include "wb/device_buffer.h"

#include <cstddef>

/// The unfused attention, with its scores and probabilities kept between calls (they grow to the
/// largest problem run).
class UnfusedAttention {
public:
    /// O of `args` (cuBLAS, softmax, cuBLAS, queued on the default stream).
    void run(const AttentionArgs& args);
    /// Device bytes of the scores and probabilities of `heads` heads of `seq` queries.
    static std::size_t workspace_bytes(int heads, int seq);

private:
    wb::DeviceBuffer<float> scores_;
    wb::DeviceBuffer<bf16> probabilities_;
};
