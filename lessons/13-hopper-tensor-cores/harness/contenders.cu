// Lesson 13 harness: timing the benchmark's contenders (see contenders.h).
#include "harness/contenders.h"

#include "wb/matmul_bench.h"

#include <cstdio>

wb::TimingStats time_batches(const Contender& contender, int repeats) {
    return wb::measure_gpu_batches(repeats, kBatch, [&](int) { contender.run(); });
}

Measured measure(const Contender& contender, int repeats, double settle_ms, wb::PowerSampler& sampler) {
    if (settle_ms > 0)
        WB_CUDA_CHECK(wb::settle_gpu(settle_ms, [&] {
            for (int run = 0; run < kBatch; ++run) contender.run();
        }));
    Measured measured;
    measured.timing = wb::measure_steadily(contender.name, contender.label, [&] {
        const wb::SampledTiming run =
            wb::measure_gpu_batches_sampled(sampler, repeats, kBatch, [&](int) { contender.run(); });
        measured.power = run.power;  // the last try's readings: the try whose timing the row keeps
        return run.time;
    });
    return measured;
}

void write_rows(wb::CsvWriter& csv, const wb::BenchRow& shared, const wb::MatmulShape& shape,
                const std::vector<Contender>& contenders, const std::vector<Measured>& measured,
                const std::string& mark) {
    for (std::size_t i = 0; i < contenders.size(); ++i) {
        wb::BenchRow row = shared;
        row.kernel = contenders[i].name;
        row.block = measured[i].timing.label + mark;
        row.time = measured[i].timing.time;
        row.rate = shape.gflops(row.time.median_ms);
        row.extra = measured[i].power.fields();
        csv.write(row);
        if (measured[i].power.samples > 0) std::printf("  %-22s %s\n", "", measured[i].power.describe().c_str());
    }
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
