// Lesson 08 harness: one halo exchange, checked value by value.
#include "harness/halo_check.h"

#include "harness/ranks.h"

#include "wb/cuda_graph.h"
#include "wb/device_buffer.h"

#include <cstdio>
#include <vector>

namespace {

// The value a cell of global row `row` and column `col` carries in the test.
double position(long row, long col) { return static_cast<double>(row) * 1e6 + static_cast<double>(col); }

}  // namespace

bool check_one_exchange(const Subdomain& sub, ncclComm_t comm) {
    const int owned = sub.owned.count();
    std::vector<double> band(static_cast<std::size_t>(sub.local_rows()) * sub.cols, -1.0);
    for (int r = 0; r < owned; ++r)
        for (int c = 0; c < sub.cols; ++c)
            band[static_cast<std::size_t>(kHaloRows + r) * sub.cols + c] = position(sub.owned.begin + r, c);
    wb::DeviceBuffer<double> device(band);
    wb::Stream stream;
    exchange_halos(sub, device.get(), comm, stream.get());
    wait_for_exchanges(stream.get());
    const std::vector<double> got = device.to_host();

    long wrong = 0;
    for (int local = 0; local < sub.local_rows(); ++local) {
        const bool upper = local < kHaloRows, lower = local >= kHaloRows + owned;
        if (!upper && !lower) continue;
        const long global = sub.owned.begin - kHaloRows + local;
        const bool has_neighbour = upper ? sub.rank > 0 : sub.rank < sub.ranks - 1;
        const int neighbour = upper ? sub.rank - 1 : sub.rank + 1;
        for (int c = 0; c < sub.cols; ++c) {
            const double expected = has_neighbour ? position(global, c) : -1.0;
            const double value = got[static_cast<std::size_t>(local) * sub.cols + c];
            if (value == expected) continue;
            if (wrong++ == 0) {
                if (has_neighbour)
                    std::printf("    rank %d: halo row %ld (from rank %d) [%d] = %.17g (expected %.17g)\n", sub.rank,
                                global, neighbour, c, value, expected);
                else
                    std::printf("    rank %d: halo row %d has no neighbour but was written: [%d] = %.17g\n", sub.rank,
                                local, c, value);
            }
        }
    }
    if (wrong) std::printf("    rank %d: %ld of %d halo values wrong\n", sub.rank, wrong, 2 * kHaloRows * sub.cols);
    std::fflush(stdout);
    const bool ok = all_ranks_agree(wrong == 0);
    if (world().root())
        std::printf("  one halo exchange on %d rank(s): %s\n", sub.ranks, ok ? "every halo row right" : "WRONG");
    return ok;
}
