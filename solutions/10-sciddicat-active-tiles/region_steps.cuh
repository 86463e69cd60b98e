// Lesson 10 reference solution, part 2: the K steps of one launch on one region.
#pragma once

#include "fast_outflows.h"

// A region's arrays in shared memory, `pitch` values per row: each cell's level (altitude +
// thickness), which its neighbours' minimisations read, and its four outflows, which their mass
// balances read.
struct RegionArrays {
    double* level;
    double* north;
    double* west;
    double* east;
    double* south;
    int pitch;
    unsigned long long* outflows_counted = nullptr;  // where the check counts the outflows computed
};

// At or below this thickness a cell has no outflow at all (active_tiles.cu says why).
constexpr double kDry = sciddicat::kEpsilon / 2;

// The four outflows (north, west, east, south) of the cell at index c of the arrays, from its
// neighbours' levels.
__device__ inline void outflows_from_levels(const RegionArrays& a, int c, double h, double z, double flow[4]) {
    if (a.outflows_counted) atomicAdd(a.outflows_counted, 1ull);
    const double u[4] = {a.level[c - a.pitch], a.level[c - 1], a.level[c + 1], a.level[c + a.pitch]};
    sciddicat::cell_outflows_by_rank(h, z, u, flow);
}

// Runs `steps` steps (at most K) on the region and returns this thread's cell's thickness after
// them. The cell is at index c of the arrays, `ring` cells from the region's edge (0 on the edge);
// z and h are its altitude and thickness, and a.level already holds z + h for every cell. A cell
// that is not `updated` (outside the grid, or on its border) never changes. A cell whose outflows
// are not computed at a step leaves zeros in the four outflow arrays; a cell whose thickness is
// no longer exact keeps the thickness of its last exact step. Every thread of the block calls it.
__device__ inline double region_steps(const RegionArrays& a, int c, int ring, bool updated, double z, double h,
                                      int steps) {
    // >>> TODO 4: the steps, each in two phases: the outflows of every cell, then its mass balance
    for (int s = 0; s < steps; ++s) {
        double flow[4] = {0.0, 0.0, 0.0, 0.0};
        if (updated && h > kDry && ring >= 1 + 2 * s) outflows_from_levels(a, c, h, z, flow);
        a.north[c] = flow[0], a.west[c] = flow[1], a.east[c] = flow[2], a.south[c] = flow[3];
        __syncthreads();
        if (updated && ring >= 2 + 2 * s) {  // the serial version's order of operations
            double v = h;
            v += a.south[c - a.pitch] - flow[0];
            v += a.east[c - 1] - flow[1];
            v += a.west[c + 1] - flow[2];
            v += a.north[c + a.pitch] - flow[3];
            h = v;
            a.level[c] = z + h;
        }
        __syncthreads();
    }
    return h;
    // <<< TODO 4
}
