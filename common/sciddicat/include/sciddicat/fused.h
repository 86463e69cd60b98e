/// @file fused.h
/// @brief The fused SciddicaT step: one kernel per step, the outflows kept in shared memory,
/// the thickness ping-ponged between two buffers. Works on a band of rows of a larger grid.
#pragma once

#include "sciddicat/device_grid.h"

#include <cuda_runtime.h>

namespace sciddicat {

/// Tile shape of the fused step kernel (threads per block = kFusedTileX * kFusedTileY).
constexpr int kFusedTileX = 32;
constexpr int kFusedTileY = 8;

/// One whole step (reset, flows, width update) for buffer rows [begin, end) of `grid`: each
/// block computes the outflows of its tile plus a one-cell ring into shared memory, then updates
/// the thickness from sh_in into sh_out (two different buffers of grid.rows x grid.cols; cells
/// outside the active domain are copied). Reads buffer rows begin-2 .. end+1 (two halo rows each
/// side, clamped to the buffer); uses grid.sz, not grid.sh or grid.sf. Asynchronous on `stream`;
/// the launch is checked.
void launch_fused_step(const DeviceGrid& grid, const double* sh_in, double* sh_out, int begin, int end,
                       cudaStream_t stream = nullptr);

/// Grid of the fused step for rows [begin, end).
dim3 fused_step_grid(int cols, int begin, int end);

}  // namespace sciddicat
