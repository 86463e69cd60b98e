// Version 3's index arithmetic simulated on the CPU (see high2_coverage.h).
#include "high2_coverage.h"

#include "high2_mapping.h"

#include "wb/exit_codes.h"

#include <cstdio>
#include <vector>

namespace {

// Coverage does not depend on m beyond the rounding of the segment length: a few thousand
// rows (more than the 1024 segments, not a multiple of them) settle it for every m.
constexpr long long kRowsThatSettleIt = 3 * 1024 + 5;

}  // namespace

High2Coverage high2_coverage(long long m, int n) {
    High2Coverage coverage;
    std::vector<int> times(static_cast<std::size_t>(m) * n, 0);
    for (int bx = 0; bx < kHigh2Blocks; ++bx)
        for (int ty = 0; ty < kHigh2BlockY; ++ty)
            for (int tx = 0; tx < kHigh2BlockX; ++tx) {
                const High2Work work = high2_work(m, n, bx, tx, ty);
                if (!work.defined) {
                    coverage.divides_by_zero = true;
                    return coverage;
                }
                if (work.column >= n) continue;  // the kernel's bounds test
                for (long long row = work.row_begin; row < work.row_end; ++row) ++times[row * n + work.column];
            }
    for (int t : times) {
        if (t == 0) ++coverage.missing;
        if (t > 1) coverage.repeated += t - 1;
    }
    return coverage;
}

bool high2_covers_matrix(int n) { return high2_coverage(kRowsThatSettleIt, n).ok(); }

void print_high2_coverage(int n) {
    const long long m = kRowsThatSettleIt;
    const High2Coverage coverage = high2_coverage(m, n);
    if (coverage.divides_by_zero) {
        std::printf("high2 with n = %d: n / 8 = %d columns per block; the index arithmetic divides by zero "
                    "(it needs 8 <= n <= 71)\n",
                    n, n / kHigh2BlockX);
    } else if (coverage.ok()) {
        std::printf("high2 with n = %d: every element is summed exactly once: correct\n", n);
    } else {
        std::printf("high2 with n = %d (m = %lld): %lld elements never summed, %lld summed more than once: wrong\n", n,
                    m, coverage.missing, coverage.repeated);
    }
}

int show_high2_coverage(const wb::Options& options) {
    print_high2_coverage(static_cast<int>(options.integer("high2-coverage")));
    return wb::kExitPass;
}
