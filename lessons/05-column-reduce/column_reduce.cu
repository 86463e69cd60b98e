// Lesson 05 exercise: column sums of a tall, narrow row-major matrix of doubles.
// Three TODOs: the exact row split (TODO 1), a double atomicAdd made of atomicCAS (TODO 2) and
// the bandwidth-bound kernel (TODO 3). Versions 1 and 3 and every launch are given.
// Check your work with:  scripts/check 05-column-reduce   (rebuilds, then runs the check)
// The hints are on the lesson 05 page.
#include "column_reduce.h"
#include "high2_mapping.h"

#include "wb/cuda_check.h"
#include "wb/device.h"

// Element (row, col) of the row-major m x n matrix is matrix[row * n + col]: one row is n
// neighbouring doubles, one column is spread out with a stride of n doubles.

// ---------------------------------------------------------------------------------------------
// Version 1 (given): one thread per column.
// ---------------------------------------------------------------------------------------------

constexpr int kOriginalThreads = 128;

__global__ void column_sums_original_kernel(const double* matrix, double* sums, long long m, int n) {
    const int column = blockIdx.x * blockDim.x + threadIdx.x;
    if (column >= n) return;  // with n <= 64, at least half of the 128 threads stop here
    double sum = 0.0;
    for (long long row = 0; row < m; ++row) sum += matrix[row * n + column];
    sums[column] = sum;
}

LaunchConfig column_sums_original(const double* d_matrix, double* d_sums, long long m, int n) {
    const LaunchConfig config{dim3((n + kOriginalThreads - 1) / kOriginalThreads), dim3(kOriginalThreads)};
    column_sums_original_kernel<<<config.grid, config.block>>>(d_matrix, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_original_kernel");
    return config;
}

// ---------------------------------------------------------------------------------------------
// Version 2: blocks of 64 columns x 16 segments. Thread (x, y) sums segment y of column x and
// adds its partial sum into sums[x] with atomicAdd, so sums must start at zero.
// ---------------------------------------------------------------------------------------------

constexpr int kSplitColumns = 64;
constexpr int kSplitSegments = 16;

/// Rows [begin, end) of one segment.
struct RowRange {
    long long begin;
    long long end;
};

__device__ double sum_rows_of_column(const double* matrix, int n, int column, RowRange rows) {
    double sum = 0.0;
    for (long long row = rows.begin; row < rows.end; ++row) sum += matrix[row * n + column];
    return sum;
}

// As first written: m / 16 rows per segment. When m is not a multiple of 16 the last m % 16
// rows belong to no segment (and when m < 16, every row is lost).
__global__ void column_sums_split16_truncating_kernel(const double* matrix, double* sums, long long m, int n) {
    const int column = blockIdx.x * blockDim.x + threadIdx.x;
    if (column >= n) return;
    const long long rows_per_segment = m / kSplitSegments;
    const RowRange rows{threadIdx.y * rows_per_segment, (threadIdx.y + 1) * rows_per_segment};
    atomicAdd(&sums[column], sum_rows_of_column(matrix, n, column, rows));
}

// The rows of segment `segment` (0 .. segments-1): together the segments cover rows 0 .. m-1
// exactly once, whatever m is (also m < segments, where some segments are empty).
__device__ RowRange segment_rows(long long m, int segment, int segments) {
    // >>> TODO 1: segments that cover every row once: length rounded up, ends clipped at m
    // As given, this is the assignment's split: it loses the last m % segments rows.
    // Round the segment length up, and clip begin and end at m.
    const long long rows_per_segment = m / segments;
    const long long begin = segment * rows_per_segment;
    return RowRange{begin, begin + rows_per_segment};
    // <<< TODO 1
}

__global__ void column_sums_split16_kernel(const double* matrix, double* sums, long long m, int n) {
    const int column = blockIdx.x * blockDim.x + threadIdx.x;
    if (column >= n) return;
    const RowRange rows = segment_rows(m, threadIdx.y, kSplitSegments);
    atomicAdd(&sums[column], sum_rows_of_column(matrix, n, column, rows));
}

LaunchConfig split16_config(int n) {
    return LaunchConfig{dim3((n + kSplitColumns - 1) / kSplitColumns), dim3(kSplitColumns, kSplitSegments)};
}

LaunchConfig column_sums_split16_truncating(const double* d_matrix, double* d_sums, long long m, int n) {
    const LaunchConfig config = split16_config(n);
    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));  // atomics add into zeros
    column_sums_split16_truncating_kernel<<<config.grid, config.block>>>(d_matrix, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_split16_truncating_kernel");
    return config;
}

LaunchConfig column_sums_split16(const double* d_matrix, double* d_sums, long long m, int n) {
    const LaunchConfig config = split16_config(n);
    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));
    column_sums_split16_kernel<<<config.grid, config.block>>>(d_matrix, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_split16_kernel");
    return config;
}

// ---------------------------------------------------------------------------------------------
// Version 3 (given): the assignment's 8 blocks of 8 x 128 threads (see high2_mapping.h).
// ---------------------------------------------------------------------------------------------

__global__ void column_sums_high2_kernel(const double* matrix, double* sums, long long m, int n) {
    const High2Work work = high2_work(m, n, blockIdx.x, threadIdx.x, threadIdx.y);
    if (!work.defined || work.column >= n) return;
    const double sum = sum_rows_of_column(matrix, n, work.column, RowRange{work.row_begin, work.row_end});
    atomicAdd(&sums[work.column], sum);
}

