// Lesson 05, going further: version 5 with its block combination done by warp shuffles.
//
// In version 5 each thread ends with a partial sum of column threadIdx.x % n, and the block
// folds a table of blockDim.x / n rows in shared memory, one __syncthreads() per fold. When n
// divides 32, the threads of one column also sit inside every warp: lanes l, l + n, l + 2n ...
// Shuffles add them without shared memory or barriers (each lane reads a register of another
// lane of its warp); only the warps' results meet in shared memory, once.
#include "going_further.h"

#include "wb/cuda_check.h"
#include "wb/device.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 1024;  // a multiple of 32, so of every n that divides 32

__global__ void column_sums_shuffle_kernel(const double* __restrict__ matrix, double* sums, long long count, int n) {
    extern __shared__ double warp_sums[];  // n per warp
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    // 1. As in version 5: strided sums, four loads in flight. The stride is a multiple of n.
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    double sum = 0.0;
    for (; i + 3 * stride < count; i += 4 * stride) {
        const double a = matrix[i], b = matrix[i + stride], c = matrix[i + 2 * stride], d = matrix[i + 3 * stride];
        sum += (a + b) + (c + d);
    }
    for (; i < count; i += stride) sum += matrix[i];

    // 2. Inside the warp: after offsets 16, 8, ..., n, lane l < n holds its column's warp total.
    for (int offset = 16; offset >= n; offset /= 2) sum += warp.shfl_down(sum, offset);
    const int warp_index = threadIdx.x / 32;
    if (warp.thread_rank() < static_cast<unsigned>(n)) warp_sums[warp_index * n + warp.thread_rank()] = sum;
    block.sync();

    // 3. Thread c < n adds the warps' totals of column c: one atomic per block and column.
    if (threadIdx.x < static_cast<unsigned>(n)) {
        double total = 0.0;
        for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) total += warp_sums[w * n + threadIdx.x];
        atomicAdd(&sums[threadIdx.x], total);
    }
}

}  // namespace

LaunchConfig column_sums_bandwidth_shuffle(const double* d_matrix, double* d_sums, long long m, int n) {
    const std::size_t shared_bytes = kThreads / 32 * n * sizeof(double);
    const int sm_count = wb::multiprocessor_count();
    int blocks_per_sm = 0;
    WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, column_sums_shuffle_kernel, kThreads,
                                                                shared_bytes));
    // The same sizing as version 5: fill the GPU once, at least 8 elements per thread.
    const long long count = m * n;
    const long long blocks_for_work = (count + 8LL * kThreads - 1) / (8LL * kThreads);
    const long long blocks_to_fill = static_cast<long long>(blocks_per_sm > 0 ? blocks_per_sm : 1) * sm_count;
    const long long blocks = blocks_for_work < blocks_to_fill ? blocks_for_work : blocks_to_fill;
    const LaunchConfig config{dim3(static_cast<unsigned>(blocks)), dim3(kThreads)};
    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));
    column_sums_shuffle_kernel<<<config.grid, config.block, shared_bytes>>>(d_matrix, d_sums, count, n);
    WB_CHECK_LAUNCH("column_sums_shuffle_kernel");
    return config;
}
