/// @file column_sums.h
/// @brief The reference of column sums, in the course's convention (as wb::MatmulProblem): each
/// exact sum in long double, rounded once to double, and its scale sum |a| for the tolerance.
#pragma once

#include "wb/compare.h"
#include "wb/random.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace wb {

/// Expected column sums of a row-major rows x cols matrix of doubles.
struct ColumnSumsReference {
    long rows = 0;                 ///< terms in each sum
    std::vector<double> expected;  ///< one exact sum per column
    std::vector<double> scale;     ///< sum of |a| per column: the scale of rounding errors

    /// Compares `got` (one sum per column) with the expected sums. A double sum of `rows` terms,
    /// in any order, is within about rows * 2^-53 * sum |a| of the exact one;
    /// wb::summation_tolerance doubles that bound.
    CompareReport compare(const std::vector<double>& got) const {
        return wb::compare(got.data(), expected.data(), static_cast<long>(expected.size()),
                           summation_tolerance<double>(rows), scale.data());
    }
};

/// Fills a matrix for a column-sum check: random values whose magnitude is at least 0.5 (uniform
/// in [-1, -0.5) and [0.5, 1)). Then a lost or doubled row changes a sum by at least 0.5, while
/// the tolerance, 2 * rows * 2^-53 * sum |a| <= 2 * rows^2 * 2^-53, stays below 0.01 for up to
/// 6.7 million rows and below 0.5 up to about 47 million: every lost row is caught. (Values
/// near zero, as uniform in [-1, 1) gives, could be lost without the check noticing.)
inline void fill_column_sum_inputs(std::vector<double>& values, std::uint64_t seed) {
    fill_random(values, seed);
    for (double& v : values) v = (v < 0.0 ? -0.5 : 0.5) + v / 2.0;
}

/// The column sums of `matrix` (rows x cols, row-major), accumulated in long double.
inline ColumnSumsReference column_sums_reference(const std::vector<double>& matrix, long rows, long cols) {
    std::vector<long double> sums(cols, 0.0L), magnitude(cols, 0.0L);
    for (long row = 0; row < rows; ++row) {
        const double* values = matrix.data() + row * cols;
        for (long col = 0; col < cols; ++col) {
            sums[col] += values[col];
            magnitude[col] += std::fabs(values[col]);
        }
    }
    ColumnSumsReference reference;
    reference.rows = rows;
    for (long col = 0; col < cols; ++col) {
        reference.expected.push_back(static_cast<double>(sums[col]));
        reference.scale.push_back(static_cast<double>(magnitude[col]));
    }
    return reference;
}

}  // namespace wb
