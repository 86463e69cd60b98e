/// @file flow_buffers.h
/// @brief Bug gallery, program border-ring: preparing SciddicaT's outflow layers.
#pragma once

/// Number of outflow layers: north, west, east, south.
constexpr int kFlowLayers = 4;

/// Index of Sf[layer][i][j] in a buffer of kFlowLayers layers of rows x cols cells.
inline long flow_index(int layer, int i, int j, int rows, int cols) {
    return (static_cast<long>(layer) * rows + i) * cols + j;
}

/// Prepares the freshly allocated outflow buffer (kFlowLayers * rows * cols doubles, holding
/// whatever the allocator left there) for the first step of the simulation.
void init_flows(double* flows, int rows, int cols);
