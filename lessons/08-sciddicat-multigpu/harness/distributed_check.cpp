// Lesson 08 harness: the decomposition check, gathering the ranks' rows, the invariants.
#include "harness/distributed_check.h"

#include "decomposition.h"
#include "harness/ranks.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

void validate_grid_sizes(const wb::Options& options, int ranks) {
    if (options.sizes.size() > 1) wb::usage_error("--sizes: one grid only (ROWSxCOLS)");
    for (const auto& dims : options.sizes) {
        if (dims.size() != 2) wb::usage_error("--sizes: give the synthetic grid as ROWSxCOLS, e.g. 1001x777");
        if (dims[0] < static_cast<long>(ranks) * kMinRowsPerRank)
            wb::usage_error("--sizes: " + std::to_string(ranks) + " ranks need at least " +
                            std::to_string(ranks * kMinRowsPerRank) + " rows");
        if (dims[0] * dims[1] > (1L << 31)) wb::usage_error("--sizes: at most 2^31 cells");
    }
}

void add_debris_across_boundaries(sciddicat::Terrain& terrain, int ranks) {
    const int rows = terrain.header.rows, cols = terrain.header.cols;
    for (int r = 1; r < ranks; ++r) {
        const int boundary = rows_of_rank(r, ranks, rows).begin;
        for (int i = std::max(1, boundary - 3); i < std::min(rows - 1, boundary + 3); ++i)
            for (int j = cols / 3; j < 2 * cols / 3; ++j) {
                const std::size_t k = static_cast<std::size_t>(i) * cols + j;
                terrain.source[k] += 2.0;
                terrain.dem[k] += 2.0;
            }
    }
}

namespace {

bool check_decomposition_of(int rows, int ranks) {
    int expected_begin = 0, smallest = rows, largest = 0;
    for (int r = 0; r < ranks; ++r) {
        const RowRange range = rows_of_rank(r, ranks, rows);
        if (range.begin != expected_begin || range.end < range.begin) {
            std::printf("  rows_of_rank(%d, %d, %d) = [%d, %d): should start at row %d\n", r, ranks, rows, range.begin,
                        range.end, expected_begin);
            return false;
        }
        smallest = std::min(smallest, range.count());
        largest = std::max(largest, range.count());
        expected_begin = range.end;
    }
    if (expected_begin != rows || largest - smallest > 1) {
        std::printf("  %d rows over %d ranks: covered up to row %d of %d, block sizes %d..%d (must differ by <= 1)\n",
                    rows, ranks, expected_begin, rows, smallest, largest);
        return false;
    }
    return true;
}

}  // namespace

bool check_decomposition(bool verbose) {
    long cases = 0, wrong = 0;
    for (int ranks = 1; ranks <= 8; ++ranks)
        for (int rows : {4, 5, 7, 16, 33, 101, 610, 1001, 16384}) {
            if (rows < ranks * kMinRowsPerRank) continue;
            ++cases;
            if (!check_decomposition_of(rows, ranks)) ++wrong;
        }
    if (verbose) {
        if (wrong)
            std::printf("Decomposition: %ld of %ld cases wrong\n", wrong, cases);  // the verdict names the hints
        else
            std::printf("Decomposition: all %ld cases cover every row once, in order, balanced\n", cases);
    }
    return wrong == 0;
}

std::vector<double> gather_rows(const std::vector<double>& mine, int rows, int cols) {
    const int ranks = world().ranks;
    std::vector<int> counts(ranks), displacements(ranks);
    for (int r = 0; r < ranks; ++r) {
        const RowRange range = rows_of_rank(r, ranks, rows);
        counts[r] = range.count() * cols;
        displacements[r] = range.begin * cols;
    }
    std::vector<double> all(world().root() ? static_cast<std::size_t>(rows) * cols : 0);
    WB_MPI_CHECK(MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts.data(),
                             displacements.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD));
    return all;
}

bool check_invariants(const std::vector<double>& initial, const std::vector<double>& result, int rows, int cols) {
    long double before = 0, after = 0;
    long border_changed = 0, negative = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const std::size_t k = static_cast<std::size_t>(i) * cols + j;
            before += initial[k];
            after += result[k];
            const bool border = i == 0 || j == 0 || i == rows - 1 || j == cols - 1;
            if (border && result[k] != initial[k]) ++border_changed;
            if (result[k] < -1e-12) ++negative;
        }
    const double drift = before > 0 ? static_cast<double>(std::fabs(after - before) / before) : 0.0;
    std::printf("    volume %.9Lg -> %.9Lg (relative change %.2g), border cells changed: %ld, negative cells: %ld\n",
                before, after, drift, border_changed, negative);
    return drift <= 1e-9 && border_changed == 0 && negative == 0;
}
