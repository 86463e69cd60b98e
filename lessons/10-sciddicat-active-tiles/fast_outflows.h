/// @file fast_outflows.h
/// @brief Lesson 10: the minimisation of differences with a short chain of dependent operations
/// (cell_outflows_by_rank) and the exact division by a small count it uses (divide_by_count).
/// Both give the very bits of sciddicat::cell_outflows and of the division; the CPU test
/// 10-sciddicat-active-tiles-division-test checks it.
#pragma once

#include "sciddicat/model.h"

#include <cmath>

namespace sciddicat {

/// sum / count for count 1..5, rounded exactly as the division is, for sums far from overflow
/// and underflow (altitudes are): the product by the rounded reciprocal, then one correction
/// with the exact remainder (Markstein's theorem). Three dependent operations and no branch,
/// where a double division is a longer sequence with a slow path.
SCIDDICAT_HD inline double divide_by_count(double sum, int count) {
    const double reciprocal = count == 5 ? 0.2 : count == 4 ? 0.25 : count == 3 ? 1.0 / 3.0 : count == 2 ? 0.5 : 1.0;
    const double quotient = sum * reciprocal;
    const double remainder = fma(-static_cast<double>(count), quotient, sum);  // exact
    return fma(remainder, reciprocal, quotient);
}

/// cell_outflows with the same result for finite values (the grid reader rejects others) and a
/// much shorter chain of dependent operations, for kernels where the minimisation is the
/// bottleneck. The candidates left after each round of elimination are always the lowest ones
/// (a round keeps the values below an average), so the rounds can only ever meet six sets: the
/// j lowest of the five values, j = 0..5. Their averages are computed first, independently of
/// each other and each exactly as a round computes it (the same additions in the same order);
/// the rounds then only compare. Ties are ranked by index: a round never separates equal values,
/// so a set it meets is the j lowest whatever the order of equals.
SCIDDICAT_HD inline void cell_outflows_by_rank(double h, double z, const double u_neighbours[4], double flow[4]) {
    const double u[5] = {z + kEpsilon, u_neighbours[0], u_neighbours[1], u_neighbours[2], u_neighbours[3]};
    const double m = h - kEpsilon;
    int rank[5] = {0, 0, 0, 0, 0};  // how many of the five come before u[k]
    for (int k = 0; k < 5; ++k)
        for (int l = k + 1; l < 5; ++l) {
            if (u[k] <= u[l])
                ++rank[l];
            else
                ++rank[k];
        }
    // The average a round computes when the j lowest are left: m plus each of them, in index
    // order. One left: no division (x / 1 is x); five left: no choice.
    auto average_of_lowest = [&](int j) {
        double sum = m;
        for (int k = 0; k < 5; ++k)
            if (rank[k] < j) sum += u[k];
        return divide_by_count(sum, j);
    };
    const double lowest_value = fmin(fmin(fmin(u[0], u[1]), fmin(u[2], u[3])), u[4]);
    const double lowest1 = m + lowest_value, lowest2 = average_of_lowest(2), lowest3 = average_of_lowest(3),
                 lowest4 = average_of_lowest(4), lowest5 = divide_by_count(m + u[0] + u[1] + u[2] + u[3] + u[4], 5);
    // A round with the j lowest left keeps those of them that pass the elimination test of
    // cell_outflows: the lowest min(j, below(j)), where below(j) counts the values below that
    // round's average (a value passes when every lower one does).
    auto below = [&](double average) {
        int passing = 0;
        for (int k = 0; k < 5; ++k)
            if (!(average <= u[k])) ++passing;
        return passing;
    };
    // Where a round goes from j candidates left, min(j, below(j)), for j = 0..5 in three bits
    // each; the rounds then shift and mask. Each round that changes the candidates removes one
    // at least, so after five rounds nothing changes any more.
    auto step_from = [&](int j, double average) {
        const int passing = below(average);
        return static_cast<unsigned>(passing < j ? passing : j) << (3 * j);
    };
    const unsigned lowest_stays = !(lowest1 <= lowest_value) ? 1u << 3 : 0u;  // min(1, below(1))
    const unsigned next_left = lowest_stays | step_from(2, lowest2) | step_from(3, lowest3) | step_from(4, lowest4) |
                               static_cast<unsigned>(below(lowest5)) << 15;
    int left = 5;
    for (int round = 0; round < 5; ++round) left = next_left >> (3 * left) & 7;
    const double average = left == 5   ? lowest5
                           : left == 4 ? lowest4
                           : left == 3 ? lowest3
                           : left == 2 ? lowest2
                           : left == 1 ? lowest1
                                       : m;
    for (int k = 1; k < 5; ++k) flow[k - 1] = rank[k] < left ? (average - u[k]) * kDamping : 0.0;  // not eliminated
}

}  // namespace sciddicat
