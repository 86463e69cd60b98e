// Lesson 13 harness: the problems, their device matrices and one compared run (see bf16_problem.h).
#include "harness/bf16_problem.h"

#include "tensor_maps.h"

#include "wb/args.h"
#include "wb/cuda_check.h"
#include "wb/kernel_watchdog.h"
#include "wb/lesson.h"
#include "wb/matmul_bench.h"
#include "wb/random.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace {

// How long the check waits for one kernel: far longer than any of them needs at the check's
// sizes, even under compute-sanitizer.
constexpr double kLongestKernelSeconds = 10.0;

// Pipeline bugs end in one of two ways, both reported as a failed check (the exercise is wrong,
// the program is not broken): a thread waits for a barrier phase that nobody completes and the
// kernel never ends (after kLongestKernelSeconds the check ends the process, which stops the
// kernel, instead of hanging); or the kernel stops with a fault: a barrier received more arrivals
// than its phase expects, or a wgmma descriptor or a copy pointed past the stage's tiles (a slice
// loop that runs too far reaches beyond the block's shared memory).
wb::StuckKernelText pipeline_bugs() {
    return {"its pipeline is deadlocked (a thread waits for a\n"
            "                       barrier phase that nobody completes)",
            "In this lesson the usual causes are an\n"
            "                       mbarrier that receives more arrivals than its phase expects, or a\n"
            "                       wgmma descriptor or copy that points past the stage's tiles.",
            wb::lesson_hints()};
}

}  // namespace

wb::MatmulProblem<float> bf16_problem(const wb::MatmulShape& shape, std::uint64_t seed) {
    wb::MatmulProblem<float> problem = wb::random_problem<float>(shape, seed);
    for (float& value : problem.a) value = __bfloat162float(__float2bfloat16(value));
    for (float& value : problem.b) value = __bfloat162float(__float2bfloat16(value));
    wb::fill_reference(problem, exact_reference(shape));
    return problem;
}

// The products are exact in FP32 (8-bit significands), so only the FP32 sums round. Against
// the exact reference a kernel may be off by the bound of a sum of `inner` terms; twice that,
// because NVIDIA does not document how the tensor cores' adders round. Against cuBLAS SGEMM,
// which rounds its own sums, add one more such bound, and keep the factor two.
wb::Tolerance tolerance(const wb::MatmulShape& shape, bool exact) {
    return wb::summation_tolerance<float>((exact ? 2L : 4L) * shape.inner);
}

DeviceProblem::DeviceProblem(const wb::MatmulProblem<float>& problem)
    : rows(problem.shape.rows),
      inner(problem.shape.inner),
      cols(problem.shape.cols),
      m(static_cast<int>(wb::round_up(rows, kTileMultiple))),
      k(static_cast<int>(wb::round_up(inner, kTileMultiple))),
      n(static_cast<int>(wb::round_up(cols, kTileMultiple))),
      a(static_cast<std::size_t>(m) * k),
      bt(static_cast<std::size_t>(n) * k),
      c(static_cast<std::size_t>(m) * n) {
    std::vector<bf16> host_a(static_cast<std::size_t>(m) * k, __float2bfloat16(0.0f));
    std::vector<bf16> host_bt(static_cast<std::size_t>(n) * k, __float2bfloat16(0.0f));
    for (long i = 0; i < rows; ++i)
        for (long p = 0; p < inner; ++p) host_a[i * k + p] = __float2bfloat16(problem.a[i * inner + p]);
    for (long p = 0; p < inner; ++p)
        for (long j = 0; j < cols; ++j) host_bt[j * k + p] = __float2bfloat16(problem.b[p * cols + j]);
    a.upload(host_a.data());
    bt.upload(host_bt.data());
}

std::vector<float> DeviceProblem::result() const {
    std::vector<float> corner(static_cast<std::size_t>(rows) * cols);
    WB_CUDA_CHECK(cudaMemcpy2D(corner.data(), cols * sizeof(float), c.get(), n * sizeof(float), cols * sizeof(float),
                               rows, cudaMemcpyDeviceToHost));
    return corner;
}

std::size_t device_bytes(const wb::MatmulShape& shape) {
    const std::size_t m = wb::round_up(shape.rows, kTileMultiple), k = wb::round_up(shape.inner, kTileMultiple),
                      n = wb::round_up(shape.cols, kTileMultiple);
    return 2 * (m * k + n * k) + 4 * m * n;
}

wb::CompareReport run_and_compare(const std::string& name, const std::function<void()>& run, DeviceProblem& matrices,
                                  const wb::MatmulProblem<float>& problem, wb::Tolerance tol) {
    matrices.c.poison();
    run();
    wb::wait_for_kernel(name, kLongestKernelSeconds, pipeline_bugs());
    const std::vector<float> c = matrices.result();
    return wb::compare(c.data(), problem.expected.data(), static_cast<long>(c.size()), tol, problem.scale.data());
}

wb::CompareReport run_cluster_share(const ClusterShareCase& test, std::uint64_t seed) {
    constexpr long kTileValues = 256L * kTileK;
    const long values = test.tiles * kTileValues;
    std::vector<float> matrix(values);
    wb::fill_random(matrix, seed);
    std::vector<bf16> matrix_bf16(values);
    for (long i = 0; i < values; ++i) matrix_bf16[i] = __float2bfloat16(matrix[i]);
    const wb::DeviceBuffer<bf16> device_matrix(matrix_bf16);
    wb::DeviceBuffer<bf16> copies(2 * values);
    copies.poison();
    launch_cluster_share(device_matrix.get(), copies.get(), test.tiles, test.clusters, test.lag_ns);
    wb::wait_for_kernel("cluster_share", kLongestKernelSeconds, pipeline_bugs());
    const std::vector<bf16> got_bf16 = copies.to_host();
    std::vector<float> got(2 * values), expected(2 * values);
    for (long i = 0; i < 2 * values; ++i) {
        got[i] = __bfloat162float(got_bf16[i]);
        expected[i] = __bfloat162float(matrix_bf16[i % values]);  // copies[rank] is the matrix
    }
    return wb::compare(got.data(), expected.data(), 2 * values, wb::Tolerance{0.0, 0.0});
}
