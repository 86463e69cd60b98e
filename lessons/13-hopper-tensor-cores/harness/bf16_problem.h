/// @file bf16_problem.h
/// @brief Lesson 13 harness: the problems the kernels multiply, bf16 inputs zero-padded to the
/// kernels' tile multiple on the GPU, the reference, the tolerance, and one run compared with the
/// reference (a kernel that never finishes or faults ends the check as a failure).
#pragma once

#include "kernels.h"

#include "wb/compare.h"
#include "wb/device_buffer.h"
#include "wb/matmul_harness.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// How the driver launches a kernel (kernels.h).
using Launch = void (*)(const bf16* a, const bf16* bt, float* c, int m, int n, int k);

constexpr long kLargestCpuReference = 512L * 512 * 512;  ///< multiply-adds; above: cuBLAS SGEMM

/// True when the reference of `shape` is exact (long double on the CPU), false for cuBLAS SGEMM.
inline bool exact_reference(const wb::MatmulShape& shape) {
    return shape.rows * shape.inner * shape.cols <= kLargestCpuReference;
}

/// Random inputs in [-1, 1) rounded to bf16 (the float vectors hold the rounded values, so the
/// reference multiplies exactly what the kernels multiply), and the reference.
wb::MatmulProblem<float> bf16_problem(const wb::MatmulShape& shape, std::uint64_t seed);

/// The tolerance of a kernel's C against the reference (exact or not, exact_reference).
wb::Tolerance tolerance(const wb::MatmulShape& shape, bool exact);

/// A and Bt in bf16, zero-padded to multiples of kTileMultiple (zeros add nothing to a dot
/// product, so the rows x cols corner of the padded C is A * B), and a C of the padded size.
struct DeviceProblem {
    long rows, inner, cols;     ///< the problem's shape
    int m, k, n;                ///< padded
    wb::DeviceBuffer<bf16> a;   ///< m x k
    wb::DeviceBuffer<bf16> bt;  ///< n x k: B transposed
    wb::DeviceBuffer<float> c;  ///< m x n

    /// Uploads the problem's A and B, converted to bf16 and padded.
    explicit DeviceProblem(const wb::MatmulProblem<float>& problem);
    /// Runs a kernel on these matrices (C overwritten).
    void run(Launch launch) { launch(a.get(), bt.get(), c.get(), m, n, k); }
    /// The rows x cols corner of C.
    std::vector<float> result() const;
};

/// Device bytes of a DeviceProblem of `shape`.
std::size_t device_bytes(const wb::MatmulShape& shape);

/// Runs one kernel (or library call) writing matrices.c with C poisoned first, waits for it, and
/// compares the rows x cols corner of C with the reference. A kernel that does not finish within
/// 10 s, or stops with a fault, ends the check there with its FAILED verdict (wb::wait_for_kernel);
/// in the benchmark a fault is a CUDA error.
wb::CompareReport run_and_compare(const std::string& name, const std::function<void()>& run, DeviceProblem& matrices,
                                  const wb::MatmulProblem<float>& problem, wb::Tolerance tol);

/// One case of the cluster exercise's check (kernels/cluster_share.cu).
struct ClusterShareCase {
    int tiles;        ///< tiles of 256 x kTileK in the matrix
    int clusters;     ///< clusters of two blocks
    unsigned lag_ns;  ///< how long block 1 of each cluster waits before writing each tile out
};

/// Runs launch_cluster_share on random tiles with both blocks' copies poisoned first, waits for
/// it as run_and_compare does (10 s, then the FAILED verdict), and compares every copy with its
/// tile: every value must be exact.
wb::CompareReport run_cluster_share(const ClusterShareCase& test, std::uint64_t seed);
