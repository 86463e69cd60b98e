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

template GemmCeiling measure_cublas<float>(const MatmulShape&, std::uint64_t, int, int);
template GemmCeiling measure_cublas<double>(const MatmulShape&, std::uint64_t, int, int);

}  // namespace wb
