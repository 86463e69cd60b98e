// Lesson 13 harness: timing the benchmark's contenders (see contenders.h).
#include "harness/contenders.h"

#include "wb/matmul_bench.h"

#include <cstdio>

wb::TimingStats time_batches(const Contender& contender, int repeats) {
    return wb::measure_gpu_batches(repeats, kBatch, [&](int) { contender.run(); });
}

wb::SteadyTiming measure(const Contender& contender, int repeats) {
    return wb::measure_steadily(contender.name, contender.label, [&] { return time_batches(contender, repeats); });
}

std::vector<Contender> cublaslt_best(const LtGemm& lt, int repeats) {
    if (lt.algorithms() == 0) {
        std::printf("  cuBLASLt offers no algorithm for this product here: no cublaslt-best row\n");
        return {};
    }
    int best = 0;
    double best_ms = 0.0;
    for (int i = 0; i < lt.algorithms(); ++i) {
        const double ms = time_batches({"", "", [&lt, i] { lt.run(i); }}, repeats).median_ms;
        if (i == 0 || ms < best_ms) {
            best = i;
            best_ms = ms;
        }
    }
    return {{"cublaslt-best",
             "cublasLtMatmul, fastest of the heuristic's candidates: " + lt.describe(best) +
                 "; bf16 in, FP32 compute and C",
             [&lt, best] { lt.run(best); }}};
}

std::vector<Contender> correct_ones(const std::vector<Contender>& contenders, DeviceProblem& matrices,
                                    const wb::MatmulProblem<float>& problem) {
    std::vector<Contender> kept;
    for (const auto& contender : contenders) {
        const wb::CompareReport report =
            run_and_compare(contender.name, contender.run, matrices, problem, tolerance(problem.shape, false));
        if (wb::fit_for_csv(report, contender.name, " at " + problem.shape.str(), problem.shape.cols))
            kept.push_back(contender);
    }
    return kept;
}
