// Judging a GPU run of SciddicaT against the serial one.
#include "sciddicat/check.h"

#include "wb/compare.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>

namespace sciddicat {

std::uint64_t bit_fingerprint(const std::vector<double>& values) {
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
    for (double v : values) {
        unsigned char bytes[sizeof v];
        std::memcpy(bytes, &v, sizeof v);
        for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
    }
    return hash;
}

double total_volume(const std::vector<double>& sh) {
    long double sum = 0.0L;
    for (double v : sh) sum += v;
    return static_cast<double>(sum);
}

bool check_against_serial(const std::vector<double>& got, const std::vector<double>& expected,
                          const std::vector<double>& initial, int rows, int cols) {
    // Tolerance: the model has no a*b+c that FMA contraction could change except (a-b)*0.5 added
    // to a sum, where the product by 0.5 is exact; GPU and CPU results agree to the last bit in
    // practice. 1e-9 m leaves room for a different p_r (one rounding per step, 4000 steps).
    const wb::CompareReport report =
        wb::compare(got.data(), expected.data(), static_cast<long>(got.size()), wb::Tolerance{1e-9, 1e-12});
    std::printf("      Sh vs serial: ");
    wb::print_report(report, "Sh", cols);
    const double v0 = total_volume(initial), v1 = total_volume(got);
    const double drift = std::fabs(v1 - v0) / std::max(std::fabs(v0), 1e-300);
    const bool volume_ok = drift <= 1e-9;  // NaN fails
    long border_changed = 0, negative = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const std::size_t k = static_cast<std::size_t>(i) * cols + j;
            const bool border = i == 0 || j == 0 || i == rows - 1 || j == cols - 1;
            if (border && !(got[k] == initial[k])) ++border_changed;
            if (!(got[k] >= -1e-10)) ++negative;
        }
    std::printf("      volume %.9g -> %.9g (relative drift %.1e, limit 1e-9) %s; border cells changed: %ld; "
                "negative cells: %ld\n",
                v0, v1, drift, volume_ok ? "ok" : "WRONG", border_changed, negative);
    return report.ok() && volume_ok && border_changed == 0 && negative == 0;
}

}  // namespace sciddicat
