// The serial baseline and the launch ceiling of a SciddicaT benchmark.
#include "sciddicat/bench.h"

#include "sciddicat/fused.h"  // kFusedGraphLaunches
#include "sciddicat/serial.h"

#include "wb/cuda_graph.h"  // time_empty_launches
#include "wb/device.h"      // host_cpu_name

#include <cstdio>
#include <string>

namespace sciddicat {

CellRate write_baseline_rows(wb::BenchRows& rows, const Terrain& terrain, int steps, int serial_steps,
                             cudaStream_t stream, int repeats) {
    const int grid_rows = terrain.header.rows, grid_cols = terrain.header.cols;
    const CellRate mcells{static_cast<double>(grid_rows) * grid_cols * steps};
    const SerialBaseline serial = time_serial_run(terrain, steps, serial_steps);
    const wb::TimingStats empty = wb::time_empty_launches(steps, 0, stream, repeats);
    const wb::TimingStats empty_graph = wb::time_empty_launches(steps, kFusedGraphLaunches, stream, repeats);
    std::printf("  %s: %d steps; %d empty launches take %.2f ms (%.2f us each), from a graph %.2f ms\n",
                terrain.name.c_str(), steps, steps, empty.median_ms, 1e3 * empty.median_ms / steps,
                empty_graph.median_ms);

    wb::BenchRow& shared = rows.shared();
    shared.shape = std::to_string(grid_rows) + "x" + std::to_string(grid_cols) + "x" + std::to_string(steps);
    shared.n = grid_rows;
    shared.ceiling_rate = mcells(empty.median_ms);
    shared.baseline = serial.name;
    shared.baseline_ms = serial.ms;
    // Every version does at least one step of every cell per step; a version that does less
    // (lesson 10's active tiles) or more steps per launch declares its own work.
    declare_cell_work(shared, mcells.cell_steps, 1);
    wb::BenchRow serial_row = shared;
    serial_row.kernel = serial.name;
    serial_row.time = wb::TimingStats{serial.ms, serial.ms, serial.ms, 1};
    serial_row.rate = mcells(serial.ms);
    serial_row.device = wb::host_cpu_name();
    rows.write(serial_row);
    // The empty launches do no work: no place under the roofline.
    wb::BenchRow empty_row = shared;
    empty_row.flops = empty_row.dram_bytes = -1.0;
    empty_row.block = "1x32";
    empty_row.kernel = "empty-kernel-launches";
    empty_row.time = empty;
    empty_row.rate = mcells(empty.median_ms);
    rows.write(empty_row);
    empty_row.kernel = "empty-kernel-graph";
    empty_row.time = empty_graph;
    empty_row.rate = mcells(empty_graph.median_ms);
    rows.write(empty_row);
    return mcells;
}

}  // namespace sciddicat
