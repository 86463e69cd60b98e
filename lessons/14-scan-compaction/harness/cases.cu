// Lesson 14 harness: the check's cases, the memory-ordering stress test and the benchmark's
// rows (see cases.h).
#include "harness/cases.h"

#include "harness/helpers.h"

#include "wb/bench_fields.h"
#include "wb/steady_timing.h"
#include "wb/workbook.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

namespace {

// The operations a contender performs in the check.
std::vector<Operation> check_operations(bool compaction) {
    if (compaction)
        return {{true, ScanKind::inclusive, Keep::all},
                {true, ScanKind::inclusive, Keep::none},
                {true, ScanKind::inclusive, Keep::half}};
    return {{false, ScanKind::exclusive, Keep::all}, {false, ScanKind::inclusive, Keep::all}};
}

// Host bytes per element that the check and the benchmark hold at once: the input, one
// reference with its tolerances (two doubles) and the result read back.
constexpr double kHostBytesPerElement = 4 + 16 + 4;

std::size_t host_limit() {
    std::size_t limit = wb::host_memory_bytes();
    rlimit address_space{};
    if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY)
        limit = limit == 0 ? address_space.rlim_cur : std::min<std::size_t>(limit, address_space.rlim_cur);
    return limit;
}

template <class T>
void poison_outputs(DeviceProblem<T>& problem) {
    problem.out.poison();
    problem.kept.poison();
    problem.scratch.poison();
    problem.tile_sums.poison();
}

template <class T>
void check_typed(long long n, std::uint64_t seed, const std::vector<wb::Version<Contender>>& contenders,
                 wb::CheckTally& tally) {
    const std::vector<T> x = scan_input<T>(n, seed);
    DeviceProblem<T> problem(x);
    for (bool compaction : {false, true}) {
        for (const Operation& operation : check_operations(compaction)) {
            const Expected expected = scan_reference(x, operation);
            for (const auto& contender : contenders) {
                if (contender.config.compaction != compaction) continue;
                poison_outputs(problem);
                problem.run(contender.config.impl, operation);
                wait_for_part(contender.name);
                const std::string label =
                    part_of(contender.config.impl, operation) + ", " + type_name<T>() + ", " + operation.str();
                tally.record(compare_result(problem, expected, operation, label));
            }
        }
    }
}

}  // namespace

std::vector<long long> lengths_from(const wb::Options& options, const std::vector<long long>& fallback) {
    if (options.sizes.empty()) return fallback;
    std::vector<long long> lengths;
    const std::size_t limit = host_limit();
    for (const std::vector<long>& item : options.sizes) {
        if (item.size() != 1) wb::usage_error("--sizes: give each length as one number, e.g. 1000 or 268435456");
        const double bytes = kHostBytesPerElement * static_cast<double>(item[0]);
        if (limit > 0 && bytes > 0.8 * static_cast<double>(limit)) {
            char message[200];
            std::snprintf(message, sizeof message,
                          "--sizes: %ld elements need %.1f GiB of memory; this machine allows %.1f GiB", item[0],
                          bytes / (1 << 30), wb::gib(limit));
            wb::usage_error(message);
        }
        lengths.push_back(item[0]);
    }
    return lengths;
}

void check_length(long long n, std::uint64_t seed, const std::vector<wb::Version<Contender>>& contenders,
                  wb::CheckTally& tally) {
    wb::require_device_memory(device_bytes(n), "the check's arrays");
    std::printf(" n = %lld\n", n);
    check_typed<int>(n, seed, contenders, tally);
    check_typed<float>(n, seed + 1, contenders, tally);
}

bool stress_look_back(int repeats, std::uint64_t seed) {
    const long long n = 1LL << 19;
    const std::vector<int> x = scan_input<int>(n, seed);
    const Operation inclusive{false, ScanKind::inclusive, Keep::all};
    const Expected expected = scan_reference(x, inclusive);
    DeviceProblem<int> problem(x);
    const LookBackState state{problem.status.get(), static_cast<long long>(problem.status.count())};
    int wrong_runs = 0, first_run = -1;
    wb::CompareReport first{};
    for (int run = 0; run < repeats; ++run) {
        problem.out.poison();
        single_pass_scan_tiny(problem.in.get(), problem.out.get(), n, state);
        wait_for_part("single_pass_scan_kernel (tiles of 128)");
        const std::vector<int> got = problem.out.to_host();
        const wb::CompareReport report =
            wb::compare(got.data(), expected.values.data(), static_cast<long>(n), wb::Tolerance{});
        if (report.ok()) continue;
        if (wrong_runs++ == 0) {
            first_run = run;
            first = report;
        }
    }
    std::printf("  %-52s ", "single-pass look-back, 4096 tiles of 128 ints");
    if (wrong_runs == 0) {
        std::printf("all %d runs correct\n", repeats);
        return true;
    }
    std::printf("%d of %d runs wrong (run %d: out[%ld] = %.0f, expected %.0f; %ld of %lld wrong).\n"
                "    A tile added a predecessor's value that did not go with the flag it read: flag and\n"
                "    value must be stored and loaded as one 64-bit atomic word, never in two halves\n"
                "    (part 5, look_back.cuh).\n",
                wrong_runs, repeats, first_run, first.first_wrong, first.first_got, first.first_expected, first.wrong,
                n);
    return false;
}

bool stress_message_passing(int repeats, int multiprocessors) {
    const int pairs = kMessagePairsPerBlock * multiprocessors;  // two blocks of one warp per multiprocessor
    wb::DeviceBuffer<int> sums(static_cast<std::size_t>(pairs) * kMessageRounds);
    wb::DeviceBuffer<unsigned> ready(static_cast<std::size_t>(pairs) + 1);
    wb::DeviceBuffer<MessageCheck> found(1);
    const MessageBoard board{sums.get(), ready.get(), found.get(), pairs};
    int wrong_runs = 0, first_run = -1;
    long long wrong_sums = 0;
    MessageCheck first{};
    for (int run = 0; run < repeats; ++run) {
        pass_messages(board);
        wait_for_part("message_passing_kernel");
        MessageCheck check{};
        found.download(&check, 1);
        if (check.wrong == 0) continue;
        wrong_sums += check.wrong;
        if (wrong_runs++ == 0) {
            first_run = run;
            first = check;
        }
    }
    const std::string label = "a flag that publishes a sum, " + std::to_string(pairs) + " pairs x " +
                              std::to_string(kMessageRounds) + " rounds";
    std::printf("  %-52s ", label.c_str());
    if (wrong_runs == 0) {
        std::printf("all %d runs correct\n", repeats);
        return true;
    }
    std::printf("%d of %d runs wrong, %lld sums (run %d: pair %d read %d in round %d, expected %d%s).\n"
                "    A consumer saw a round's flag but read an older copy of the sum it publishes, as its\n"
                "    SM's L1 cache held it before the producer stored it: check the memory ordering (the\n"
                "    flag stored with release, loaded and then followed by an acquire fence).\n",
                wrong_runs, repeats, wrong_sums, first_run, first.pair, first.got, first.round,
                message_sum(first.pair, first.round), first.got == -1 ? ", the value before the store" : "");
    return false;
}
