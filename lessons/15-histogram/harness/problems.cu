// Lesson 15 harness: inputs, the CPU reference, checked and timed runs (see problems.h).
#include "harness/problems.h"

#include "harness/cub_histogram.h"
#include "histogram.h"
#include "launch_grid.h"

#include "wb/compare.h"
#include "wb/kernel_watchdog.h"
#include "wb/lesson.h"
#include "wb/timer.h"

#include <algorithm>
#include <limits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <thread>

namespace {

// splitmix64: a fast generator, so that a GiB of input is drawn in about a second.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
};

constexpr int kTableBits = 20;  // a skewed draw: the value at a random quantile of 2^20

// The quantile table of a distribution given by weights (value, weight).
std::vector<unsigned int> quantile_table(const std::vector<std::pair<unsigned int, double>>& weights) {
    double total = 0.0;
    for (const auto& w : weights) total += w.second;
    std::vector<unsigned int> table(std::size_t(1) << kTableBits);
    double below = 0.0;
    std::size_t filled = 0;
    for (const auto& w : weights) {
        below += w.second;
        const auto end = std::min(table.size(), static_cast<std::size_t>(below / total * table.size() + 0.5));
        for (; filled < end; ++filled) table[filled] = w.first;
    }
    for (; filled < table.size(); ++filled) table[filled] = weights.back().first;
    return table;
}

// Bytes: lower-case English text, its letters, spaces, punctuation and line ends at roughly
// their frequencies in prose (per thousand characters).
std::vector<unsigned int> text_table() {
    const char* letters = " etaoinshrdlucmwfgypbvkjxqz.,\n";
    const double per_mille[] = {180, 102, 75, 65, 62, 57, 57, 53, 50, 50, 34, 33, 23, 22, 20,
                                19,  18,  16, 16, 15, 12, 8,  6,  1,  1,  1,  1,  8,  8,  3};
    std::vector<std::pair<unsigned int, double>> weights;
    for (int i = 0; letters[i] != '\0'; ++i) weights.push_back({static_cast<unsigned char>(letters[i]), per_mille[i]});
    return quantile_table(weights);
}

// 16-bit values: a Zipf draw (the value of rank r has weight 1 / r), the ranks scattered over
// the bins by an odd multiplier (a bijection of 0 .. 65535).
std::vector<unsigned int> zipf_table() {
    std::vector<std::pair<unsigned int, double>> weights;
    for (unsigned int rank = 1; rank <= 65536; ++rank) weights.push_back({(rank * 40503u) & 0xffffu, 1.0 / rank});
    return quantile_table(weights);
}

unsigned int draw(Random& random, const InputCase& input, const std::vector<unsigned int>& table, int value_bytes) {
    const std::uint64_t r = random.next();
    if (input.equal_fraction < 0) return table[r >> (64 - kTableBits)];
    const double u = static_cast<double>(r >> 11) * 0x1.0p-53;
    const unsigned int mask = value_bytes == 1 ? 0xffu : 0xffffu;
    return u < input.equal_fraction ? kEqualValue : static_cast<unsigned int>(r >> 20) & mask;
}

// Fills values [first, last) of the problem: pieces of a fixed size, each seeded by its
// number, so that the values do not depend on how many threads draw them. Each value drawn is
// repeated 1 .. longest_run times (a run cut short at the end of the piece).
void fill(Problem& problem, const std::vector<unsigned int>& table, std::uint64_t seed, long long first,
          long long last) {
    Random random{seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(first)};
    const int longest_run = problem.input.longest_run;
    for (long long i = first; i < last;) {
        const unsigned int value = draw(random, problem.input, table, problem.value_bytes);
        const long long run = longest_run > 1 ? 1 + static_cast<long long>(random.next() % longest_run) : 1;
        for (const long long end = std::min(last, i + run); i < end; ++i) {
            if (problem.value_bytes == 1)
                problem.raw[i] = static_cast<unsigned char>(value);
            else
                std::memcpy(&problem.raw[2 * i], &value, 2);  // little-endian: the low two bytes
        }
    }
}

__global__ void fill_shared_memory_with_junk(unsigned int words) {
    extern __shared__ unsigned int junk[];
    for (unsigned int i = threadIdx.x; i < words; i += blockDim.x) junk[i] = 0xa5a5a5a5u + i;
}

