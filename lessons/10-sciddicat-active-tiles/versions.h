/// @file versions.h
/// @brief Lesson 10: the two versions that run several SciddicaT steps per launch, multistep
/// (temporal blocking on every tile) and active tiles (only on the tiles the debris can reach).
/// Both ping-pong the thickness between two buffers of a sciddicat::DeviceGrid and enqueue their
/// launches on `stream`, checked.
#pragma once

#include "sciddicat/device_grid.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// Tile and steps per launch of a multi-step kernel.
struct MultistepShape {
    int tile_x = 32;  ///< tile columns
    int tile_y = 16;  ///< tile rows
    int k = 4;        ///< steps per launch (a border of 2k cells around the tile)
    int threads = 0;  ///< active tiles: threads per block, one per cell of its regions (multistep: 0)
    /// The shape's name in output and CSV: "32x16/k2", "20x8/k3/t640", or "32x8" for one step.
    std::string label() const {
        const std::string tile = std::to_string(tile_x) + "x" + std::to_string(tile_y);
        if (k == 1) return tile;
        return tile + "/k" + std::to_string(k) + (threads ? "/t" + std::to_string(threads) : "");
    }
};

/// The instantiated shapes of the multistep version.
std::vector<MultistepShape> multistep_shapes();
/// Runs min(steps, k) steps from `in` into `out` (two different buffers) on `stream`.
void multistep_launch(const sciddicat::DeviceGrid& g, const MultistepShape& shape, const double* in, double* out,
                      int steps, cudaStream_t stream);

/// The tiles the active-tiles version computes (those the debris can reach, each in a slot of
/// its own), in one device buffer of active_tile_state_bytes().
struct ActiveTileState {
    void* slots = nullptr;
};
/// The instantiated shapes of the active-tiles version (tile, steps per launch, threads).
std::vector<MultistepShape> active_tile_shapes();
/// Bytes of the tile slots for every instantiated shape (a multiple of sizeof(int)).
std::size_t active_tile_state_bytes(int rows, int cols);
/// Before a run from g.sh: copies g.sh into g.sh_next and places the tiles of the first launch.
void active_tiles_prepare(const sciddicat::DeviceGrid& g, const MultistepShape& shape, const ActiveTileState& s,
                          cudaStream_t stream);
/// Runs min(steps, k) steps from `in` into `out` (g.sh and g.sh_next, either way round),
/// computing only the tiles the debris can reach.
void active_tiles_launch(const sciddicat::DeviceGrid& g, const MultistepShape& shape, const ActiveTileState& s,
                         const double* in, double* out, int steps, cudaStream_t stream);
/// After a run: the tiles the debris reached, and the regions one launch computes at once
/// (blocks x regions per block). With more tiles than regions, blocks compute several tiles one
/// after another.
struct ActiveTileCounts {
    int reached = 0;
    int regions = 0;
};
ActiveTileCounts active_tiles_counts(const sciddicat::DeviceGrid& g, const MultistepShape& shape,
                                     const ActiveTileState& s);

/// Runs your source_bits and place_reached on their own, for a source in every cell of a tile
/// (several tile shapes and reaches), and compares the tiles given a slot with the tiles its
/// debris can get to, one slot each; prints the first wrong pair and the count
/// (harness/tile_reach_check.cu).
bool check_tile_reach();

/// Runs your region_steps on its own, on regions of random wet and dry cells, and compares every
/// thickness, the outflows the last step leaves and how many outflows it computed with the CPU,
/// which follows which values are still exact; prints the first difference
/// (harness/region_steps_check.cu).
bool check_region_steps(std::uint64_t seed);
