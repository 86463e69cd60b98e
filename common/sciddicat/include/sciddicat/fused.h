/// @file fused.h
/// @brief The fused SciddicaT step: one kernel per step, the outflows kept in shared memory,
/// the thickness ping-ponged between two buffers. Works on a band of rows of a larger grid.
#pragma once

#include "sciddicat/device_grid.h"

#include "wb/cuda_graph.h"

#include <cuda_runtime.h>

#include <optional>

namespace sciddicat {

// Tile shape of the fused step kernel (threads per block = kFusedTileX * kFusedTileY).
constexpr int kFusedTileX = 32;  ///< tile columns of the fused step (threads along x)
constexpr int kFusedTileY = 8;   ///< tile rows of the fused step (threads along y)

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

/// Launches of the fused step captured in one CUDA graph: even, so that ping-pong ends where it
/// began.
constexpr int kFusedGraphLaunches = 100;

/// Runs the fused step over a whole grid on a stream of its own, the thickness going from grid.sh
/// to grid.sh_next and back: one launch per step from the host, or kFusedGraphLaunches launches
/// at a time replayed from a CUDA graph (captured at the first run that needs it).
class FusedRunner {
public:
    /// `grid`: a whole grid (first_row 0), its buffers owned elsewhere for the runner's lifetime.
    explicit FusedRunner(const DeviceGrid& grid) : grid_(grid) {}
    /// Enqueues `steps` steps from grid.sh; returns the buffer that holds the result.
    const double* run(int steps, bool from_graph);
    /// The stream the steps are enqueued on.
    cudaStream_t stream() const { return stream_.get(); }

private:
    const wb::Graph& graph();

    DeviceGrid grid_;
    wb::Stream stream_;
    std::optional<wb::Graph> graph_;
};

}  // namespace sciddicat
