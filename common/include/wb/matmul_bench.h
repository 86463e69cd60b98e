/// @file matmul_bench.h
/// @brief Two steps that every matrix-product lesson takes around its kernels: the reference,
/// exact on the CPU while that is quick and cuBLAS on the GPU above, and the benchmark's look at
/// each output before its time goes into the CSV. The cuBLAS reference needs the
/// workbook_ceilings library.
#pragma once

#include "wb/compare.h"
#include "wb/device_buffer.h"
#include "wb/matmul_harness.h"

#include <cstdio>
#include <string>

namespace wb {

/// Fills problem.expected and problem.scale: in long double on the CPU when `on_cpu` (products
/// small enough for it), else with cuBLAS on the GPU (compute_reference_cublas), A and B uploaded
/// for it here.
template <class T>
void fill_reference(MatmulProblem<T>& problem, bool on_cpu) {
    if (on_cpu) {
        compute_reference(problem);
        return;
    }
    const DeviceBuffer<T> a(problem.a), b(problem.b);
    compute_reference_cublas(problem, a.get(), b.get());
}

/// Not a pass/fail check (that is --check): an output that is wrong must not appear in the CSV
/// with a flattering time. True when `report` found nothing wrong; otherwise prints
/// "  SUBJECT gives wrong results WHERE, left out of the CSV: " and the report, and returns false.
/// `where` is empty or starts with a space (" at 512x512x512").
inline bool fit_for_csv(const CompareReport& report, const std::string& subject, const std::string& where, long cols) {
    if (report.ok()) return true;
    std::printf("  %s gives wrong results%s, left out of the CSV: ", subject.c_str(), where.c_str());
    print_report(report, "C", cols);
    return false;
}

}  // namespace wb
