/// @file bench.h
/// @brief What every SciddicaT benchmark writes for a terrain before its own versions: the
/// serial baseline and the launch ceiling, measured in the same run.
#pragma once

#include "sciddicat/grid_io.h"  // Terrain

#include "wb/lesson.h"  // BenchRows

#include <cuda_runtime.h>

namespace sciddicat {

/// The fewest floating-point operations of one cell's step (the four neighbours' levels, one
/// round of the minimisation with its division, the mass balance), counted in model.h and
/// cell_passes.h; a cell that needs more rounds or has outflows does more, so the flops of a
/// benchmark row are a lower bound.
constexpr double kFlopsPerCellStep = 20.0;
/// The fewest device-memory bytes of one cell per launch: its altitude and thickness read, its
/// thickness written, once (8 bytes each); a launch that does K steps pays them once.
constexpr double kBytesPerCellLaunch = 24.0;

/// Declares a row's work for the roofline: `cell_steps` cell updates, `steps_per_launch` steps
/// in each kernel launch.
inline void declare_cell_work(wb::BenchRow& row, double cell_steps, int steps_per_launch) {
    row.flops = kFlopsPerCellStep * cell_steps;
    row.dram_bytes = kBytesPerCellLaunch * cell_steps / steps_per_launch;
}

/// Converts the time of `steps` steps on a rows x cols grid into Mcells/s (cell updates per
/// second, every cell of the grid counted each step).
struct CellRate {
    double cell_steps = 0.0;  ///< rows * cols * steps
    /// Mcells/s for `ms` milliseconds.
    double operator()(double ms) const { return cell_steps / (ms * 1e-3) / 1e6; }
};

/// Starts a terrain's rows: times `serial_steps` serial steps (scaled to `steps`, see
/// time_serial_run) and as many empty kernel launches as steps on `stream`, one by one and
/// replayed from a graph of kFusedGraphLaunches; sets the shared fields (shape
/// ROWSxCOLSxSTEPS, n, the ceiling rate of the plain empty launches, the serial baseline);
/// writes the rows of the serial run (device: the host CPU), `empty-kernel-launches` and
/// `empty-kernel-graph`; prints one line on the launches. Returns the terrain's rate.
CellRate write_baseline_rows(wb::BenchRows& rows, const Terrain& terrain, int steps, int serial_steps,
                             cudaStream_t stream, int repeats);

}  // namespace sciddicat
