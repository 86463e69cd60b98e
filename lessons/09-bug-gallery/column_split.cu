// Bug gallery, program dropped-rows. Correct on the report's shapes (160000 x 8, ...) and wrong
// on others: find out why.   scripts/check 09-bug-gallery.dropped-rows
// Hints: docs page "Lesson 09: bug gallery", or  scripts/progress hint 09-bug-gallery.dropped-rows
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
    // This thread adds the rows [first, last) of its column.
    const int rows_per_chunk = m / kRowChunks;
    const int first = threadIdx.y * rows_per_chunk;
    const int last = min(first + rows_per_chunk, m);
    double sum = 0.0;
    for (int row = first; row < last; ++row) sum += mat[static_cast<long>(row) * n + col];
    atomicAdd(&sums[col], sum);  // 16 threads add into the same column sum
}
// <<< FIX

void column_sums(const double* d_mat, double* d_sums, int m, int n) {
    WB_CUDA_CHECK(cudaMemset(d_sums, 0, sizeof(double) * n));  // the atomics add into zero
    const dim3 block(kColumnsPerBlock, kRowChunks);
    const dim3 grid((n + kColumnsPerBlock - 1) / kColumnsPerBlock);
    column_sums_kernel<<<grid, block>>>(d_mat, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_kernel");
}
