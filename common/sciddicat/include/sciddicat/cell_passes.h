/// @file cell_passes.h
/// @brief The three passes of one step for one cell, reading and writing the state of a
/// DeviceGrid in global memory: what a GPU version does per cell when every neighbour comes from
/// global memory (lesson 06's grid-stride version loops over cells with them). Cell (i, j) must
/// be in the active domain; the additions are those of the serial reference, in its order.
#pragma once

#include "sciddicat/device_grid.h"
#include "sciddicat/model.h"

namespace sciddicat {

/// Index of cell (i, j) in one layer of the grid's buffers.
SCIDDICAT_HD inline long cell_index(const DeviceGrid& g, int i, int j) { return static_cast<long>(i) * g.cols + j; }

/// Pass 1: the cell's four outflows set to zero.
SCIDDICAT_HD inline void reset_cell_flows(const DeviceGrid& g, int i, int j) {
    const long layer_size = static_cast<long>(g.rows) * g.cols;
    for (int n = 0; n < 4; ++n) g.sf[n * layer_size + cell_index(g, i, j)] = 0.0;
}

/// Pass 2: the cell's four outflows (cell_outflows), from its thickness and altitude and its
/// neighbours' levels.
SCIDDICAT_HD inline void compute_cell_flows(const DeviceGrid& g, int i, int j) {
    const long layer_size = static_cast<long>(g.rows) * g.cols;
    const long north = cell_index(g, i - 1, j), west = cell_index(g, i, j - 1);
    const long east = cell_index(g, i, j + 1), south = cell_index(g, i + 1, j);
    const double levels[4] = {g.sz[north] + g.sh[north], g.sz[west] + g.sh[west], g.sz[east] + g.sh[east],
                              g.sz[south] + g.sh[south]};
    const long self = cell_index(g, i, j);
    double outflows[4];
    cell_outflows(g.sh[self], g.sz[self], levels, outflows);
    for (int n = 0; n < 4; ++n) g.sf[n * layer_size + self] = outflows[n];
}

/// Pass 3: the cell's thickness plus what each neighbour sends it minus what it sends that
/// neighbour, in place (it reads only the outflows and the cell's own thickness).
SCIDDICAT_HD inline void update_cell_width(const DeviceGrid& g, int i, int j) {
    const long layer_size = static_cast<long>(g.rows) * g.cols;
    const double* to_north = g.sf;
    const double* to_west = g.sf + layer_size;
    const double* to_east = g.sf + 2 * layer_size;
    const double* to_south = g.sf + 3 * layer_size;
    const long self = cell_index(g, i, j);
    double thickness = g.sh[self];
    thickness += to_south[cell_index(g, i - 1, j)] - to_north[self];
    thickness += to_east[cell_index(g, i, j - 1)] - to_west[self];
    thickness += to_west[cell_index(g, i, j + 1)] - to_east[self];
    thickness += to_north[cell_index(g, i + 1, j)] - to_south[self];
    g.sh[self] = thickness;
}

}  // namespace sciddicat
