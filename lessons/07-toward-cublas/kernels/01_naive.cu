// Kernel 01 (lesson 02's baseline): one thread per element of C. Consecutive threads of a
// warp take consecutive columns, so the reads of B and the write of C are coalesced; the
// row of A is the same for the whole warp (one broadcast load).
#include "kernels.h"
#include "wb/workbook.h"

namespace {

__global__ void naive(const double* a, const double* b, double* c, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n) return;
    double sum = 0.0;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

}  // namespace

void launch_naive(const double* a, const double* b, double* c, int n) {
    const dim3 block(32, 8);
    const dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    naive<<<grid, block>>>(a, b, c, n);
    WB_CHECK_LAUNCH("naive");
}
