/// @file cell_passes.h
/// @brief The three passes of one step for one cell, reading and writing the state of a
/// DeviceGrid in global memory: what a GPU version does per cell when every neighbour comes from
/// global memory (the SciddicaT lesson's grid-stride version loops over cells with them). Cell
/// (i, j) must be in the active domain; the additions are those of the serial reference, in its order.
#pragma once

#include "sciddicat/device_grid.h"
#include "sciddicat/model.h"

namespace sciddicat {

// Each pass computes the cell's index k and the layer size n once and reaches the neighbours as
// k - cols, k - 1, k + 1 and k + cols: fewer 64-bit products per cell than indexing each
// neighbour from (i, j), which the grid-stride loops measurably pay for.

/// Index of cell (i, j) in one layer of the grid's buffers.
SCIDDICAT_HD inline long cell_index(const DeviceGrid& g, int i, int j) { return static_cast<long>(i) * g.cols + j; }

/// Cells in one layer of the grid's buffers (layer l of Sf starts at l times this).
SCIDDICAT_HD inline long layer_size(const DeviceGrid& g) { return static_cast<long>(g.rows) * g.cols; }

/// The mass balance of one cell: its thickness `h` plus what each neighbour sends it minus what
/// it sends that neighbour, added in the serial reference's order (every version must add in
/// this order to stay bit-exact). `c` is the cell's index in the four outflow arrays and
/// `stride` the length of their rows, so the neighbours are c - stride, c - 1, c + 1, c + stride.
SCIDDICAT_HD inline double cell_mass_balance(double h, const double* north, const double* west, const double* east,
                                             const double* south, long c, long stride) {
    h += south[c - stride] - north[c];
    h += east[c - 1] - west[c];
    h += west[c + 1] - east[c];
    h += north[c + stride] - south[c];
    return h;
}

/// Pass 1: the cell's four outflows set to zero.
SCIDDICAT_HD inline void reset_cell_flows(const DeviceGrid& g, int i, int j) {
    const long n = layer_size(g), k = cell_index(g, i, j);
    for (int layer = 0; layer < 4; ++layer) g.sf[layer * n + k] = 0.0;
}

/// Pass 2: the cell's four outflows (cell_outflows), from its thickness and altitude and its
/// neighbours' levels.
SCIDDICAT_HD inline void compute_cell_flows(const DeviceGrid& g, int i, int j) {
    const long n = layer_size(g), k = cell_index(g, i, j), cols = g.cols;
    const double* sz = g.sz;
    const double* sh = g.sh;
    const double levels[4] = {sz[k - cols] + sh[k - cols], sz[k - 1] + sh[k - 1], sz[k + 1] + sh[k + 1],
                              sz[k + cols] + sh[k + cols]};
    double outflows[4];
    cell_outflows(sh[k], sz[k], levels, outflows);
    for (int layer = 0; layer < 4; ++layer) g.sf[layer * n + k] = outflows[layer];
}

/// Pass 3: the cell's thickness plus what each neighbour sends it minus what it sends that
/// neighbour, in place (it reads only the outflows and the cell's own thickness).
SCIDDICAT_HD inline void update_cell_width(const DeviceGrid& g, int i, int j) {
    const long n = layer_size(g), k = cell_index(g, i, j), cols = g.cols;
    const double* to_north = g.sf;
    const double* to_west = g.sf + n;
    const double* to_east = g.sf + 2 * n;
    const double* to_south = g.sf + 3 * n;
    g.sh[k] = cell_mass_balance(g.sh[k], to_north, to_west, to_east, to_south, k, cols);
}

}  // namespace sciddicat
