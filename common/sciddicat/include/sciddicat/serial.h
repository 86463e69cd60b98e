/// @file serial.h
/// @brief The serial SciddicaT: the reference every GPU version is judged against, and its time
/// as the baseline of the benchmarks.
#pragma once

#include "sciddicat/grid_io.h"  // Terrain

#include <string>
#include <vector>

namespace sciddicat {

/// `steps` steps of reset, flows and width update on one CPU core, in place on sh (rows x cols).
/// sf (4 * rows * cols) is used as scratch; it is zeroed first.
void serial_run(int rows, int cols, const double* sz, double* sh, std::vector<double>& sf, int steps);

/// What a check compares a GPU run with: a terrain's initial state and its state after `steps`
/// serial steps.
struct SerialReference {
    int rows = 0;                    ///< rows of the grid
    int cols = 0;                    ///< columns of the grid
    std::vector<double> sz;          ///< altitude (initial_state)
    std::vector<double> initial_sh;  ///< thickness before the first step
    std::vector<double> expected;    ///< thickness after `steps` serial steps
};
/// Runs the serial reference on the terrain's initial state.
SerialReference serial_reference(const Terrain& terrain, int steps);

/// The serial baseline of a benchmark: the time of `steps` serial steps on a terrain.
struct SerialBaseline {
    std::string name;  ///< "serial" on a real grid, "synthetic-serial" on the synthetic one, plus
                       ///< "-scaled-from-N-steps" when measured over N < steps steps
    double ms = 0.0;   ///< milliseconds for `steps` steps (wall clock)
};
/// Runs serial_steps (at most steps) steps from the terrain's initial state on one core and
/// scales their time to `steps`.
SerialBaseline time_serial_run(const Terrain& terrain, int steps, int serial_steps);

}  // namespace sciddicat
