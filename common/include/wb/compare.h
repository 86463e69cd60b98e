/// @file compare.h
/// @brief Comparing a result against a reference, element by element.
///
/// An element passes when |got - expected| <= abs + rel * scale, where scale is the element's
/// magnitude: |expected| by default, or a caller-supplied bound such as sum_k |a_ik * b_kj| for
/// a matrix product (cancellation can make |expected| tiny while rounding errors are not).
/// NaN never passes, so poisoned (unwritten) elements are always caught.
#pragma once

#include <cstdio>
#include <limits>
#include <string>

namespace wb {

/// Absolute and relative tolerance of a comparison.
struct Tolerance {
    double abs = 0.0;  ///< absolute part
    double rel = 0.0;  ///< relative part, times the element's scale
};

/// Tolerance for a sum of `terms` products computed in precision T, in any order, with or
/// without fused multiply-add: the classic bound gamma_n = n*u/(1-n*u) on sum |a*b|, doubled
/// for safety. Use it with a scale array holding sum |a*b| per element.
template <class T>
Tolerance summation_tolerance(long terms) {
    const double u = std::numeric_limits<T>::epsilon() / 2.0;  // unit roundoff
    const double n = static_cast<double>(terms < 1 ? 1 : terms);
    return Tolerance{std::numeric_limits<T>::min(), 2.0 * n * u / (1.0 - n * u)};
}

/// What a comparison found.
struct CompareReport {
    long total = 0;               ///< elements compared
    long wrong = 0;               ///< elements outside the tolerance
    long first_wrong = -1;        ///< linear index of the first wrong element, -1 if none
    double first_got = 0.0;       ///< value of the first wrong element
    double first_expected = 0.0;  ///< what it should have been
    double max_abs_error = 0.0;   ///< largest |got - expected|
    double max_rel_error = 0.0;   ///< relative to the element's scale
    /// True when something was compared and nothing was wrong.
    bool ok() const { return wrong == 0 && total > 0; }
};

/// Compares `count` elements. `scale` may be null (then |expected| is used).
template <class T, class R>
CompareReport compare(const T* got, const R* expected, long count, Tolerance tol, const double* scale = nullptr) {
    CompareReport report;
    report.total = count;
    for (long i = 0; i < count; ++i) {
        const double g = static_cast<double>(got[i]);
        const double e = static_cast<double>(expected[i]);
        const double s = scale ? scale[i] : (e < 0 ? -e : e);
        const double err = g > e ? g - e : e - g;
        const bool within = err <= tol.abs + tol.rel * s;  // false for NaN
        if (err == err) {
            if (err > report.max_abs_error) report.max_abs_error = err;
            const double rel = s > 0 ? err / s : (err > 0 ? std::numeric_limits<double>::infinity() : 0.0);
            if (rel > report.max_rel_error) report.max_rel_error = rel;
        } else {
            report.max_abs_error = report.max_rel_error = std::numeric_limits<double>::quiet_NaN();
        }
        if (!within) {
            if (report.wrong == 0) {
                report.first_wrong = i;
                report.first_got = g;
                report.first_expected = e;
            }
            ++report.wrong;
        }
    }
    return report;
}

/// Formats the element index as name[row][col] (cols > 0) or name[i] (cols == 0).
std::string element_name(const char* name, long index, long cols);

/// Prints e.g. "C[3][5] = 12 (expected 14); 3572 of 3600 wrong; max abs error 2, max rel error 0.5"
/// or "C: all 3600 elements correct (max abs error 1e-15, max rel error 2e-16)".
void print_report(const CompareReport& report, const char* name, long cols, std::FILE* out = stdout);

}  // namespace wb
