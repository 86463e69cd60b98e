// Lesson 13: cuBLASLt's BF16 GEMM with candidate algorithms, the benchmark's second ceiling
// (see harness/cublaslt_gemm.h).
#include "harness/cublaslt_gemm.h"

#include "wb/exit_codes.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

void lt_check(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    std::fprintf(stderr, "cuBLASLt error at %s:%d\n  %s\n  -> %s (%s)\n", file, line, call,
                 cublasLtGetStatusName(status), cublasLtGetStatusString(status));
    std::exit(wb::kExitCudaError);
}
#define WB_CUBLASLT_CHECK(call) lt_check((call), #call, __FILE__, __LINE__)

template <class T>
void set_attribute(cublasLtMatmulDesc_t description, cublasLtMatmulDescAttributes_t attribute, const T& value,
                   const char* what) {
    lt_check(cublasLtMatmulDescSetAttribute(description, attribute, &value, sizeof value), what, __FILE__, __LINE__);
}

}  // namespace

LtGemm::LtGemm(const __nv_bfloat16* a, const __nv_bfloat16* bt, float* c, int m, int n, int k)
    : a_(a), bt_(bt), c_(c), workspace_(kWorkspaceBytes) {
    // As the cublasGemmEx ceiling: row-major C (m x n) is column-major C^T (n x m) = op(Bt) A^T,
    // where Bt (row-major n x k) is column-major k x n, transposed by the operation, and A
    // (row-major m x k) is column-major k x m, taken as it is. bf16 in, FP32 compute, float C.
    WB_CUBLASLT_CHECK(cublasLtCreate(&handle_));
    WB_CUBLASLT_CHECK(cublasLtMatmulDescCreate(&operation_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    set_attribute(operation_, CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_T, "TRANSA = CUBLAS_OP_T");
    set_attribute(operation_, CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N, "TRANSB = CUBLAS_OP_N");
    WB_CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&bt_layout_, CUDA_R_16BF, k, n, k));
    WB_CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&a_layout_, CUDA_R_16BF, k, m, k));
    WB_CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&c_layout_, CUDA_R_32F, n, m, n));

    cublasLtMatmulPreference_t preference = nullptr;
    WB_CUBLASLT_CHECK(cublasLtMatmulPreferenceCreate(&preference));
    const std::size_t workspace_bytes = kWorkspaceBytes;
    WB_CUBLASLT_CHECK(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                           &workspace_bytes, sizeof workspace_bytes));
    std::vector<cublasLtMatmulHeuristicResult_t> results(kMaxAlgorithms);
    int returned = 0;
    const cublasStatus_t status =
        cublasLtMatmulAlgoGetHeuristic(handle_, operation_, bt_layout_, a_layout_, c_layout_, c_layout_, preference,
                                       kMaxAlgorithms, results.data(), &returned);
    WB_CUBLASLT_CHECK(cublasLtMatmulPreferenceDestroy(preference));
    // "Not supported" means no algorithm for this product here: the benchmark goes on without
    // this ceiling and says so. Any other failure is an error.
    if (status == CUBLAS_STATUS_NOT_SUPPORTED) return;
    WB_CUBLASLT_CHECK(status);
    returned_ = returned;
    for (int i = 0; i < returned; ++i)
        if (results[i].state == CUBLAS_STATUS_SUCCESS && results[i].workspaceSize <= kWorkspaceBytes) {
            candidates_.push_back(results[i]);
            heuristic_index_.push_back(i);
        }
}

LtGemm::~LtGemm() {
    // Destroying cannot fail in a way the benchmark could act on; the statuses are ignored here.
    if (c_layout_) cublasLtMatrixLayoutDestroy(c_layout_);
    if (a_layout_) cublasLtMatrixLayoutDestroy(a_layout_);
    if (bt_layout_) cublasLtMatrixLayoutDestroy(bt_layout_);
    if (operation_) cublasLtMatmulDescDestroy(operation_);
    if (handle_) cublasLtDestroy(handle_);
}

void LtGemm::run(int index) const {
    const float one = 1.0f, zero = 0.0f;
    WB_CUBLASLT_CHECK(cublasLtMatmul(handle_, operation_, &one, bt_, bt_layout_, a_, a_layout_, &zero, c_, c_layout_,
                                     c_, c_layout_, &candidates_.at(index).algo, workspace_.get(), kWorkspaceBytes,
                                     nullptr));
}

std::string LtGemm::describe(int index) const {
    const cublasLtMatmulAlgo_t& algo = candidates_.at(index).algo;
    int id = -1;
    std::uint32_t tile = 0;
    std::size_t written = 0;
    WB_CUBLASLT_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written));
    WB_CUBLASLT_CHECK(
        cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &written));
    return "heuristic index " + std::to_string(heuristic_index_.at(index)) + " of " + std::to_string(returned_) +
           ", algorithm id " + std::to_string(id) + ", tile id " + std::to_string(tile);
}
