#include "wb/gemv_ceiling.h"

#include "wb/cuda_check.h"
#include "wb/exit_codes.h"

#include <cublas_v2.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace wb {

namespace {

void gemv_check(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    std::fprintf(stderr, "cuBLAS error at %s:%d\n  %s\n  -> %s\n", file, line, call, cublasGetStatusString(status));
    std::exit(kExitCudaError);
}
#define WB_GEMV_CHECK(call) gemv_check((call), #call, __FILE__, __LINE__)

cublasHandle_t gemv_handle() {
    static cublasHandle_t handle = [] {
        cublasHandle_t created = nullptr;
        WB_GEMV_CHECK(cublasCreate(&created));
        return created;
    }();
    return handle;
}

}  // namespace

double* device_ones(std::size_t count) {
    double* d_ones = nullptr;
    const std::vector<double> ones(count, 1.0);
    WB_CUDA_CHECK(cudaMalloc(&d_ones, count * sizeof(double)));
    WB_CUDA_CHECK(cudaMemcpy(d_ones, ones.data(), count * sizeof(double), cudaMemcpyHostToDevice));
    return d_ones;
}

void cublas_column_sums(const double* d_matrix, long m, long n, const double* d_ones, double* d_sums) {
    if (m < 1 || n < 1 || m > INT_MAX || n > INT_MAX) {
        std::fprintf(stderr, "error: cublas_column_sums: %ld x %ld does not fit cuBLAS's int sizes\n", m, n);
        std::exit(kExitUsage);
    }
    const double one = 1.0, zero = 0.0;
    // Column-major view: n rows, m columns, leading dimension n; y (n) = that matrix * ones (m).
    WB_GEMV_CHECK(cublasDgemv(gemv_handle(), CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), &one, d_matrix,
                              static_cast<int>(n), d_ones, 1, &zero, d_sums, 1));
}

}  // namespace wb
