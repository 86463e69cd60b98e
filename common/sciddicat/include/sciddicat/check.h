/// @file check.h
/// @brief Judging a GPU run of SciddicaT: its final thickness against the serial one, and the
/// model's invariants.
#pragma once

#include <cstdint>
#include <vector>

namespace sciddicat {

/// Compares `got` with the serial result `expected` cell by cell (1e-9 m absolute plus 1e-12
/// relative: room for one rounding per step, though the versions agree to the last bit) and
/// checks the invariants against the initial thickness: total volume within 1e-9 relative, the
/// border ring unchanged, no thickness below -1e-10 m. Prints two lines (the first wrong cell,
/// the invariants) and returns true when everything holds. All three grids are rows x cols.
bool check_against_serial(const std::vector<double>& got, const std::vector<double>& expected,
                          const std::vector<double>& initial, int rows, int cols);

/// A 64-bit fingerprint of the exact bits of a grid (FNV-1a over each double's bytes): two grids
/// have the same fingerprint when they are, in practice, bit for bit the same. It pins results
/// that files printed at 6 decimals would not (a change of one rounding in a step).
std::uint64_t bit_fingerprint(const std::vector<double>& values);

/// Σ sh, summed in long double.
double total_volume(const std::vector<double>& sh);

}  // namespace sciddicat
