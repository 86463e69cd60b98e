// The ceiling of the matrix-product lessons: cuBLAS GEMM on the lesson's shape, measured in the
// same run (kept apart from matmul_harness.cu so that CPU programs need not link cuBLAS).
#include "wb/ceilings.h"
#include "wb/matmul_harness.h"

namespace wb {

template <class T>
GemmCeiling measure_cublas(const MatmulShape& shape, std::uint64_t seed, int warmup, int repeats) {
    const MatmulProblem<T> problem = random_problem<T>(shape, seed);
    DeviceBuffer<T> a(problem.a.size()), b(problem.b.size()), c(static_cast<std::size_t>(shape.rows) * shape.cols);
    a.upload(problem.a.data());
    b.upload(problem.b.data());
    GemmCeiling ceiling;
    ceiling.name = sizeof(T) == 8 ? "cublas-dgemm" : "cublas-sgemm";
    ceiling.time = time_cublas_gemm<T>(static_cast<int>(shape.rows), static_cast<int>(shape.cols),
                                       static_cast<int>(shape.inner), a.get(), b.get(), c.get(), warmup, repeats);
    ceiling.gflops = shape.flops() / (ceiling.time.median_ms * 1e-3) / 1e9;
    return ceiling;
}

namespace {

template <class T>
__global__ void absolute_values(const T* in, T* out, std::size_t count) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = fabs(in[i]);
}

// |matrix| into a new device matrix.
template <class T>
DeviceBuffer<T> absolute_copy(const T* matrix, std::size_t count) {
    DeviceBuffer<T> result(count);
    absolute_values<<<1024, 256>>>(matrix, result.get(), count);
    WB_CHECK_LAUNCH("absolute_values");
    return result;
}

}  // namespace

template <class T>
void compute_reference_cublas(MatmulProblem<T>& problem, const T* d_a, const T* d_b) {
    const MatmulShape& s = problem.shape;
    const int rows = static_cast<int>(s.rows), inner = static_cast<int>(s.inner), cols = static_cast<int>(s.cols);
    DeviceBuffer<T> c(static_cast<std::size_t>(s.rows) * s.cols);
    cublas_gemm<T>(rows, cols, inner, d_a, d_b, c.get());
    const std::vector<T> expected = c.to_host();
    problem.expected.assign(expected.begin(), expected.end());
    const DeviceBuffer<T> abs_a = absolute_copy(d_a, static_cast<std::size_t>(s.rows) * s.inner);
    const DeviceBuffer<T> abs_b = absolute_copy(d_b, static_cast<std::size_t>(s.inner) * s.cols);
    cublas_gemm<T>(rows, cols, inner, abs_a.get(), abs_b.get(), c.get());
    const std::vector<T> scale = c.to_host();
    problem.scale.assign(scale.begin(), scale.end());
}

template GemmCeiling measure_cublas<float>(const MatmulShape&, std::uint64_t, int, int);
template GemmCeiling measure_cublas<double>(const MatmulShape&, std::uint64_t, int, int);

template void compute_reference_cublas<float>(MatmulProblem<float>&, const float*, const float*);
template void compute_reference_cublas<double>(MatmulProblem<double>&, const double*, const double*);

}  // namespace wb
