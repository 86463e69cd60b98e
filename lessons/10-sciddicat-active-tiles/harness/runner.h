/// @file runner.h
/// @brief Lesson 10: how a version runs (its kernel and tile), and the runs of every version on
/// one terrain on the device, launch by launch or replayed from CUDA graphs.
#pragma once

#include "versions.h"

#include "sciddicat/device_grid.h"
#include "wb/cuda_graph.h"
#include "wb/device_buffer.h"

#include <cuda_runtime.h>

#include <map>
#include <string>
#include <vector>

// Launches captured in one CUDA graph: even, so that ping-pong ends where it began.
constexpr int kGraphLaunches = 100;
static_assert(kGraphLaunches % 2 == 0, "ping-pong must end where it began");

// How a version runs: the kernel and its tile. The fused step (one launch per step, the best of
// the SciddicaT lesson) and its graph are the baselines the lesson's two versions are compared with.
enum class Kind { multistep, active_tiles, fused, fused_graph };
struct Config {
    Kind kind;
    MultistepShape shape;  // fused: the library's tile, one step per launch
    // Steps each launch advances: K for multistep and active tiles, else one.
    int steps_per_launch() const { return kind == Kind::multistep || kind == Kind::active_tiles ? shape.k : 1; }
    // Every version but `fused` replays its launches from CUDA graphs.
    bool from_graphs() const { return kind != Kind::fused; }
};

// One terrain on the device, and the runs of every version on it from the same initial state.
class Runner {
public:
    Runner(const std::vector<double>& sz, const std::vector<double>& sh, int rows, int cols)
        : terrain_(sz, sh, rows, cols), slots_(active_tile_state_bytes(rows, cols) / sizeof(int)) {}

    // reset(): the initial thickness in sh, sh_next poisoned; download(result) waits, then copies.
    sciddicat::DeviceTerrain& terrain() { return terrain_; }
    // Enqueues `steps` steps on stream(); returns the buffer that will hold the result. Each launch
    // advances one chunk of steps from one buffer into the other; graphs replay kGraphLaunches.
    double* run(const Config& c, int steps);
    cudaStream_t stream() const { return stream_.get(); }
    ActiveTileState tiles() const { return {slots_.get()}; }  // active tiles' slots

private:
    // One launch: min(steps, chunk) steps from `in` into `out`.
    void launch(const Config& c, const double* in, double* out, int steps);
    // kGraphLaunches launches (sh -> sh_next -> sh ...) captured once into an executable graph.
    const wb::Graph& graph_for(const Config& c, int chunk);

    sciddicat::DeviceTerrain terrain_;
    wb::DeviceBuffer<int> slots_;
    wb::Stream stream_;
    std::map<std::string, wb::Graph> graphs_;  // by version and tile
};

// Cell updates the active tiles really compute in `steps` steps: at each launch, the cells of
// the tiles holding a slot when it starts (a tile keeps its slot once reached), times the
// launch's steps. Measured launch by launch in an untimed run.
double computed_cell_steps(Runner& runner, const Config& config, int steps);
