// Bug gallery, program oversized-block. The program runs, prints no error, and every sum is
// wrong: find out why.   scripts/check 09-bug-gallery.oversized-block
// Hints: docs page "Lesson 09: bug gallery", or  scripts/progress hint 09-bug-gallery.oversized-block
#include "column_sums.h"

#include "wb/ceil_div.h"
#include "wb/cuda_check.h"

// >>> FIX: the right column sums with the largest block the GPU allows, or a clear error when
// the kernel cannot run
namespace {
constexpr int kColumnsPerBlock = 64;  // threadIdx.x: one column per thread
constexpr int kRowChunks = 32;        // threadIdx.y: more threads per column, more parallelism
}

__global__ void column_sums_kernel(const double* mat, double* sums, int m, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    const int rows_per_chunk = wb::ceil_div<int>(m, blockDim.y);  // rounded up: no row left over
    const int first = min(static_cast<int>(threadIdx.y) * rows_per_chunk, m);
    const int last = min(first + rows_per_chunk, m);
    double sum = 0.0;
    for (int row = first; row < last; ++row) sum += mat[static_cast<long>(row) * n + col];
    atomicAdd(&sums[col], sum);
}

void column_sums(const double* d_mat, double* d_sums, int m, int n) {
    WB_CUDA_CHECK(cudaMemset(d_sums, 0, sizeof(double) * n));
    const dim3 block(kColumnsPerBlock, kRowChunks);
    const dim3 grid((n + kColumnsPerBlock - 1) / kColumnsPerBlock);
    column_sums_kernel<<<grid, block>>>(d_mat, d_sums, m, n);
}
// <<< FIX
