// Lesson 12 exercise: this smoothing step gives the right numbers, slowly. Measure it, read its
// hardware counters, find the two things that hold it back and fix them.
//   scripts/check 12-profiling                              right numbers first, then speed
//   scripts/profile 12-profiling-exercise --profile-run     the counters of one launch
// Hints: docs page "Lesson 12: profiling your kernels", or  scripts/progress hint 12-profiling
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
        const int row = static_cast<int>(item % rows);
        const int col = static_cast<int>(item / rows);
        // <<< TODO 1
        out[static_cast<long long>(row) * cols + col] = smoothed_cell(in, row, col, rows, cols);
    }
}

void smooth_step(const double* d_in, double* d_out, int rows, int cols) {
    const int threads = 128;
    // >>> TODO 2: how many blocks to launch (every cell is covered anyway, but see the counters)
    // One block for each multiprocessor this program may use: each one has work.
    const int blocks = wb::multiprocessor_count();
    // <<< TODO 2
    smooth_kernel<<<blocks, threads>>>(d_in, d_out, rows, cols);
    WB_CHECK_LAUNCH("smooth_kernel");
}
