// Lesson 14 harness: exercise parts 1 and 2 checked alone (compiled with each variant's
// warp_scan.cuh and block_scan.cuh).
#include "harness/part_checks.h"

#include "block_scan.cuh"
#include "harness/helpers.h"
#include "harness/problem.h"

#include "wb/workbook.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

template <class T>
__global__ void warp_scan_kernel(const T* in, T* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = warp_inclusive_scan(in[i]);
}

// Two calls in a row with the same storage (a missing last barrier shows in the second).
template <class T>
__global__ void block_scan_kernel(const T* first, const T* second, T* out_first, T* out_second, T* totals) {
    __shared__ BlockScanStorage<T> storage;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    T total_first, total_second;
    out_first[i] = block_exclusive_scan(first[i], storage, total_first);
    out_second[i] = block_exclusive_scan(second[i], storage, total_second);
    if (threadIdx.x == 0) {
        totals[2 * blockIdx.x] = total_first;
        totals[2 * blockIdx.x + 1] = total_second;
    }
}

// Exclusive (or inclusive) sums of each group of `group` values, in double (integers wrapped),
// and the scale of the tolerance: gamma_16 * the sum of the magnitudes so far.
template <class T>
void group_sums(const std::vector<T>& x, int group, bool inclusive, std::vector<double>& sums,
                std::vector<double>& scale, std::vector<double>* totals) {
    const wb::Tolerance tolerance = wb::summation_tolerance<float>(16);
    for (std::size_t start = 0; start < x.size(); start += group) {
        RunningSum<T> sum;
        for (int k = 0; k < group; ++k) {
            if (!inclusive) sums.push_back(sum.value());
            sum.add(x[start + k]);
            if (inclusive) sums.push_back(sum.value());
            scale.push_back(std::is_integral_v<T> ? 0.0 : tolerance.rel * sum.magnitude);
        }
        if (totals) totals->push_back(sum.value());
    }
}

template <class T>
bool check_warp_scan(std::uint64_t seed) {
    const std::vector<T> x = scan_input<T>(32 * 64, seed);
    wb::DeviceBuffer<T> in(x), out(x.size());
    out.poison();
    warp_scan_kernel<T><<<static_cast<unsigned>(x.size() / 128), 128>>>(in.get(), out.get());
    wait_for_part("warp_scan_kernel");
    std::vector<double> sums, scale;
    group_sums(x, 32, true, sums, scale, nullptr);
    return compare_part("part 1 (warp_scan.cuh)", std::string("warp scans of ") + type_name<T>(), out.to_host(), sums,
                        scale);
}

template <class T>
bool check_block_scan(int threads, std::uint64_t seed) {
    const int blocks = 5;
    const std::vector<T> first = scan_input<T>(static_cast<long long>(threads) * blocks, seed);
    const std::vector<T> second = scan_input<T>(static_cast<long long>(threads) * blocks, seed + 1);
    wb::DeviceBuffer<T> d_first(first), d_second(second), out_first(first.size()), out_second(first.size());
    wb::DeviceBuffer<T> totals(2 * blocks);
    out_first.poison();
    out_second.poison();
    totals.poison();
    block_scan_kernel<T>
        <<<blocks, threads>>>(d_first.get(), d_second.get(), out_first.get(), out_second.get(), totals.get());
    wait_for_part("block_scan_kernel");
    std::vector<double> sums_first, scale_first, sums_second, scale_second, totals_first, totals_second;
    group_sums(first, threads, false, sums_first, scale_first, &totals_first);
    group_sums(second, threads, false, sums_second, scale_second, &totals_second);
    // The totals' tolerance: that of the last element of each block.
    std::vector<double> expected_totals, totals_scale;
    for (int b = 0; b < blocks; ++b) {
        expected_totals.push_back(totals_first[b]);
        expected_totals.push_back(totals_second[b]);
        totals_scale.push_back(scale_first[(b + 1) * threads - 1] * 2.0);
        totals_scale.push_back(scale_second[(b + 1) * threads - 1] * 2.0);
    }
    const std::string what = std::string(type_name<T>()) + ", blocks of " + std::to_string(threads);
    bool ok = compare_part("part 2 (block_scan.cuh)", what + ", call 1", out_first.to_host(), sums_first, scale_first);
    ok &= compare_part("part 2 (block_scan.cuh)", what + ", call 2", out_second.to_host(), sums_second, scale_second);
    ok &= compare_part("part 2 (block_scan.cuh)", what + ", totals", totals.to_host(), expected_totals, totals_scale);
    return ok;
}

}  // namespace

bool check_warp_scans(std::uint64_t seed) {
    bool ok = check_warp_scan<int>(seed);
    ok &= check_warp_scan<float>(seed + 1);
    return ok;
}

bool check_block_scans(std::uint64_t seed) {
    bool ok = true;
    for (int threads : {32, 96, 256, 1024}) {
        ok &= check_block_scan<int>(threads, seed + threads);
        ok &= check_block_scan<float>(threads, seed + threads + 7);
    }
    return ok;
}
