/// @file helpers.h
/// @brief Lesson 14 harness: waiting for a kernel of the check, and small helpers shared by
/// the harness's files.
#pragma once

#include "wb/compare.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

/// Waits for the kernels queued so far (at most 20 s, scaled as the check's limits are): one
/// that never ends, or stops with a fault, ends the check with a FAILED verdict naming it.
void wait_for_part(const std::string& kernel);

/// "int" or "float", the CSV's precision column.
template <class T>
const char* type_name() {
    return std::is_integral_v<T> ? "int" : "float";
}

/// The reference's running sum: integers add modulo 2^32 (two's complement wrap-around, as
/// the GPU's int additions do), floats add in double; `magnitude` sums |x| for the tolerance.
template <class T>
struct RunningSum {
    std::uint32_t bits = 0;  ///< integers
    double sum = 0.0;        ///< floats
    double magnitude = 0.0;  ///< sum of |x| so far
    void add(T x) {
        const double value = static_cast<double>(x);
        magnitude += value < 0 ? -value : value;
        if constexpr (std::is_integral_v<T>)
            bits += static_cast<std::uint32_t>(x);
        else
            sum += value;
    }
    /// The sum as the GPU's type holds it, in a double (exact for 32-bit integers).
    double value() const {
        if constexpr (std::is_integral_v<T>)
            return static_cast<double>(static_cast<std::int32_t>(bits));
        else
            return sum;
    }
};

/// A check of one exercise part alone: compares `got` with `expected` (element i right within
/// scale[i]; an empty scale: within |expected[i]|), prints one line, the part, what was checked
/// and the report on `name` (its first wrong element and the count of wrong ones), and returns
/// whether every element was right.
template <class T>
bool compare_part(const char* part, const std::string& what, const std::vector<T>& got,
                  const std::vector<double>& expected, const std::vector<double>& scale, const char* name = "out") {
    const wb::CompareReport report = wb::compare(got.data(), expected.data(), static_cast<long>(got.size()),
                                                 wb::Tolerance{0.0, 1.0}, scale.empty() ? nullptr : scale.data());
    std::printf("  %-28s %-30s ", part, what.c_str());
    wb::print_report(report, name, 0);
    return report.ok();
}
