/// @file reference.h
/// @brief Lesson 14 harness: the random inputs, the CPU references and the tolerance of each
/// element. Host code alone: harness/tolerance_test.cpp tests the tolerance on the CPU.
#pragma once

#include "scan.h"

#include <cstdint>
#include <string>
#include <vector>

/// What is computed: a scan (exclusive or inclusive) or a compaction (with its predicate).
struct Operation {
    bool compaction = false;
    ScanKind kind = ScanKind::inclusive;
    Keep keep = Keep::half;
    std::string str() const;  ///< "exclusive scan", "compaction keeping half" ...
};

/// The CPU reference of one operation and the tolerance of each element.
struct Expected {
    std::vector<double> values;  ///< the exact result (integers: wrapped to 32 bits)
    std::vector<double> scale;   ///< the allowed error of each element (0 for integers)
    long long kept = -1;         ///< compaction: the count kept
};

/// The float inputs' grid: multiples of 2^-8.
constexpr double kFloatStep = 1.0 / 256;

/// Random inputs: integers over the whole 32-bit range (their sums wrap) with INT_MAX, INT_MIN,
/// 0 and -1 among them; floats that are multiples of kFloatStep in [-1, 1], with -0 and two
/// tiny values (the smallest denormal and -1e-30) among them.
template <class T>
std::vector<T> scan_input(long long n, std::uint64_t seed);

/// The reference of `operation` on x. Integer sums wrap around modulo 2^32. Floats are summed
/// in double and compared with float_scan_tolerance(x).
template <class T>
Expected scan_reference(const std::vector<T>& x, const Operation& operation);

/// The allowed error of each element of a float scan of x, exclusive or inclusive, whatever
/// the order of its additions. Where x is on the grid (multiples of kFloatStep in [-1, 1],
/// apart from a few tiny values) and no run of consecutive inputs sums to more than 2^16 in
/// magnitude, no addition of a scan can round: the tolerance is 4 times the tiny values' sum of
/// magnitudes (the scan's result is exact but for them). Otherwise it is depth_bound_tolerance(x).
std::vector<double> float_scan_tolerance(const std::vector<float>& x);

/// The classic bound for any tree of additions: element i may differ from the exact sum by
/// 2 gamma_k sum_{j <= i} |x_j|, gamma_k = k u / (1 - k u), u = 2^-24, k = scan_tolerance_terms(i).
std::vector<double> depth_bound_tolerance(const std::vector<float>& x);

/// The depth k of the additions that lead to output i of any scan here: at most 64 inside the
/// tile that holds i (48 items a thread, 10 levels of warp and block scans, a look-back window,
/// a carry) and one per tile of at least 128 elements before it.
long long scan_tolerance_terms(long long i);
