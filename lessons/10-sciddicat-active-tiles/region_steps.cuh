// Lesson 10 exercise, part 2: the K steps of one launch on one region (a tile and its border of
// 2K cells), one thread per cell, in shared memory. active_tiles.cu includes this file and calls
// region_steps for every region it computes.
// Check your work with:  scripts/check 10-sciddicat-active-tiles   (rebuilds, then runs the check)
// The lesson page has the idea, the contract and the hints.
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
    // A cell's outflows need its neighbours' levels, and its mass balance their outflows: each
    // phase must see the other phase's values of every neighbour. The region holds no values
    // beyond its edge, so after step s only the cells 2(s + 1) or more from the edge are exact:
    // compute a phase only for the cells whose neighbours' values are still exact, and never for
    // a cell that is not updated. A dry cell has no outflow: compute none for it. Keep the serial
    // version's order of the additions (the mass balance of the SciddicaT lesson).
    (void)a;
    (void)c;
    (void)ring;
    (void)updated;
    (void)z;
    (void)steps;
    return h;  // placeholder: no step is computed, so the debris never moves
    // <<< TODO 4
}
