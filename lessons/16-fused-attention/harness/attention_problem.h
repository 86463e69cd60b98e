/// @file attention_problem.h
/// @brief Lesson 16 harness: the attention problems of the check and the benchmark, their inputs
/// (bf16, with rows of large logits), the reference in double precision on the CPU with the error
/// each output may carry, and one run of a version compared with it.
#pragma once

#include "attention.h"

#include "wb/device_buffer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// The size of one attention problem.
struct AttentionShape {
    int batch = 1, heads = 1, seq = 1, head_dim = 64;
    bool causal = false;
    /// Independent heads: batch x heads.
    int problems() const { return batch * heads; }
    /// Elements of Q (and of K, V and O).
    long elements() const { return static_cast<long>(problems()) * seq * head_dim; }
    /// Floating-point operations of one forward pass: 4 B H S^2 d (two products of 2 S^2 d each),
    /// halved with causal (half the scores are masked).
    double flops() const { return 4.0 * problems() * seq * static_cast<double>(seq) * head_dim / (causal ? 2 : 1); }
    /// e.g. "B2 H8 S1000 d64 causal"
    std::string str() const;
};

/// Every seventh query (3, 10, 17 ...) of each head is 64 times its own key: its score against that
/// key is far above the others (about 170 for d = 64), exp() of it overflows a float, and with causal
/// that key comes last, so the running max jumps in the last tile.
bool large_logit_row(int query);

/// Inputs uniform in [-1, 1) rounded to bf16 (the float copies hold the same values), with the
/// large-logit rows above.
struct AttentionProblem {
    AttentionShape shape;
    std::vector<float> q, k, v;  ///< the bf16 values, as floats (for the reference)
};
AttentionProblem make_problem(const AttentionShape& shape, std::uint64_t seed);

/// O computed in double precision, and the error each element of a version's O may carry.
struct Reference {
    std::vector<double> o;
    std::vector<double> bound;
};
/// The reference of `problem`, computed on every CPU core.
Reference reference_attention(const AttentionProblem& problem);

/// A problem's inputs and output on the device.
struct DeviceAttention {
    wb::DeviceBuffer<bf16> q, k, v;
    wb::DeviceBuffer<float> o;
    AttentionArgs args;
    /// Uploads the inputs; O is allocated, not written.
    DeviceAttention(const AttentionProblem& problem);
};

/// Device bytes of a DeviceAttention of `shape`.
std::size_t device_bytes(const AttentionShape& shape);

/// How the driver runs a version.
using Run = std::function<void(const AttentionArgs&)>;

/// Runs one version with O poisoned first, waits for it (a kernel that does not finish within the
/// check's limit, or faults, ends the check as FAILED), compares O with the reference and prints
/// the report, and for a wrong one the likely cause. True when every element is within its bound.
bool check_version(const std::string& name, const Run& run, DeviceAttention& device, const AttentionProblem& problem,
                   const Reference& reference);