// Leaves junk in the shared memory of every multiprocessor, as a previous kernel might.
void dirty_shared_memory() {
    int device = 0, bytes = 0;
    const int sms = wb::multiprocessor_count();
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    WB_CUDA_CHECK(
        cudaFuncSetAttribute(fill_shared_memory_with_junk, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    fill_shared_memory_with_junk<<<4 * sms, 1024, bytes>>>(static_cast<unsigned int>(bytes / 4));
    WB_CHECK_LAUNCH_AND_WAIT("fill_shared_memory_with_junk");
}

// What the check says when a kernel never finishes or stops with a fault.
wb::StuckKernelText stuck_text() {
    return {"a loop whose index never reaches the end (a stride of 0?)",
            "In this lesson the usual cause is an\n"
            "                       index outside the values or the bins.",
            wb::lesson_hints()};
}

// What a version with private bins costs without its bins: every thread reads its values and
// keeps none (`never` is no byte value), in a grid sized as the versions size theirs, with
// shared memory for 256 bins.
__global__ void read_values_only(const unsigned char* values, long long count, unsigned int* bins, unsigned int never) {
    extern __shared__ unsigned int untouched[];
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count; i += stride)
        if (values[i] == never) bins[0] = untouched[threadIdx.x];
}

// The least ratio of the time of `version` to that of `baseline`: the fastest of 15 batches of
// `batch` back-to-back runs of each, since other work on the GPU (another program's kernels) can
// only slow a batch down. A GPU busy throughout slows a whole attempt: up to three, the later
// ones only while the ratio is above `limit`.
double fastest_time_ratio(const std::function<void()>& version, const std::function<void()>& baseline, int batch,
                          double limit) {
    constexpr int kSamples = 15;
    double ratio = std::numeric_limits<double>::infinity();
    for (int attempt = 0; attempt < 3 && !(ratio <= limit); ++attempt) {
        const double version_ms = wb::measure_gpu_batches(kSamples, batch, [&](int) { version(); }).min_ms;
        const double baseline_ms = wb::measure_gpu_batches(kSamples, batch, [&](int) { baseline(); }).min_ms;
        ratio = std::min(ratio, version_ms / baseline_ms);
    }
    return ratio;
}

void run_read_values_only(const unsigned char* values, long long count, unsigned int* bins) {
    constexpr int kThreads = 256;  // as the versions' blocks
    const std::size_t shared = bin_count<unsigned char>() * sizeof(unsigned int);
    WB_CUDA_CHECK(cudaMemsetAsync(bins, 0, shared));  // as the versions zero their bins
    const int blocks = resident_grid(read_values_only, kThreads, shared, count);
    read_values_only<<<blocks, kThreads, shared>>>(values, count, bins, 256u);
    WB_CHECK_LAUNCH("read_values_only");
}

}  // namespace

std::vector<InputCase> benchmark_inputs() {
    return {{"uniform", 0.0},   {"equal-0.25", 0.25}, {"equal-0.5", 0.5}, {"equal-0.75", 0.75},
            {"equal-0.9", 0.9}, {"all-equal", 1.0},   {"text-like", -1.0}};
}

Problem make_problem(int value_bytes, long long count, const InputCase& input, std::uint64_t seed) {
    Problem problem;
    problem.value_bytes = value_bytes;
    problem.count = count;
    problem.input = input;
    problem.raw.resize(static_cast<std::size_t>(count) * value_bytes);
    const std::vector<unsigned int> table = value_bytes == 1 ? text_table() : zipf_table();
    constexpr long long kPiece = 1 << 22;
    const long long pieces = (count + kPiece - 1) / kPiece;
    const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w)
        threads.emplace_back([&, w] {
            for (long long p = w; p < pieces; p += workers)
                fill(problem, table, seed, p * kPiece, std::min(count, (p + 1) * kPiece));
        });
    for (std::thread& thread : threads) thread.join();
    // The CPU reference: every value adds one to its bin.
    problem.expected.assign(problem.bins(), 0u);
    if (value_bytes == 1) {
        for (unsigned char value : problem.raw) ++problem.expected[value];
    } else {
        for (long long i = 0; i < count; ++i) {
            unsigned short value = 0;
            std::memcpy(&value, &problem.raw[2 * i], 2);
            ++problem.expected[value];
        }
    }
    return problem;
}

