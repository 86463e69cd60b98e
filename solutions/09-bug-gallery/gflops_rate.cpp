// Bug gallery, program gflops-unit: reference version.
#include "gflops_rate.h"

// >>> FIX: the rate of an n x n matrix product in GFLOP/s
namespace {
constexpr double kGiga = 1e9;  // 10^9 operations in one GFLOP (1e8 would inflate every rate tenfold)
}

double gflops_of_matmul(long n, double seconds) {
    const double order = static_cast<double>(n);
    const double operations = 2.0 * order * order * order;  // one multiply and one add per term
    return operations / seconds / kGiga;
}
// <<< FIX
