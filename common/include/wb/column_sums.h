/// @file column_sums.h
/// @brief The reference of column sums, in the course's convention (as wb::MatmulProblem): each
/// exact sum in long double, rounded once to double, and its scale sum |a| for the tolerance.
#pragma once

#include "wb/compare.h"

#include <cmath>
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
