// Lesson 05: checks of atomic_add_cas (TODO 2) on its own, beyond the column sums.
#include "harness/cas_checks.h"

#include "column_reduce.h"

#include "wb/column_sums.h"
#include "wb/kernel_watchdog.h"
#include "wb/workbook.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// What the check says when atomic_add_cas never ends on a NaN (check_cas_nan).
wb::StuckKernelText nan_never_added() {
    return {"with a NaN among the values, the retry loop\n"
            "                       compares the doubles (NaN != NaN is always true),\n"
            "                       not their 64-bit patterns",
            "", wb::lesson_hints()};
}

// How long the check waits for the additions with a NaN among them (a right loop needs microseconds).
constexpr double kNanWaitS = 10.0;

}  // namespace

// atomic_add_cas under contention: thread i adds values[i] into totals[i % 8], so 8192 threads
// retry on each address. Read as a matrix of 8 columns, the totals are its column sums.
bool check_cas_stress(std::uint64_t seed) {
    const long long count = 1 << 16;
    const int totals = 8;
    std::vector<double> values(count);
    wb::fill_column_sum_inputs(values, seed);
    const wb::ColumnSumsReference reference = wb::column_sums_reference(values, count / totals, totals);
    wb::DeviceBuffer<double> d_values(values), d_totals(totals);
    d_totals.zero();
    add_all_with_cas(d_values.get(), count, d_totals.get(), totals);
    WB_WAIT_FOR_KERNEL("atomic_add_cas");
    const wb::CompareReport report = reference.compare(d_totals.to_host());
    std::printf("  atomic_add_cas stress: %lld threads adding into %d doubles: ", count, totals);
    wb::print_report(report, "totals", 0);
    return report.ok();
}

// atomic_add_cas with a NaN among the values: total 3 receives it, so from then on its sum is
// NaN. A retry loop that compares the doubles instead of their bit patterns never ends there
// (NaN != NaN is true even when the exchange succeeded); the check waits a few seconds for it.
bool check_cas_nan() {
    const long long count = 1 << 12;
    const int totals = 8, poisoned = 3;
    std::vector<double> values(count, 1.0);
    values[poisoned] = std::nan("");
    wb::DeviceBuffer<double> d_values(values), d_totals(totals);
    d_totals.zero();
    add_all_with_cas(d_values.get(), count, d_totals.get(), totals);
    wb::wait_for_queued("atomic_add_cas", kNanWaitS, nan_never_added());
    const std::vector<double> got = d_totals.to_host();
    long wrong = 0;
    for (int t = 0; t < totals; ++t) {
        const bool ok = t == poisoned ? std::isnan(got[t]) : got[t] == static_cast<double>(count / totals);
        if (!ok && wrong++ == 0)
            std::printf("  atomic_add_cas with a NaN: totals[%d] = %g (expected %s)\n", t, got[t],
                        t == poisoned ? "nan" : std::to_string(count / totals).c_str());
    }
    std::printf("  atomic_add_cas with a NaN among the values: %s\n", wrong ? "wrong" : "finished, totals right");
    return wrong == 0;
}
