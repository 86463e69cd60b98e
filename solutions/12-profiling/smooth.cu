// Lesson 12 reference solution: the smoothing step at the speed of a device copy.
#include "smooth.h"

#include "wb/cuda_check.h"
#include "wb/device.h"

#include <algorithm>

// A grid-stride loop: each thread takes work items t, t + stride, t + 2 stride, ... where
// stride is the number of threads launched, so any number of blocks covers the whole grid.
__global__ void smooth_kernel(const double* in, double* out, int rows, int cols) {
    const long long cells = static_cast<long long>(rows) * cols;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long item = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; item < cells; item += stride) {
        // >>> TODO 1: the cell that work item `item` updates (right numbers, but see the counters)
        // Consecutive items along a row: the 32 threads of a warp touch 32 neighbouring doubles
        // (8 sectors of 32 bytes per load), not 32 cells of one column (32 sectors, 8 bytes used
        // of each).
        const int row = static_cast<int>(item / cols);
        const int col = static_cast<int>(item % cols);
        // <<< TODO 1
        out[static_cast<long long>(row) * cols + col] = smoothed_cell(in, row, col, rows, cols);
    }
}

void smooth_step(const double* d_in, double* d_out, int rows, int cols) {
    const int threads = 128;
    // >>> TODO 2: how many blocks to launch (every cell is covered anyway, but see the counters)
    // One block of 4 warps per multiprocessor leaves it 60 of its 64 warp slots empty (H100):
    // too few loads in flight to hide the memory's latency. Launch as many blocks as the
    // multiprocessors can hold at once, but no more than the cells need.
    const int sm_count = wb::multiprocessor_count();  // those this program may use
    int resident_blocks = 0;
    WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident_blocks, smooth_kernel, threads, 0));
    const long long needed = (static_cast<long long>(rows) * cols + threads - 1) / threads;
    const int blocks = static_cast<int>(std::min<long long>(needed, 1LL * sm_count * resident_blocks));
    // <<< TODO 2
    smooth_kernel<<<blocks, threads>>>(d_in, d_out, rows, cols);
    WB_CHECK_LAUNCH("smooth_kernel");
}
