/// @file sciddicat_gpu.h
/// @brief Lesson 06: the GPU versions of one SciddicaT step. Each *_step function enqueues one
/// whole step (reset, flows, width update) on the default stream and checks its launches.
#pragma once

#include "sciddicat_model.h"

#include <cstddef>
#include <vector>

/// The simulation's state on the device.
struct GpuGrid {
    int rows = 0;
    int cols = 0;
    const double* sz = nullptr;  ///< altitude (m)
    double* sh = nullptr;        ///< debris thickness (m)
    double* sh_next = nullptr;   ///< second thickness buffer (fused versions ping-pong)
    double* sf = nullptr;        ///< outflows, 4 layers of rows x cols: north, west, east, south
};

/// Version 2: three kernels over global memory (exercise: monolithic.cu).
void monolithic_step(const GpuGrid& g, dim3 block);
/// Version 3: the same three kernels with grid-stride loops; each thread covers about
/// iters x iters cells.
void grid_stride_step(const GpuGrid& g, dim3 block, int iters);
/// Version 4: the block's tile in shared memory, neighbours outside it from global memory.
void shared_no_halo_step(const GpuGrid& g, dim3 block);
/// Version 5: the tile plus a one-cell halo in shared memory (exercise: shared_halo.cu).
void shared_halo_step(const GpuGrid& g, dim3 block);
/// Shared memory bytes per block of the shared-halo version's largest kernel.
std::size_t shared_halo_bytes(dim3 block);

/// Going further: tile and steps per launch of the multi-step (temporal blocking) kernel.
struct MultistepShape {
    int tile_x = 32;  ///< tile columns (threads along x)
    int tile_y = 16;  ///< tile rows (threads along y)
    int k = 4;        ///< steps per launch (halo of 2k cells)
    int threads = 0;  ///< active tiles: threads per block, one per cell of its regions (multistep: one per tile cell)
};
/// The instantiated shapes.
std::vector<MultistepShape> multistep_shapes();
/// Runs min(steps, k) steps from `in` into `out` (two different buffers) on `stream`.
void multistep_launch(const GpuGrid& g, const MultistepShape& shape, const double* in, double* out, int steps,
                      cudaStream_t stream);

/// Going further: the tiles the active-tiles version computes (those the debris can reach, each
/// in a slot of its own), in one device buffer of active_tile_state_bytes().
struct ActiveTileState {
    void* slots = nullptr;
};
/// The instantiated shapes of the active-tiles version (tile and steps per launch).
std::vector<MultistepShape> active_tile_shapes();
/// Bytes of the tile slots for every instantiated shape.
std::size_t active_tile_state_bytes(int rows, int cols);
/// Before a run from g.sh: copies g.sh into g.sh_next and places the tiles of the first launch.
void active_tiles_prepare(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, cudaStream_t stream);
/// After a run: the tiles the debris reached, and the regions one launch computes at once
/// (blocks x regions per block). With more tiles than regions, blocks compute several tiles one
/// after another.
struct ActiveTileCounts {
    int reached = 0;
    int regions = 0;
};
ActiveTileCounts active_tiles_counts(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s);
/// Runs min(steps, k) steps from `in` into `out` (g.sh and g.sh_next, either way round),
/// computing only the tiles the debris can reach.
void active_tiles_launch(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, const double* in,
                         double* out, int steps, cudaStream_t stream);
