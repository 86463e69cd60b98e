// Lesson 14: the float scans' tolerance (harness/reference.cpp) on the CPU, at the check's
// longest length, 2^24 + 3 elements. Every order of summation tried here, computed in float,
// must pass it; each float-only defect (an element dropped, a prefix one element short, a
// tile's carry missing the tile before it) must fail it, although the classic bound
// 2 gamma_k sum |x_j| (depth_bound_tolerance), far looser, lets each one pass. Where the inputs
// leave the grid, the tolerance must be that classic bound. Exit 0 when all of this holds.
#include "harness/reference.h"

#include "wb/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr long long kLength = (1LL << 24) + 3;  // the check's longest length
constexpr std::uint64_t kSeed = 20261128;
constexpr std::size_t kTile = 2048;     // the three-kernel scan's tile
constexpr std::size_t kTinyTile = 128;  // the smallest tile of a look-back

using Floats = std::vector<float>;

// In order, one addition after the other: every sum depends on all the ones before.
Floats serial(const Floats& x, ScanKind kind) {
    Floats out(x.size());
    float sum = 0.0f;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (kind == ScanKind::exclusive) out[i] = sum;
        sum += x[i];
        if (kind == ScanKind::inclusive) out[i] = sum;
    }
    return out;
}

// Recursive doubling over the whole array (Hillis and Steele): after the pass with distance d,
// element i holds the sum of the 2d elements that end at i. Inclusive.
Floats doubling(const Floats& x) {
    Floats out = x, previous(x.size());
    for (std::size_t d = 1; d < x.size(); d *= 2) {
        previous.swap(out);
        for (std::size_t i = 0; i < x.size(); ++i) out[i] = i >= d ? previous[i - d] + previous[i] : previous[i];
    }
    return out;
}

// The sum of values[first .. last) as a balanced tree of pairs.
float tree_sum(const Floats& values, std::size_t first, std::size_t last) {
    if (last - first == 1) return values[first];
    const std::size_t middle = first + (last - first) / 2;
    return tree_sum(values, first, middle) + tree_sum(values, middle, last);
}

// Each tile in order from its offset: out[i] for the tiles of `tile` elements.
Floats tiles_from(const Floats& x, std::size_t tile, const Floats& offsets, ScanKind kind) {
    Floats out(x.size());
    for (std::size_t t = 0; t < offsets.size(); ++t) {
        float running = offsets[t];
        for (std::size_t i = t * tile; i < x.size() && i < (t + 1) * tile; ++i) {
            if (kind == ScanKind::exclusive) out[i] = running;
            running += x[i];
            if (kind == ScanKind::inclusive) out[i] = running;
        }
    }
    return out;
}

// The three-kernel scan's tile offsets: each tile's sum from 256 threads' partial sums of
// elements 256 apart, added as a tree; the offsets as a running carry.
Floats three_kernel_offsets(const Floats& x) {
    const std::size_t tiles = (x.size() + kTile - 1) / kTile;
    Floats offsets(tiles);
    float carry = 0.0f;
    for (std::size_t t = 0; t < tiles; ++t) {
        Floats partial(256, 0.0f);
        for (std::size_t i = t * kTile; i < x.size() && i < (t + 1) * kTile; ++i) partial[i % 256] += x[i];
        offsets[t] = carry;
        carry += tree_sum(partial, 0, partial.size());
    }
    return offsets;
}

// A look-back's tile offsets, tiles of 128: each tile's aggregate as a tree; its offset as the
// inclusive prefix of a tile 1 to 32 back (where the look-back stopped) plus a tree of the
// aggregates between.
Floats look_back_offsets(const Floats& x) {
    const std::size_t tiles = (x.size() + kTinyTile - 1) / kTinyTile;
    Floats aggregate(tiles), offsets(tiles, 0.0f), inclusive(tiles);
    std::mt19937 stops(kSeed);
    for (std::size_t t = 0; t < tiles; ++t) {
        aggregate[t] = tree_sum(x, t * kTinyTile, std::min(x.size(), (t + 1) * kTinyTile));
        if (t > 0) {
            const std::size_t known = t - std::min<std::size_t>(t, 1 + stops() % 32);
            offsets[t] = inclusive[known] + (known + 1 < t ? tree_sum(aggregate, known + 1, t) : 0.0f);
        }
        inclusive[t] = offsets[t] + aggregate[t];
    }
    return offsets;
}

int failures = 0;

// Compares `got` with the reference under `scale`; returns the report.
wb::CompareReport compare(const Floats& got, const Expected& expected, const std::vector<double>& scale) {
    return wb::compare(got.data(), expected.values.data(), static_cast<long>(got.size()), wb::Tolerance{0.0, 1.0},
                       scale.data());
}

void expect_pass(const char* order, const Floats& got, const Expected& expected) {
    const wb::CompareReport report = compare(got, expected, expected.scale);
    std::printf("  %-58s %s (largest error %.3g)\n", order, report.ok() ? "passes" : "FAILS", report.max_abs_error);
    if (!report.ok()) {
        ++failures;
        std::printf("    first wrong: out[%ld] = %.9g (expected %.9g)\n", report.first_wrong, report.first_got,
                    report.first_expected);
    }
}

