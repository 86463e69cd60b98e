/// @file attention.h
/// @brief Lesson 16: attention forward, O = softmax(Q K^T / sqrt(d)) V, for batch x heads
/// independent heads; what the driver calls.
///
/// Q, K and V are bf16, O is float (FP32 accumulation); each is batch x heads x seq x head_dim,
/// row-major, one head's seq x head_dim matrix after the other. With `causal`, query i attends
/// to keys 0..i only.
#pragma once

#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;

/// One attention problem on the device.
struct AttentionArgs {
    const bf16* q = nullptr;  ///< queries
    const bf16* k = nullptr;  ///< keys
    const bf16* v = nullptr;  ///< values
    float* o = nullptr;       ///< the output
    int heads = 0;            ///< batch x heads: independent problems, one after the other
    int seq = 0;              ///< queries (and keys) per head
    int head_dim = 0;         ///< d: 64 or 128
    bool causal = false;      ///< query i sees keys 0..i only
    float scale = 0.0f;       ///< 1 / sqrt(d), applied to every score
};

/// Step 2, the exercise: one kernel, S and P never leave the chip (flash_forward.cu).
void launch_flash_forward(const AttentionArgs& args);
/// Step 3, given (read it after the exercise): the same on Hopper's own machinery, TMA, wgmma and a
/// producer warpgroup feeding two consumer warpgroups (hopper_forward.cu, in solutions/). Needs
/// compute capability 9.0 and a build for sm_90a.
void launch_hopper_forward(const AttentionArgs& args);
