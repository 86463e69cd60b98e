/// @file serial.h
/// @brief The serial SciddicaT: the reference every GPU version is judged against.
#pragma once

#include <vector>

namespace sciddicat {

/// `steps` steps of reset, flows and width update on one CPU core, in place on sh (rows x cols).
/// sf (4 * rows * cols) is used as scratch; it is zeroed first.
void serial_run(int rows, int cols, const double* sz, double* sh, std::vector<double>& sf, int steps);

}  // namespace sciddicat