// A defect must fail the tolerance, and pass the classic bound alone (else it would not show
// what the tolerance adds).
void expect_caught(const std::string& defect, const Floats& got, const Expected& expected,
                   const std::vector<double>& depth_bound) {
    const wb::CompareReport strict = compare(got, expected, expected.scale);
    const wb::CompareReport loose = compare(got, expected, depth_bound);
    std::printf("  %-58s %s (%ld of %ld wrong); the classic bound alone: %s\n", defect.c_str(),
                strict.ok() ? "NOT CAUGHT" : "caught", strict.wrong, strict.total, loose.ok() ? "passes" : "fails");
    if (strict.ok() || !loose.ok()) ++failures;
}

// The first index at or after `from` whose input is at least `least` in magnitude (half the
// inputs are: one is near).
std::size_t typical_at(const Floats& x, std::size_t from, double least) {
    std::size_t k = from;
    while (k + 1 < x.size() && std::fabs(x[k]) < least) ++k;
    return k;
}

void check_orders_and_defects(const Floats& x) {
    const Expected inclusive = scan_reference(x, Operation{false, ScanKind::inclusive, Keep::all});
    const Expected exclusive = scan_reference(x, Operation{false, ScanKind::exclusive, Keep::all});
    const double widest = *std::max_element(inclusive.scale.begin(), inclusive.scale.end());
    std::printf(" %lld floats on the grid: largest tolerance %.3g\n", kLength, widest);
    if (!(widest < 1e-20)) {
        std::printf("  the check's inputs should make every float scan exact: FAILS\n");
        ++failures;
    }

    std::printf(" orders of summation (each must pass):\n");
    const Floats in_order = serial(x, ScanKind::inclusive);
    expect_pass("in order, inclusive", in_order, inclusive);
    expect_pass("in order, exclusive", serial(x, ScanKind::exclusive), exclusive);
    expect_pass("recursive doubling over the whole array, inclusive", doubling(x), inclusive);
    const Floats offsets = three_kernel_offsets(x);
    expect_pass("three kernels: strided tile sums, a carry, exclusive",
                tiles_from(x, kTile, offsets, ScanKind::exclusive), exclusive);
    expect_pass("a look-back on tiles of 128, inclusive",
                tiles_from(x, kTinyTile, look_back_offsets(x), ScanKind::inclusive), inclusive);

    std::printf(" float-only defects (each must fail):\n");
    const std::vector<double> depth_bound = depth_bound_tolerance(x);
    const std::size_t dropped = typical_at(x, x.size() / 2, 0.5);
    Floats without = x;
    without[dropped] = 0.0f;
    expect_caught("element " + std::to_string(dropped) + " left out of every sum", serial(without, ScanKind::inclusive),
                  inclusive, depth_bound);
    const std::size_t short_one = typical_at(x, x.size() - 100, 0.5);
    Floats one_short = in_order;
    one_short[short_one] -= x[short_one];
    expect_caught("out[" + std::to_string(short_one) + "] without its last element", one_short, inclusive, depth_bound);
    // A tile near the end whose offset misses the tile before it (one of at least 1 in magnitude).
    std::size_t tile = offsets.size() - 8;
    while (tile > 1 && std::fabs(offsets[tile] - offsets[tile - 1]) < 1.0f) --tile;
    Floats wrong_carry = offsets;
    wrong_carry[tile] = offsets[tile - 1];
    expect_caught("tile " + std::to_string(tile) + "'s carry missing the tile before it",
                  tiles_from(x, kTile, wrong_carry, ScanKind::exclusive), exclusive, depth_bound);
}

// Inputs off the grid, or whose sums leave float's exact range: the tolerance must be the
// classic bound, and the in-order scan must pass it.
void check_fallback(const char* what, const Floats& x) {
    const Expected inclusive = scan_reference(x, Operation{false, ScanKind::inclusive, Keep::all});
    const bool classic = inclusive.scale == depth_bound_tolerance(x);
    std::printf(" %s: %s\n", what, classic ? "the classic bound" : "NOT the classic bound");
    if (!classic) ++failures;
    expect_pass("in order, inclusive", serial(x, ScanKind::inclusive), inclusive);
}

}  // namespace

int main() {
    std::printf("The float scans' tolerance on the CPU (seed %llu)\n", static_cast<unsigned long long>(kSeed));
    check_orders_and_defects(scan_input<float>(kLength, kSeed));

    std::mt19937_64 generator(kSeed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    Floats off_grid(1 << 20);
    for (float& value : off_grid) value = uniform(generator);
    check_fallback("2^20 floats uniform in [-1, 1), off the grid", off_grid);
    check_fallback("2^17 ones, whose sums pass 2^16", Floats(1 << 17, 1.0f));

    if (failures != 0) {
        std::printf("FAILED: %d of the cases above\n", failures);
        return 1;
    }
    std::printf("PASSED: every order passes, every defect is caught\n");
    return 0;
}
