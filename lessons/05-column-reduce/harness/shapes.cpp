// Lesson 05: the matrix shapes of --sizes, each checked against the lesson's limits.
#include "harness/shapes.h"

#include "wb/workbook.h"

#include <cstdio>
#include <string>

// Every shape is M x N with N <= max_columns and a matrix the host can hold (twice, with the
// reference).
std::vector<Shape> shapes_from(const wb::Options& options, const std::vector<Shape>& fallback, long max_columns) {
    if (options.sizes.empty()) return fallback;
    std::vector<Shape> shapes;
    const std::size_t host_bytes = wb::host_memory_bytes();
    for (const wb::RowsCols& size : wb::rows_by_cols(options, {}, "shape", "160000x8")) {
        if (size.cols > max_columns)
            wb::usage_error("--sizes: n = " + std::to_string(size.cols) +
                            " columns; this lesson sums tall, narrow "
                            "matrices with at most " +
                            std::to_string(max_columns) + " columns");
        const std::size_t bytes = wb::checked_bytes(sizeof(double), size.rows, size.cols);
        if (host_bytes > 0 && bytes > host_bytes / 2) {
            char message[200];
            std::snprintf(message, sizeof message,
                          "--sizes: a %s matrix of doubles needs %.1f GiB of memory; this machine has %.1f GiB",
                          size.str().c_str(), wb::gib(bytes), wb::gib(host_bytes));
            wb::usage_error(message);
        }
        shapes.push_back(Shape{size.rows, static_cast<int>(size.cols)});
    }
    return shapes;
}
