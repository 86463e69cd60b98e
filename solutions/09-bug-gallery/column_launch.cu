// Bug gallery, program oversized-block: reference version. 64 x 16 = 1024 threads, the most a
// block may hold; and the launch is checked, so a block that does not fit stops the program
// with a clear message instead of silently doing nothing.
#include "column_sums.h"

#include "wb/ceil_div.h"
#include "wb/cuda_check.h"

// >>> FIX: the right column sums with the largest block the GPU allows, or a clear error when
// the kernel cannot run
namespace {
constexpr int kColumnsPerBlock = 64;  // threadIdx.x: one column per thread
constexpr int kRowChunks = 16;        // threadIdx.y: 64 x 16 = 1024 threads per block
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
    WB_CHECK_LAUNCH("column_sums_kernel");  // a block over 1024 threads fails here, loudly
}
// <<< FIX
