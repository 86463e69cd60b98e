// Lesson 14 harness: the device problem, the contenders' launches (CUB's among them), the CPU
// references and the comparisons (see problem.h).
#include "harness/problem.h"

#include "harness/helpers.h"
#include "predicate.cuh"

#include "wb/kernel_watchdog.h"
#include "wb/random.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <limits>
#include <random>

namespace {

template <class T>
struct KeepOp {
    Keep keep;
    __host__ __device__ bool operator()(const T& x) const { return keeps(x, keep); }
};

// Launches CUB's scan or selection (with d_temp null: only sets `bytes` to the storage it needs).
template <class T>
void run_cub(void* d_temp, std::size_t& bytes, const T* in, T* out, long long n, const Operation& operation,
             int* d_kept) {
    if (operation.compaction)
        WB_CUDA_CHECK(cub::DeviceSelect::If(d_temp, bytes, in, out, d_kept, n, KeepOp<T>{operation.keep}));
    else if (operation.kind == ScanKind::inclusive)
        WB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, bytes, in, out, n));
    else
        WB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, bytes, in, out, n));
}

const wb::StuckKernelText kStuck{"a thread may wait for a tile status\n"
                                 "                       that is never published, or a loop never ends",
                                 "In this lesson the usual cause is an\n"
                                 "                       index past the end of an array (check i < n).",
                                 "See the hints on the lesson 14 page."};

}  // namespace

void wait_for_part(const std::string& kernel) { wb::wait_for_kernel(kernel, wb::check_kernel_limit_s(), kStuck); }

std::string Operation::str() const {
    if (!compaction) return kind == ScanKind::inclusive ? "inclusive scan" : "exclusive scan";
    return keep == Keep::all    ? "compaction keeping all"
           : keep == Keep::none ? "compaction keeping none"
                                : "compaction keeping half";
}

std::string part_of(Impl impl, const Operation& operation) {
    if (impl == Impl::single_pass) return operation.compaction ? "single-pass compaction" : "single-pass scan";
    if (impl == Impl::cub) return operation.compaction ? "cub::DeviceSelect::If" : "cub::DeviceScan";
    return operation.compaction ? "part 4 (compact.cu)" : "part 3 (scan.cu)";
}

std::size_t device_bytes(long long n) {
    const std::size_t elements = static_cast<std::size_t>(n);
    // in, out, the tile sums, compact()'s scratch, the status words, and CUB's storage (below
    // the size of one more array)
    return elements * 4 * 3 + static_cast<std::size_t>(look_back_words(n)) * 8 + (64u << 20);
}

template <class T>
DeviceProblem<T>::DeviceProblem(const std::vector<T>& input)
    : n(static_cast<long long>(input.size())),
      in(input),
      out(input.size()),
      tile_sums(static_cast<std::size_t>(scan_tiles(n))),
      scratch(static_cast<std::size_t>(compact_scratch(n))),
      kept(1),
      status(static_cast<std::size_t>(look_back_words(n))) {
    for (const Operation& operation :
         {Operation{false, ScanKind::inclusive, Keep::all}, Operation{false, ScanKind::exclusive, Keep::all},
          Operation{true, ScanKind::inclusive, Keep::half}}) {
        std::size_t bytes = 0;
        run_cub<T>(nullptr, bytes, in.get(), out.get(), n, operation, kept.get());
        cub_bytes = std::max(cub_bytes, bytes);
    }
    cub_temp = wb::DeviceBuffer<unsigned char>(cub_bytes);
}

template <class T>
void DeviceProblem<T>::run(Impl impl, const Operation& operation) {
    const LookBackState state{status.get(), static_cast<long long>(status.count())};
    if (impl == Impl::cub) {
        std::size_t bytes = cub_bytes;
        run_cub<T>(cub_temp.get(), bytes, in.get(), out.get(), n, operation, kept.get());
    } else if (impl == Impl::single_pass) {
        if (operation.compaction)
            single_pass_compact<T>(in.get(), out.get(), n, operation.keep, state, kept.get());
        else
            single_pass_scan<T>(in.get(), out.get(), n, operation.kind, state);
    } else if (operation.compaction) {
        compact<T>(in.get(), out.get(), n, operation.keep, scratch.get(), kept.get());
    } else {
        three_kernel_scan<T>(in.get(), out.get(), n, operation.kind, tile_sums.get());
    }
}

