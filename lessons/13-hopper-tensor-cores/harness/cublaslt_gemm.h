/// @file cublaslt_gemm.h
/// @brief Lesson 13: the benchmark's second ceiling, cuBLASLt's BF16 GEMM. cublasGemmEx runs
/// the algorithm cuBLAS picks by default; cuBLASLt lists several candidates for the same product
/// (its heuristic), and the benchmark times each one and keeps the fastest, so that a kernel is
/// compared with the best the library offers on this GPU, not with one default choice.
#pragma once

#include "wb/device_buffer.h"

#include <cublasLt.h>
#include <cuda_bf16.h>

#include <cstddef>
#include <string>
#include <vector>

/// C = A * B as the lesson's kernels compute it (A m x k and Bt n x k row-major, bf16; C m x n
/// row-major, float; FP32 accumulation) through cublasLtMatmul: the same "TN" product, types and
/// operand order as the cublasGemmEx ceiling. Holds the handle, the descriptors, a workspace of
/// kWorkspaceBytes and up to kMaxAlgorithms candidates from cublasLtMatmulAlgoGetHeuristic. A
/// failed cuBLASLt call prints the call and its status and exits with code 3.
class LtGemm {
public:
    static constexpr int kMaxAlgorithms = 8;                               ///< candidates asked for
    static constexpr std::size_t kWorkspaceBytes = std::size_t(64) << 20;  ///< 64 MiB

    /// Describes the product and asks the heuristic for candidates (the pointers are kept).
    LtGemm(const __nv_bfloat16* a, const __nv_bfloat16* bt, float* c, int m, int n, int k);
    ~LtGemm();
    LtGemm(const LtGemm&) = delete;
    LtGemm& operator=(const LtGemm&) = delete;

    /// How many candidates the heuristic returned (0: none for this product on this GPU).
    int algorithms() const { return static_cast<int>(candidates_.size()); }
    /// Enqueues candidate `index` on the default stream; does not wait.
    void run(int index) const;
    /// Names candidate `index` by its index among the heuristic's results (0 is the one the
    /// heuristic ranks first): "heuristic index 3 of 8, algorithm id 31, tile id 18".
    std::string describe(int index) const;

private:
    const __nv_bfloat16* a_;
    const __nv_bfloat16* bt_;
    float* c_;
    cublasLtHandle_t handle_ = nullptr;
    cublasLtMatmulDesc_t operation_ = nullptr;
    cublasLtMatrixLayout_t bt_layout_ = nullptr, a_layout_ = nullptr, c_layout_ = nullptr;
    wb::DeviceBuffer<unsigned char> workspace_;
    std::vector<cublasLtMatmulHeuristicResult_t> candidates_;  // the usable results, in the heuristic's order
    std::vector<int> heuristic_index_;                         // each one's index among all results
    int returned_ = 0;                                         // how many results the heuristic returned
};
