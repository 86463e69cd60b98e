// Lesson 14 harness: the benchmark's rows for one length (see cases.h). Every contender is
// checked once, then timed as the median of samples of back-to-back runs (CUDA events around
// each batch, after a warm-up batch; a sample set whose slowest is over 1.2x its fastest is
// measured again). Every row's ceiling is a device copy of the same n elements (8 n bytes
// moved, as a scan must); its baseline is CUB doing the same.
#include "harness/cases.h"

#include "harness/helpers.h"

#include "wb/bench_fields.h"
#include "wb/steady_timing.h"
#include "wb/workbook.h"
#include "wb/lesson_name.h"

#include <cstdio>
#include <functional>

namespace {

struct Timed {
    std::string name;
    std::string label;
    Operation operation;
    wb::SteadyTiming timing;
};

std::string row_name(const wb::Version<Contender>& contender, const Operation& operation) {
    if (operation.compaction) return contender.name;
    const bool inclusive = operation.kind == ScanKind::inclusive;
    if (contender.config.impl == Impl::cub) return inclusive ? "cub-inclusive-sum" : "cub-exclusive-sum";
    return contender.name + (inclusive ? "-inclusive" : "-exclusive");
}

std::string baseline_of(const Operation& operation) {
    if (operation.compaction) return "cub-select-if";
    return operation.kind == ScanKind::inclusive ? "cub-inclusive-sum" : "cub-exclusive-sum";
}

// Runs per timed batch: enough that a batch of small runs is not mostly launch overhead.
int batch_of(long long n) { return n >= (1LL << 24) ? 5 : 50; }

wb::SteadyTiming time_runs(const std::string& name, const std::string& label, int repeats, long long n,
                           const std::function<void()>& launch) {
    return wb::measure_steadily(name, label,
                                [&] { return wb::measure_gpu_batches(repeats, batch_of(n), [&](int) { launch(); }); });
}

template <class T>
bool bench_typed(wb::CsvWriter& csv, long long n, std::uint64_t seed,
                 const std::vector<wb::Version<Contender>>& contenders, int repeats, const std::string& mark,
                 const std::string& device) {
    wb::require_device_memory(device_bytes(n), "the benchmark's arrays");
    const std::vector<T> x = scan_input<T>(n, seed);
    DeviceProblem<T> problem(x);
    const double elements = static_cast<double>(n);
    // The ceiling first: the same bytes copied from in to out.
    const wb::SteadyTiming copy =
        wb::time_device_copy(problem.out.get(), problem.in.get(), problem.in.bytes(), repeats, batch_of(n));
    const double copy_gbs = wb::gb_per_s(8.0 * elements, copy.time.median_ms);

    // CUB first, then the lesson's kernels: a GPU that warms up and lowers its clock would
    // favour the library, never the kernels.
    std::vector<const wb::Version<Contender>*> order;
    for (const auto& contender : contenders)
        if (contender.config.impl == Impl::cub) order.push_back(&contender);
    for (const auto& contender : contenders)
        if (contender.config.impl != Impl::cub) order.push_back(&contender);

    bool all_correct = true;
    long long kept = 0;
    std::vector<Timed> timed;
    for (bool compaction : {false, true}) {
        for (const Operation& operation : {Operation{compaction, ScanKind::inclusive, Keep::half},
                                           Operation{compaction, ScanKind::exclusive, Keep::half}}) {
            if (compaction && operation.kind == ScanKind::exclusive) continue;
            const Expected expected = scan_reference(x, operation);
            if (compaction) kept = expected.kept;
            for (const auto* contender : order) {
                if (contender->config.compaction != compaction) continue;
                const std::string name = row_name(*contender, operation);
                problem.out.poison();
                problem.run(contender->config.impl, operation);
                if (!compare_result(problem, expected, operation, name + ", " + type_name<T>())) {
                    std::printf("  %s: WRONG RESULT, not timed (run --check)\n", name.c_str());
                    all_correct = false;
                    continue;
                }
                const Impl impl = contender->config.impl;
                timed.push_back({name, contender->label, operation,
                                 time_runs(name, contender->label, repeats, n, [&] { problem.run(impl, operation); })});
            }
        }
    }
    WB_CHECK_LAUNCH_AND_WAIT("the timed kernels");

    wb::BenchRow shared = wb::bench_fields(wb::kLessonName, type_name<T>(), "GB/s", device);
    shared.shape = std::to_string(n);
    shared.n = static_cast<long>(n);
    shared.ceiling = "device-copy";
    shared.ceiling_rate = copy_gbs;
    wb::BenchRows rows(csv, shared);
    wb::BenchRow copy_row = shared;
    copy_row.kernel = "device-copy";
    copy_row.block = copy.label + mark;
    copy_row.time = copy.time;
    copy_row.rate = copy_gbs;
    copy_row.flops = 0.0;
    copy_row.dram_bytes = 8.0 * elements;
    rows.write(copy_row);
    for (const Timed& entry : timed) {
        wb::BenchRow row = shared;
        row.kernel = entry.name;
        row.block = entry.timing.label + mark;
        row.time = entry.timing.time;
        // A scan reads and writes each element once; a compaction reads each and writes the kept.
        row.dram_bytes =
            entry.operation.compaction ? 4.0 * elements + 4.0 * static_cast<double>(kept) + 4.0 : 8.0 * elements;
        row.flops = entry.operation.compaction ? 0.0 : elements;  // one addition per element
        row.rate = wb::gb_per_s(row.dram_bytes, row.time.median_ms);
        for (const Timed& other : timed)
            if (other.name == baseline_of(entry.operation) && other.name != entry.name) {
                row.baseline = other.name;
                row.baseline_ms = other.timing.time.median_ms;
            }
        rows.write(row);
    }
    return all_correct;
}

}  // namespace

bool bench_length(wb::CsvWriter& csv, long long n, const std::string& precision, std::uint64_t seed,
                  const std::vector<wb::Version<Contender>>& contenders, int repeats, const std::string& mark,
                  const std::string& device) {
    if (precision == "int") return bench_typed<int>(csv, n, seed, contenders, repeats, mark, device);
    return bench_typed<float>(csv, n, seed, contenders, repeats, mark, device);
}
