/// @file random.h
/// @brief Seeded random inputs and poisoned outputs.
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace wb {

/// Seed used when --seed is not given. Every program prints the seed it used, so a failing
/// run can be repeated exactly with --seed.
constexpr std::uint64_t kDefaultSeed = 20241122;

/// Fills `values` with uniform numbers in [lo, hi) drawn from a generator seeded with `seed`.
template <class T>
void fill_random(std::vector<T>& values, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> uniform(lo, hi);
    for (auto& v : values) v = static_cast<T>(uniform(generator));
}

/// Fills `values` with whole numbers drawn uniformly from [lo, hi] by a generator seeded with
/// `seed`.
template <class T>
void fill_random_integers(std::vector<T>& values, std::uint64_t seed, int lo, int hi) {
    std::mt19937_64 generator(seed);
    std::uniform_int_distribution<int> uniform(lo, hi);
    for (auto& v : values) v = static_cast<T>(uniform(generator));
}

/// The value written into outputs before a computation: NaN for floating point (NaN never
/// compares equal, so an unwritten element always fails), the largest value for integers.
template <class T>
T poison_value() {
    if constexpr (std::is_floating_point_v<T>) {
        return std::numeric_limits<T>::quiet_NaN();
    } else {
        return std::numeric_limits<T>::max();
    }
}

/// Overwrites every element with poison_value<T>().
template <class T>
void poison(std::vector<T>& values) {
    for (auto& v : values) v = poison_value<T>();
}

}  // namespace wb
