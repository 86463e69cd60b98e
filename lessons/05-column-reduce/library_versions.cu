// Lesson 05: CUB's segmented reduction on the column sums (see library_versions.h).
//
// DeviceSegmentedReduce sums contiguous segments. A column of a row-major matrix is not
// contiguous, so the input is a view: a counting iterator i = 0 .. m*n-1 transformed into the
// element at row i % m, column i / m. Segment c is then i = c*m .. (c+1)*m - 1. The view is
// honest about the layout: consecutive threads of one segment read addresses n doubles apart.
#include "library_versions.h"

#include "wb/cuda_check.h"

#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

struct ColumnMajorElement {
    const double* matrix;
    long long m;
    int n;
    __host__ __device__ double operator()(long long i) const { return matrix[(i % m) * n + i / m]; }
};

struct SegmentStart {
    long long m;
    __host__ __device__ long long operator()(long long column) const { return column * m; }
};

struct ColumnOf {
    long long m;
    __host__ __device__ int operator()(long long i) const { return static_cast<int>(i / m); }
};

using Columns = thrust::transform_iterator<ColumnMajorElement, thrust::counting_iterator<long long>>;
using Offsets = thrust::transform_iterator<SegmentStart, thrust::counting_iterator<long long>>;

Columns columns_of(const double* matrix, long long m, int n) {
    return Columns(thrust::counting_iterator<long long>(0), ColumnMajorElement{matrix, m, n});
}

Offsets starts(long long m) { return Offsets(thrust::counting_iterator<long long>(0), SegmentStart{m}); }

}  // namespace

std::size_t cub_column_sums_scratch_bytes(long long m, int n) {
    std::size_t bytes = 0;
    WB_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, columns_of(nullptr, m, n),
                                                  static_cast<double*>(nullptr), n, starts(m), starts(m) + 1));
    return bytes;
}

void cub_column_sums(const double* d_matrix, double* d_sums, long long m, int n, void* d_scratch,
                     std::size_t scratch_bytes) {
    WB_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(d_scratch, scratch_bytes, columns_of(d_matrix, m, n), d_sums, n,
                                                  starts(m), starts(m) + 1));
    WB_CHECK_LAUNCH("cub::DeviceSegmentedReduce::Sum");
}

void thrust_column_sums(const double* d_matrix, double* d_sums, int* d_keys_out, long long m, int n) {
    const thrust::transform_iterator<ColumnOf, thrust::counting_iterator<long long>> keys(
        thrust::counting_iterator<long long>(0), ColumnOf{m});
    thrust::reduce_by_key(thrust::device, keys, keys + m * n, columns_of(d_matrix, m, n), d_keys_out, d_sums);
    WB_CHECK_LAUNCH("thrust::reduce_by_key");
}