DeviceValues upload(const Problem& problem, int offset_values) {
    const std::size_t offset = static_cast<std::size_t>(offset_values) * problem.value_bytes;
    wb::require_device_memory(problem.raw.size() + offset + (64u << 20), "the values");
    DeviceValues values{wb::DeviceBuffer<unsigned char>(problem.raw.size() + offset), offset};
    if (!problem.raw.empty())
        WB_CUDA_CHECK(
            cudaMemcpy(values.buffer.get() + offset, problem.raw.data(), problem.raw.size(), cudaMemcpyHostToDevice));
    return values;
}

void run_version(const Launch& launch, const Problem& problem, const DeviceValues& values, unsigned int* d_bins) {
    if (problem.value_bytes == 1)
        launch.bytes(static_cast<const unsigned char*>(values.values()), problem.count, d_bins);
    else
        launch.shorts(static_cast<const unsigned short*>(values.values()), problem.count, d_bins);
}

bool check_version(const std::string& name, const Launch& launch, const Problem& problem, const DeviceValues& values,
                   bool print) {
    // Not under compute-sanitizer (which scales the time limits): its runs look for races, and
    // filling all shared memory before every run would take them minutes.
    if (wb::check_time_scale() <= 1.0) dirty_shared_memory();
    wb::DeviceBuffer<unsigned int> bins(problem.bins());
    bins.poison();  // 0xFFFFFFFF in every bin: a version must zero the bins it counts into
    run_version(launch, problem, values, bins.get());
    wb::wait_for_kernel(name, wb::check_kernel_limit_s(), stuck_text());
    const std::vector<unsigned int> got = bins.to_host();
    // Counts are exact: no tolerance.
    const wb::CompareReport report = wb::compare(got.data(), problem.expected.data(), problem.bins(), wb::Tolerance{});
    if (print) {
        std::printf("    %-20s ", name.c_str());
        wb::print_report(report, "bins", 0);
    }
    if (print && !report.ok()) {
        const unsigned long long sum = std::accumulate(got.begin(), got.end(), 0ULL);
        std::printf("    %-20s the bins sum to %llu, %s the %lld values: %s is wrong\n", "", sum,
                    sum == static_cast<unsigned long long>(problem.count) ? "as many as" : "not", problem.count,
                    launch.part);
    }
    return report.ok();
}

wb::SteadyTiming time_version(const std::string& name, const std::string& label, const Launch& launch,
                              const Problem& problem, const DeviceValues& values, int repeats) {
    wb::DeviceBuffer<unsigned int> bins(problem.bins());
    wb::GpuTimer probe;  // one run first: a slow version gets batches of one run
    probe.start();
    run_version(launch, problem, values, bins.get());
    const int batch = probe.stop_ms() > 20.0 ? 1 : 5;
    return wb::measure_steadily(name, label, [&] {
        return wb::measure_gpu_batches(repeats, batch, [&](int) { run_version(launch, problem, values, bins.get()); });
    });
}

bool check_costs(const std::vector<wb::Version<Launch>>& versions, const std::vector<bool>& version_correct,
                 wb::CheckTally& tally) {
    if (wb::check_time_scale() > 1.0) return false;
    bool checked = false, announced = false;
    for (std::size_t v = 0; v < versions.size(); ++v) {
        const std::string& name = versions[v].name;
        const Launch& launch = versions[v].config;
        if (launch.cost == CostCase::none || !version_correct[v]) continue;
        checked = true;
        if (launch.cost == CostCase::private_bins) {
            if (!announced)
                std::printf("  the private bins' fixed cost, on 2048 equal bytes (8 blocks of 256 threads):\n");
            announced = true;
            tally.record(check_private_bins_cost(name, launch));
            continue;
        }
        check_loads_and_runs(name, launch, tally);
    }
    return checked;
}

