/// @file bench.h
/// @brief What every SciddicaT benchmark writes for a terrain before its own versions: the
/// serial baseline and the launch ceiling, measured in the same run.
#pragma once

#include "sciddicat/grid_io.h"  // Terrain

#include "wb/lesson.h"  // BenchRows

#include <cuda_runtime.h>

namespace sciddicat {

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
