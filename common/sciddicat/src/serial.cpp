// The serial SciddicaT: three passes over the active domain per step, on one CPU core, and its
// time as a benchmark baseline.
#include "sciddicat/serial.h"

#include <algorithm>

#include "sciddicat/cell_passes.h"
#include "sciddicat/model.h"
#include "sciddicat/terrain.h"

#include "wb/timer.h"

#include <cstddef>

namespace sciddicat {

void serial_run(int rows, int cols, const double* sz, double* sh, std::vector<double>& sf, int steps) {
    const std::size_t n = static_cast<std::size_t>(rows) * cols;
    sf.assign(4 * n, 0.0);
    double* north = sf.data();
    double* west = north + n;
    double* east = west + n;
    double* south = east + n;
    for (int s = 0; s < steps; ++s) {
        for (int i = 1; i < rows - 1; ++i)  // 1. reset
            for (int j = 1; j < cols - 1; ++j) {
                const std::size_t k = static_cast<std::size_t>(i) * cols + j;
                north[k] = west[k] = east[k] = south[k] = 0.0;
            }
        for (int i = 1; i < rows - 1; ++i)  // 2. flows
            for (int j = 1; j < cols - 1; ++j) {
                const std::size_t k = static_cast<std::size_t>(i) * cols + j;
                const double u[4] = {sz[k - cols] + sh[k - cols], sz[k - 1] + sh[k - 1], sz[k + 1] + sh[k + 1],
                                     sz[k + cols] + sh[k + cols]};
                double flow[4];
                cell_outflows(sh[k], sz[k], u, flow);
                north[k] = flow[0];
                west[k] = flow[1];
                east[k] = flow[2];
                south[k] = flow[3];
            }
        for (int i = 1; i < rows - 1; ++i)  // 3. width update
            for (int j = 1; j < cols - 1; ++j) {
                const long k = static_cast<long>(i) * cols + j;
                sh[k] = cell_mass_balance(sh[k], north, west, east, south, k, cols);
            }
    }
}

}  // namespace sciddicat

namespace sciddicat {

SerialReference serial_reference(const Terrain& terrain, int steps) {
    SerialReference reference;
    reference.rows = terrain.header.rows;
    reference.cols = terrain.header.cols;
    initial_state(terrain, reference.sz, reference.initial_sh);
    reference.expected = reference.initial_sh;
    std::vector<double> sf;
    serial_run(reference.rows, reference.cols, reference.sz.data(), reference.expected.data(), sf, steps);
    return reference;
}

SerialBaseline time_serial_run(const Terrain& terrain, int steps, int serial_steps) {
    std::vector<double> sz, sh, sf;
    initial_state(terrain, sz, sh);
    // A few steps first, to say how long the whole serial run will take when that is long.
    const int first_steps = std::min(serial_steps, 10);
    wb::WallTimer timer;
    serial_run(terrain.header.rows, terrain.header.cols, sz.data(), sh.data(), sf, first_steps);
    wb::announce_long_work("serial baseline, " + std::to_string(serial_steps) + " steps",
                           timer.elapsed_ms() / 1000.0 * serial_steps / first_steps);
    serial_run(terrain.header.rows, terrain.header.cols, sz.data(), sh.data(), sf, serial_steps - first_steps);
    SerialBaseline baseline;
    baseline.ms = timer.elapsed_ms() * steps / serial_steps;
    baseline.name = terrain.name == "synthetic" ? "synthetic-serial" : "serial";
    if (serial_steps != steps) baseline.name += "-scaled-from-" + std::to_string(serial_steps) + "-steps";
    return baseline;
}

}  // namespace sciddicat
