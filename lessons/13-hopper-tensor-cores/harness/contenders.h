/// @file contenders.h
/// @brief Lesson 13 harness: what the benchmark times (the kernels and the libraries' BF16
/// GEMMs, each writing the same C), how it times them, cuBLASLt's fastest candidate, and the
/// look at each output before its time goes into the CSV.
#pragma once

#include "harness/bf16_problem.h"
#include "harness/cublaslt_gemm.h"

#include "wb/matmul_harness.h"
#include "wb/power_sampler.h"
#include "wb/steady_timing.h"

#include <functional>
#include <string>
#include <vector>

/// What the benchmark times: a kernel or a library call, each writing the same C (matrices.c).
struct Contender {
    std::string name;   ///< the CSV's kernel column
    std::string label;  ///< its block column
    std::function<void()> run;
};

constexpr int kBatch = 5;  ///< back-to-back runs per sample

/// One sample is the mean of kBatch back-to-back runs, queued while the GPU is held busy
/// (wb::measure_gpu_batches): the host's work per run (tensor maps, library dispatch) overlaps
/// the GPU's instead of being timed.
wb::TimingStats time_batches(const Contender& contender, int repeats);

/// Untimed runs before each contender's timing in a full run, so that its timed batches start at
/// the clock and power its own work settles at, not at those of the contender before. A quick
/// run (fewer repeats, a smoke test or a profiler's run) does not settle.
constexpr double kSettleMs = 1000;

/// A contender's timing and what the power sampler read while its timed batches ran.
struct Measured {
    wb::SteadyTiming timing;
    wb::PowerSummary power;
};

/// Measures a contender (wb::measure_steadily) after `settle_ms` of untimed runs, while `sampler`
/// reads the SM clock and the board's power during the timed batches: an unsteady measurement is
/// repeated (the readings kept are the last try's), and one still unsteady after the last try is
/// kept, with a warning, and marked in the CSV by its label.
Measured measure(const Contender& contender, int repeats, double settle_ms, wb::PowerSampler& sampler);

/// cuBLASLt's best on this product: every candidate of its heuristic timed, the fastest kept.
/// Empty when cuBLASLt offers none (the benchmark goes on with cublasGemmEx alone).
std::vector<Contender> cublaslt_best(const LtGemm& lt, int repeats);

/// Writes a CSV row per contender: the `shared` fields, its name, label (+ `mark`), timing and
/// rate, and the power sampler's columns (wb::power_columns); says what the sampler saw.
void write_rows(wb::CsvWriter& csv, const wb::BenchRow& shared, const wb::MatmulShape& shape,
                const std::vector<Contender>& contenders, const std::vector<Measured>& measured,
                const std::string& mark);

/// Each contender's output against cuBLAS SGEMM on the same values: one that computes garbage
/// must not appear in the CSV with a flattering time (this is no pass/fail check).
std::vector<Contender> correct_ones(const std::vector<Contender>& contenders, DeviceProblem& matrices,
                                    const wb::MatmulProblem<float>& problem);