bool check_private_bins_cost(const std::string& name, const Launch& launch) {
    constexpr long long kCount = 2048;  // 8 blocks of 256 threads, one value each
    const Problem problem = make_problem(1, kCount, {"all-equal", 1.0}, 1);
    const DeviceValues values = upload(problem, 0);
    const auto* d_values = static_cast<const unsigned char*>(values.values());
    wb::DeviceBuffer<unsigned int> bins(problem.bins());
    run_version(launch, problem, values, bins.get());  // once, watched: the timed runs are not
    wb::wait_for_kernel(name, wb::check_kernel_limit_s(), stuck_text());
    const double ratio =
        fastest_time_ratio([&] { run_version(launch, problem, values, bins.get()); },
                           [&] { run_read_values_only(d_values, kCount, bins.get()); }, 50, kPrivateBinsCostLimit);
    const bool ok = ratio <= kPrivateBinsCostLimit;
    std::printf("    %-20s %s: %.2fx the time of a kernel that only reads the values (at most %.1fx)\n", name.c_str(),
                ok ? "ok" : "FAILED", ratio, kPrivateBinsCostLimit);
    if (!ok)
        std::printf("    %-20s each block does far more than one pass over its private bins: does every\n"
                    "    %-20s thread zero (TODO 2a) and merge (TODO 2b) only its share of them?\n",
                    "", "");
    return ok;
}

namespace {

// Version 05's adds on kSpeedBytes equal bytes, against kMostAddsPerThread per thread; prints one line.
bool check_runs_added_once(const std::string& name) {
    const Problem problem = make_problem(1, kSpeedBytes, {"all-equal", 1.0}, 2);
    const DeviceValues values = upload(problem, 0);
    wb::DeviceBuffer<unsigned int> out(problem.bins());
    count_vector_runs_adds(static_cast<const unsigned char*>(values.values()), problem.count, out.get());
    wb::wait_for_kernel(name, wb::check_kernel_limit_s(), stuck_text());
    const std::vector<unsigned int> tallied = out.to_host();
    const unsigned long long adds = tallied[0], threads = tallied[1], most = kMostAddsPerThread * threads;
    const bool ok = adds <= most;
    std::printf("    runs, %s on %lld equal bytes: %llu adds by %llu threads (at most %llu): %s\n", name.c_str(),
                kSpeedBytes, adds, threads, most, ok ? "ok" : "FAILED");
    return ok;
}

// Version 05's rate against CUB's on kSpeedBytes uniform bytes; prints one line.
bool check_rate_against_cub(const std::string& name, const Launch& launch) {
    const Problem problem = make_problem(1, kSpeedBytes, {"uniform", 0.0}, 2);
    const DeviceValues values = upload(problem, 0);
    wb::DeviceBuffer<unsigned int> bins(problem.bins());
    run_version(launch, problem, values, bins.get());  // once, watched: the timed runs are not
    wb::wait_for_kernel(name, wb::check_kernel_limit_s(), stuck_text());
    const Launch cub{cub_histogram<unsigned char>, cub_histogram<unsigned short>, "CUB's call", CostCase::none};
    const double rate =
        1.0 / fastest_time_ratio([&] { run_version(launch, problem, values, bins.get()); },
                                 [&] { run_version(cub, problem, values, bins.get()); }, 10, 1.0 / kMinRateOfCub);
    const bool ok = rate >= kMinRateOfCub;
    std::printf("    speed, %s on %lld uniform bytes: %.2fx CUB's rate (at least %.1fx): %s\n", name.c_str(),
                kSpeedBytes, rate, kMinRateOfCub, ok ? "ok" : "FAILED");
    return ok;
}

}  // namespace

bool check_loads_and_runs(const std::string& name, const Launch& launch, wb::CheckTally& tally) {
    std::printf("  %s's runs and loads:\n", name.c_str());
    const bool runs = tally.record(check_runs_added_once(name));
    const bool loads = tally.record(check_rate_against_cub(name, launch));
    // What is wrong last, so that it ends the output before the verdict.
    if (!runs)
        std::printf("    %s counts right but adds equal bytes one by one: a run of equal chunks is one add (TODO 4b)\n",
                    name.c_str());
    if (!loads)
        std::printf(
            "    %s counts right but reads slowly: load 16 bytes at a time, several loads in flight (TODO 4a)\n",
            name.c_str());
    return runs && loads;
}
