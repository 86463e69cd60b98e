/// @file cas_checks.h
/// @brief Lesson 05: checks of atomic_add_cas (TODO 2) on its own, beyond the column sums.
#pragma once

#include <cstdint>

/// atomic_add_cas under contention: thread i adds values[i] into totals[i % 8], so 8192 threads
/// retry on each address. Prints the comparison; true when the totals are right.
bool check_cas_stress(std::uint64_t seed);

/// atomic_add_cas with a NaN among the values: the total that receives it must end as NaN, the
/// others exact. A retry loop that never ends there ends the program (FAILED, exit code 1).
bool check_cas_nan();