LaunchConfig column_sums_high2(const double* d_matrix, double* d_sums, long long m, int n) {
    const LaunchConfig config{dim3(kHigh2Blocks), dim3(kHigh2BlockX, kHigh2BlockY)};
    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));
    column_sums_high2_kernel<<<config.grid, config.block>>>(d_matrix, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_high2_kernel");
    return config;
}

// ---------------------------------------------------------------------------------------------
// Version 4: a double atomicAdd made of atomicCAS.
// ---------------------------------------------------------------------------------------------

// Adds `value` to *address atomically and returns the old value, as atomicAdd does, using only
// atomicCAS on the 64-bit pattern.
__device__ double atomic_add_cas(double* address, double value) {
    // >>> TODO 2: publish the new sum only if nobody changed the value in between, else retry
    // Work on reinterpret_cast<unsigned long long*>(address). Read the current bits, compute
    // the new sum (__longlong_as_double, __double_as_longlong), and try to swap; if atomicCAS
    // returns something other than what you expected, another thread got there first: retry
    // with the returned bits.
    (void)address;
    (void)value;
    return 0.0;
    // <<< TODO 2
}

__global__ void column_sums_split16_cas_kernel(const double* matrix, double* sums, long long m, int n) {
    const int column = blockIdx.x * blockDim.x + threadIdx.x;
    if (column >= n) return;
    const RowRange rows = segment_rows(m, threadIdx.y, kSplitSegments);
    atomic_add_cas(&sums[column], sum_rows_of_column(matrix, n, column, rows));
}

LaunchConfig column_sums_split16_cas(const double* d_matrix, double* d_sums, long long m, int n) {
    const LaunchConfig config = split16_config(n);
    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));
    column_sums_split16_cas_kernel<<<config.grid, config.block>>>(d_matrix, d_sums, m, n);
    WB_CHECK_LAUNCH("column_sums_split16_cas_kernel");
    return config;
}

__global__ void add_all_with_cas_kernel(const double* values, long long count, double* totals, int total_count) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) atomic_add_cas(&totals[i % total_count], values[i]);
}

LaunchConfig add_all_with_cas(const double* d_values, long long count, double* d_totals, int totals) {
    const int threads = 256;
    const LaunchConfig config{dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads)};
    add_all_with_cas_kernel<<<config.grid, config.block>>>(d_values, count, d_totals, totals);
    WB_CHECK_LAUNCH("add_all_with_cas_kernel");
    return config;
}

// ---------------------------------------------------------------------------------------------
// Version 5: bandwidth-bound. Forget rows and columns while reading: the matrix is one array
// of m * n doubles. Thread t of the grid reads elements t, t + S, t + 2S, ... where S, the
// number of threads in the grid, is a multiple of n; so every element a thread reads lies in
// the same column, t % n, and neighbouring threads read neighbouring addresses (coalesced).
// ---------------------------------------------------------------------------------------------

// The launch below gives blockDim.x threads, a multiple of n, and blockDim.x doubles of shared
// memory (partial[]); sums[] holds zeros.
__global__ void column_sums_bandwidth_kernel(const double* __restrict__ matrix, double* sums, long long count, int n) {
    extern __shared__ double partial[];  // one partial sum per thread of the block
    // >>> TODO 3: strided sums per thread, folded across the block, one atomic per column
    // 1. Thread i = blockIdx.x * blockDim.x + threadIdx.x sums matrix[i], matrix[i + stride],
    //    matrix[i + 2 * stride], ... while the index is below count, with
    //    stride = gridDim.x * blockDim.x (use long long: count can exceed 2^31). Every one of
    //    these elements is in column threadIdx.x % n. Keep a few loads in flight per iteration.
    // 2. Store the thread's sum in partial[threadIdx.x]; __syncthreads(). Threads threadIdx.x
    //    and threadIdx.x + k * n hold sums of the same column: add them up, in a loop that
    //    folds the table of blockDim.x / n rows in half (with __syncthreads() after each fold),
    //    or with one thread per column looping over the rows.
    // 3. Threads 0 .. n-1 add their column's block total into sums[] with atomicAdd.
    (void)matrix;
    (void)sums;
    (void)count;
    (void)n;
    (void)partial;
    // <<< TODO 3
}

LaunchConfig column_sums_bandwidth(const double* d_matrix, double* d_sums, long long m, int n, int threads_wanted,
                                   int blocks_per_sm) {
    // A block holds whole rows of the table: a multiple of n threads (n itself when n is large).
    const int threads = threads_wanted >= n ? threads_wanted / n * n : n;
    const std::size_t shared_bytes = threads * sizeof(double);
    const int sm_count = wb::multiprocessor_count();
    if (blocks_per_sm == 0) {
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, column_sums_bandwidth_kernel,
                                                                    threads, shared_bytes));
        if (blocks_per_sm < 1) blocks_per_sm = 1;
    }
    // Enough blocks to fill the GPU once, but no more blocks than there are elements to give
    // each thread at least 8 of them: every extra block costs n more atomics.
    const long long count = m * n;
    const long long blocks_for_work = (count + 8LL * threads - 1) / (8LL * threads);
    const long long blocks_to_fill = static_cast<long long>(blocks_per_sm) * sm_count;
    const long long blocks = blocks_for_work < blocks_to_fill ? blocks_for_work : blocks_to_fill;
    const LaunchConfig config{dim3(static_cast<unsigned>(blocks)), dim3(threads)};

    WB_CUDA_CHECK(cudaMemsetAsync(d_sums, 0, n * sizeof(double)));
    column_sums_bandwidth_kernel<<<config.grid, config.block, shared_bytes>>>(d_matrix, d_sums, count, n);
    WB_CHECK_LAUNCH("column_sums_bandwidth_kernel");
    return config;
}
