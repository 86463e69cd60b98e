// Lesson 14 harness: the device problem, the contenders' launches (CUB's among them) and the
// comparisons with the CPU references (see problem.h).
#include "harness/problem.h"

#include "harness/helpers.h"
#include "predicate.cuh"

#include "wb/kernel_watchdog.h"
#include "wb/lesson.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>

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

// What the check says when a kernel never finishes or stops with a fault.
wb::StuckKernelText stuck_text() {
    return {"a thread may wait for a tile status or\n"
            "                       a flag that is never published, or a loop never ends",
            "In this lesson the usual cause is an\n"
            "                       index past the end of an array (check i < n).",
            wb::lesson_hints()};
}

}  // namespace

void wait_for_part(const std::string& kernel) { wb::wait_for_kernel(kernel, wb::check_kernel_limit_s(), stuck_text()); }

std::string part_of(Impl impl, const Operation& operation) {
    if (impl == Impl::single_pass)
        return operation.compaction ? "part 5, single-pass compaction" : "part 5, single-pass scan";
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

template struct DeviceProblem<int>;
template struct DeviceProblem<float>;
template bool compare_result<int>(DeviceProblem<int>&, const Expected&, const Operation&, const std::string&);
template bool compare_result<float>(DeviceProblem<float>&, const Expected&, const Operation&, const std::string&);
