// Bug gallery, program dropped-rows: reference version. The chunk length is rounded up, so
// the chunks cover all m rows; the last chunk is shorter (or empty) and min() stops it at m.
#include "column_sums.h"

#include "wb/ceil_div.h"
#include "wb/cuda_check.h"

namespace {
constexpr int kColumnsPerBlock = 32;  // threadIdx.x: one column per thread
constexpr int kRowChunks = 16;        // threadIdx.y: the rows are shared out among 16 threads
}

// >>> FIX: each column's sum over all m rows, whatever m is
__global__ void column_sums_kernel(const double* mat, double* sums, int m, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    const int rows_per_chunk = wb::ceil_div(m, kRowChunks);  // rounded up: no row left over
    const int first = min(static_cast<int>(threadIdx.y) * rows_per_chunk, m);
    const int last = min(first + rows_per_chunk, m);
    double sum = 0.0;
    for (int row = first; row < last; ++row) sum += mat[static_cast<long>(row) * n + col];
    atomicAdd(&sums[col], sum);
}
// <<< FIX

void column_sums(const double* d_mat, double* d_sums, int m, int n) {
    WB_CUDA_CHECK(cudaMemset(d_sums, 0, sizeof(double) * n));  // the atomics add into zero
    const dim3 block(kColumnsPerBlock, kRowChunks);
    const dim3 grid((n + kColumnsPerBlock - 1) / kColumnsPerBlock);
    column_sums_kernel<<<grid, block>>>(d_mat, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_kernel");
}
