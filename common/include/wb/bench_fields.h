/// @file bench_fields.h
/// @brief The fields that every row of one benchmark run shares, set in one call (for
/// wb::BenchRows), as wb::gemm_bench_fields does for the matrix products.
#pragma once

#include "wb/csv.h"

#include <string>

namespace wb {

/// A row holding the fields every row of one run shares: the lesson (or program), the precision
/// as the CSV names it ("double"), the unit of the rate ("GB/s") and the device. The caller sets
/// the rest that its rows share (shape, ceiling ...) on the result.
inline BenchRow bench_fields(const std::string& lesson, const std::string& precision, const std::string& rate_unit,
                             const std::string& device) {
    BenchRow row;
    row.lesson = lesson;
    row.precision = precision;
    row.rate_unit = rate_unit;
    row.device = device;
    return row;
}

}  // namespace wb
