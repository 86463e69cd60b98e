// Bug gallery, program gflops-unit. The check below says the rates are wrong: find out why.
//   scripts/check 09-bug-gallery.gflops-unit
// Hints: docs page "Lesson 09: bug gallery", or  scripts/progress hint 09-bug-gallery.gflops-unit
#include "gflops_rate.h"

// >>> FIX: the rate of an n x n matrix product in GFLOP/s
namespace {
constexpr double kGiga = 100000000.0;  // operations in one GFLOP
}

double gflops_of_matmul(long n, double seconds) {
    const double order = static_cast<double>(n);
    const double operations = 2.0 * order * order * order;  // one multiply and one add per term
    return operations / seconds / kGiga;
}
// <<< FIX
