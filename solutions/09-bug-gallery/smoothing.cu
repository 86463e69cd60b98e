// Bug gallery, program missing-barrier: reference version. Every thread reads its neighbours,
// then the block waits at a barrier, then every thread writes: no write overtakes a read.
#include "smoothing.h"

#include "wb/cuda_check.h"

// >>> FIX: smooth each row in shared memory, every step reading all neighbours before any is overwritten
__global__ void smooth_rows_kernel(const double* in, double* out, int cols, int iterations) {
    __shared__ double row[kMaxSmoothCols];
    const int j = threadIdx.x;
    const double* row_in = in + static_cast<long long>(blockIdx.x) * cols;
    if (j < cols) row[j] = row_in[j];
    __syncthreads();
    for (int step = 0; step < iterations; ++step) {
        double next = 0.0;
        if (j < cols) {
            const double left = row[j > 0 ? j - 1 : j];
            const double right = row[j < cols - 1 ? j + 1 : j];
            next = smoothed(left, row[j], right);
        }
        __syncthreads();  // everyone has read this step's neighbours: now they may be overwritten
        if (j < cols) row[j] = next;
        __syncthreads();
    }
    if (j < cols) out[static_cast<long long>(blockIdx.x) * cols + j] = row[j];
}
// <<< FIX

void smooth_rows(const double* d_in, double* d_out, int rows, int cols, int iterations) {
    const int threads = (cols + 31) / 32 * 32;  // whole warps
    smooth_rows_kernel<<<rows, threads>>>(d_in, d_out, cols, iterations);
    WB_CHECK_LAUNCH("smooth_rows_kernel");
}