long long scan_tolerance_terms(long long i) { return 64 + i / 128 + 1; }

template <class T>
Expected scan_reference(const std::vector<T>& x, const Operation& operation) {
    Expected expected;
    const double u = std::numeric_limits<float>::epsilon() / 2.0;  // float's unit roundoff
    RunningSum<T> sum;
    expected.values.reserve(x.size());
    if (operation.compaction) {
        for (T value : x)
            if (keeps(value, operation.keep)) expected.values.push_back(static_cast<double>(value));
        expected.kept = static_cast<long long>(expected.values.size());
        expected.scale.assign(expected.values.size(), 0.0);  // copied, never rounded
        return expected;
    }
    expected.scale.reserve(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (operation.kind == ScanKind::exclusive) expected.values.push_back(sum.value());
        sum.add(x[i]);
        if (operation.kind == ScanKind::inclusive) expected.values.push_back(sum.value());
        // gamma_k = k u / (1 - k u), doubled for safety as wb::summation_tolerance does.
        const double ku = static_cast<double>(scan_tolerance_terms(static_cast<long long>(i))) * u;
        expected.scale.push_back(std::is_integral_v<T> ? 0.0 : 2.0 * ku / (1.0 - ku) * sum.magnitude);
    }
    return expected;
}

template <class T>
bool compare_result(DeviceProblem<T>& problem, const Expected& expected, const Operation& operation,
                    const std::string& label) {
    std::printf("  %-52s ", label.c_str());
    if (operation.compaction) {
        int kept = -1;
        problem.kept.download(&kept, 1);
        if (kept != expected.kept) {
            std::printf("kept %d elements (expected %lld)\n", kept, expected.kept);
            return false;
        }
    }
    const std::vector<T> got = problem.out.to_host();
    const long count = static_cast<long>(expected.values.size());
    const wb::CompareReport report =
        wb::compare(got.data(), expected.values.data(), count, wb::Tolerance{0.0, 1.0}, expected.scale.data());
    if (count == 0) {
        std::printf("kept none, as expected\n");
        return true;
    }
    wb::print_report(report, "out", 0);
    return report.ok();
}

template <class T>
std::vector<T> scan_input(long long n, std::uint64_t seed) {
    std::vector<T> x(static_cast<std::size_t>(n));
    std::mt19937_64 generator(seed);
    if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<int> uniform(INT_MIN, INT_MAX);
        for (T& value : x) value = uniform(generator);
        const T edges[] = {INT_MAX, INT_MIN, 0, -1, 1, INT_MAX};
        for (std::size_t k = 0; k < 6 && k < x.size(); ++k) x[(k * 7919) % x.size()] = edges[k];
    } else {
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        for (T& value : x) value = uniform(generator);
        const T edges[] = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -1e-30f, 1.0f, -1.0f};
        for (std::size_t k = 0; k < 6 && k < x.size(); ++k) x[(k * 7919) % x.size()] = edges[k];
    }
    return x;
}

template struct DeviceProblem<int>;
template struct DeviceProblem<float>;
template Expected scan_reference<int>(const std::vector<int>&, const Operation&);
template Expected scan_reference<float>(const std::vector<float>&, const Operation&);
template bool compare_result<int>(DeviceProblem<int>&, const Expected&, const Operation&, const std::string&);
template bool compare_result<float>(DeviceProblem<float>&, const Expected&, const Operation&, const std::string&);
template std::vector<int> scan_input<int>(long long, std::uint64_t);
template std::vector<float> scan_input<float>(long long, std::uint64_t);
