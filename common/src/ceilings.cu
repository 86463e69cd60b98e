#include "wb/ceilings.h"

#include "wb/cuda_check.h"
#include "wb/roofs.h"

#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace wb {

namespace {

void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    std::fprintf(stderr, "cuBLAS error at %s:%d\n  %s\n  -> %s\n", file, line, call, cublasGetStatusString(status));
    std::exit(3);
}
#define WB_CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

// The benchmark CSVs of every program linking this library name the cuBLAS they ran.
std::string cublas_version_note() {
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    return "cuBLAS " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}
const bool cublas_noted = add_environment_note(cublas_version_note());

cublasHandle_t handle() {
    static cublasHandle_t h = [] {
        cublasHandle_t created = nullptr;
        WB_CUBLAS_CHECK(cublasCreate(&created));
        return created;
    }();
    return h;
}

// Row-major C = A * B is column-major C^T = B^T * A^T: call cuBLAS with the operands swapped.
void gemm(int m, int n, int k, const double* a, const double* b, double* c) {
    const double one = 1.0, zero = 0.0;
    WB_CUBLAS_CHECK(cublasDgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
}

void gemm(int m, int n, int k, const float* a, const float* b, float* c) {
    const float one = 1.0f, zero = 0.0f;
    WB_CUBLAS_CHECK(cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
}

}  // namespace

template <class T>
void cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c) {
    gemm(m, n, k, d_a, d_b, d_c);
}

template <class T>
TimingStats time_cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c, int warmup, int repeats) {
    return measure_gpu(warmup, repeats, [&] { gemm(m, n, k, d_a, d_b, d_c); });
}

void cublas_gemm_bf16(int m, int n, int k, const __nv_bfloat16* d_a, const __nv_bfloat16* d_bt, float* d_c) {
    // Row-major C (m x n) is column-major C^T (n x m) = Bt (n x k, row-major: its column-major
    // view is k x n, hence OP_T) times A^T (A row-major is column-major k x m).
    const float one = 1.0f, zero = 0.0f;
    WB_CUBLAS_CHECK(cublasGemmEx(handle(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, d_bt, CUDA_R_16BF, k, d_a,
                                 CUDA_R_16BF, k, &zero, d_c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void cublas_gemm_bf16_batched(int m, int n, int k, const __nv_bfloat16* d_a, const __nv_bfloat16* d_b,
                              bool b_transposed, float* d_c, int batch) {
    // As above: column-major C_b^T (n x m) = op(B_b) (n x k) times A_b^T. B_b k x n row-major is
    // column-major n x k (OP_N, leading dimension n); given as n x k row-major, it is column-major
    // k x n (OP_T, leading dimension k).
    const float one = 1.0f, zero = 0.0f;
    const long long stride_a = 1LL * m * k, stride_b = 1LL * k * n, stride_c = 1LL * m * n;
    WB_CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle(), b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k,
                                               &one, d_b, CUDA_R_16BF, b_transposed ? k : n, stride_b, d_a, CUDA_R_16BF,
                                               k, stride_a, &zero, d_c, CUDA_R_32F, n, stride_c, batch,
                                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

template void cublas_gemm<float>(int, int, int, const float*, const float*, float*);
template void cublas_gemm<double>(int, int, int, const double*, const double*, double*);
template TimingStats time_cublas_gemm<float>(int, int, int, const float*, const float*, float*, int, int);
template TimingStats time_cublas_gemm<double>(int, int, int, const double*, const double*, double*, int, int);

}  // namespace wb
