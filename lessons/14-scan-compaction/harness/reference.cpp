// Lesson 14 harness: the random inputs, the CPU references and the tolerance of each element
// (see reference.h, and the lesson page, "Integers and floats").
#include "harness/reference.h"

#include "harness/helpers.h"
#include "predicate.cuh"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <type_traits>

namespace {

// A multiple of 2^-8 is exact in float (24-bit significand) up to 2^16 in magnitude.
constexpr double kExactLimit = 65536.0;
// Tiny inputs off the grid whose magnitudes add up to less than this cannot move a sum off its
// grid value: half an ulp of the smallest nonzero grid value, 2^-8, is 2^-32.
constexpr double kTinyLimit = 0x1p-40;

// The facts about x that decide whether a float scan of it can round.
struct GridFacts {
    bool on_grid = true;        // every input but the tiny ones a multiple of 2^-8 in [-1, 1]
    double tiny = 0.0;          // the sum of the magnitudes of the inputs off the grid
    double prefix_range = 0.0;  // max - min of the prefix sums of the rest (0 included)
};

GridFacts grid_facts(const std::vector<float>& x) {
    GridFacts facts;
    double prefix = 0.0, lowest = 0.0, highest = 0.0;  // exact: multiples of 2^-8 below 2^45
    for (float input : x) {
        const double value = input, steps = value / kFloatStep;
        if (steps != std::floor(steps)) {  // off the grid (or NaN)
            facts.tiny += std::fabs(value);
            continue;
        }
        if (std::fabs(value) > 1.0) facts.on_grid = false;
        prefix += value;
        lowest = std::min(lowest, prefix);
        highest = std::max(highest, prefix);
    }
    if (!(facts.tiny < kTinyLimit)) facts.on_grid = false;
    facts.prefix_range = highest - lowest;
    return facts;
}

}  // namespace

std::string Operation::str() const {
    if (!compaction) return kind == ScanKind::inclusive ? "inclusive scan" : "exclusive scan";
    return keep == Keep::all    ? "compaction keeping all"
           : keep == Keep::none ? "compaction keeping none"
                                : "compaction keeping half";
}

long long scan_tolerance_terms(long long i) { return 64 + i / 128 + 1; }

std::vector<double> depth_bound_tolerance(const std::vector<float>& x) {
    const double u = std::numeric_limits<float>::epsilon() / 2.0;  // float's unit roundoff
    std::vector<double> scale;
    scale.reserve(x.size());
    double magnitude = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        magnitude += std::fabs(static_cast<double>(x[i]));
        // gamma_k = k u / (1 - k u), doubled for safety as wb::summation_tolerance does.
        const double ku = static_cast<double>(scan_tolerance_terms(static_cast<long long>(i))) * u;
        scale.push_back(2.0 * ku / (1.0 - ku) * magnitude);
    }
    return scale;
}

// Every sum that a scan forms (this lesson's, CUB's) adds inputs of one tile, in any order and
// grouping (at most 8192 of them, each at most 1 in magnitude), or a run of consecutive inputs
// (at most prefix_range in magnitude). On the grid, each such sum is a multiple of 2^-8 of at
// most 2^16 in magnitude: exact in float, so no addition rounds and every order gives the exact
// result. The tiny inputs change a sum by less than half its ulp and are absorbed, or kept
// where the rest adds up to 0: the result is within twice their magnitudes of the exact sum,
// and so is the double reference.
std::vector<double> float_scan_tolerance(const std::vector<float>& x) {
    const GridFacts facts = grid_facts(x);
    if (facts.on_grid && facts.prefix_range <= kExactLimit) return std::vector<double>(x.size(), 4.0 * facts.tiny);
    return depth_bound_tolerance(x);
}

template <class T>
Expected scan_reference(const std::vector<T>& x, const Operation& operation) {
    Expected expected;
    if (operation.compaction) {
        for (T value : x)
            if (keeps(value, operation.keep)) expected.values.push_back(static_cast<double>(value));
        expected.kept = static_cast<long long>(expected.values.size());
        expected.scale.assign(expected.values.size(), 0.0);  // copied, never rounded
        return expected;
    }
    RunningSum<T> sum;
    expected.values.reserve(x.size());
    for (T value : x) {
        if (operation.kind == ScanKind::exclusive) expected.values.push_back(sum.value());
        sum.add(value);
        if (operation.kind == ScanKind::inclusive) expected.values.push_back(sum.value());
    }
    if constexpr (std::is_integral_v<T>)
        expected.scale.assign(x.size(), 0.0);
    else
        expected.scale = float_scan_tolerance(x);
    return expected;
}

template <class T>
std::vector<T> scan_input(long long n, std::uint64_t seed) {
    std::vector<T> x(static_cast<std::size_t>(n));
    std::mt19937_64 generator(seed);
    if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<int> uniform(INT_MIN, INT_MAX);
        for (T& value : x) value = uniform(generator);
        const T edges[] = {INT_MAX, INT_MIN, 0, -1, 1, INT_MAX};
        for (std::size_t k = 0; k < 6 && k < x.size(); ++k) x[(k * 7919) % x.size()] = edges[k];
    } else {
        // -256 .. 256 steps: symmetric, so that the prefix sums drift nowhere.
        std::uniform_int_distribution<int> steps(-256, 256);
        for (T& value : x) value = static_cast<T>(steps(generator) * kFloatStep);
        const T edges[] = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -1e-30f, 1.0f, -1.0f};
        for (std::size_t k = 0; k < 6 && k < x.size(); ++k) x[(k * 7919) % x.size()] = edges[k];
    }
    return x;
}

template Expected scan_reference<int>(const std::vector<int>&, const Operation&);
template Expected scan_reference<float>(const std::vector<float>&, const Operation&);
template std::vector<int> scan_input<int>(long long, std::uint64_t);
template std::vector<float> scan_input<float>(long long, std::uint64_t);
