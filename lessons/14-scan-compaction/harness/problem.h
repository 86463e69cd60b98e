/// @file problem.h
/// @brief Lesson 14 harness: one input on the device, every contender run on it, and the CPU
/// references they are compared with.
#pragma once

#include "scan.h"

#include "wb/compare.h"
#include "wb/device_buffer.h"

#include <cstdint>
#include <string>
#include <vector>

/// Who computes: the exercise's kernels, the single-pass reference (going further) or CUB.
enum class Impl { three_kernel, single_pass, cub };

/// What is computed: a scan (exclusive or inclusive) or a compaction (with its predicate).
struct Operation {
    bool compaction = false;
    ScanKind kind = ScanKind::inclusive;
    Keep keep = Keep::half;
    std::string str() const;  ///< "exclusive scan", "compaction keeping half" ...
};

/// The exercise part an implementation and operation check (for the check's messages).
std::string part_of(Impl impl, const Operation& operation);

/// The input and every buffer the contenders write, sized once for `n` elements.
template <class T>
struct DeviceProblem {
    explicit DeviceProblem(const std::vector<T>& input);
    long long n;
    wb::DeviceBuffer<T> in, out;
    wb::DeviceBuffer<T> tile_sums;                ///< the three-kernel scan's
    wb::DeviceBuffer<int> scratch, kept;          ///< compact()'s scratch and the count kept
    wb::DeviceBuffer<unsigned long long> status;  ///< the single-pass kernels' status words
    wb::DeviceBuffer<unsigned char> cub_temp;     ///< CUB's temporary storage
    std::size_t cub_bytes = 0;
    /// Launches one contender on `in`, writing `out` (and `kept`); does not wait.
    void run(Impl impl, const Operation& operation);
};

/// The device memory DeviceProblem<T> takes for n elements (4-byte T), to check before.
std::size_t device_bytes(long long n);

/// The CPU reference of one operation and the tolerance of each element.
struct Expected {
    std::vector<double> values;  ///< the exact result (integers: wrapped to 32 bits)
    std::vector<double> scale;   ///< the allowed error of each element (0 for integers)
    long long kept = -1;         ///< compaction: the count kept
};

/// The reference of `operation` on x. Integer sums wrap around modulo 2^32. Floats are summed
/// in double; element i may differ by gamma_k * sum_{j <= i} |x_j| (scan_tolerance_terms).
template <class T>
Expected scan_reference(const std::vector<T>& x, const Operation& operation);

/// The depth k of the additions that lead to output i of any scan here: at most 64 inside the
/// tile that holds i (48 items a thread, 10 levels of warp and block scans, a look-back window,
/// a carry) and one per tile of at least 128 elements before it.
long long scan_tolerance_terms(long long i);

/// Compares the device result of `problem` with `expected`: prints one line (with the first
/// wrong element and the count of wrong ones) after `label` and returns whether it is right.
template <class T>
bool compare_result(DeviceProblem<T>& problem, const Expected& expected, const Operation& operation,
                    const std::string& label);

/// Random inputs: integers over the whole 32-bit range (their sums wrap) with INT_MAX, INT_MIN,
/// 0 and -1 among them; floats uniform in [-1, 1) with zeros, -0 and tiny values among them.
template <class T>
std::vector<T> scan_input(long long n, std::uint64_t seed);
