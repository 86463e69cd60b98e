// Lesson 08 harness: the benchmark's rows of one scaling point (see scaling_rows.h).
#include "harness/scaling_rows.h"

#include "sciddicat/bench.h"
#include "wb/roofs.h"

void write_rows(wb::BenchRows& rows, const std::string& kind, const Inputs& in, int steps, int gpus,
                const ScalingPoint& point, const ScalingPoint& one_gpu, double work_factor) {
    const double cells = static_cast<double>(in.rows) * in.cols * steps;
    const double one_gpu_rate =
        static_cast<double>(in.rows) * in.cols / work_factor * steps / (one_gpu.total.median_ms * 1e3);
    wb::BenchRow row = rows.shared();
    row.shape = std::to_string(in.rows) + "x" + std::to_string(in.cols) + "x" + std::to_string(steps);
    row.n = gpus;
    row.block = std::to_string(gpus) + (gpus == 1 ? "-gpu" : "-gpus");
    wb::BenchRow part = row;  // the compute and exchange rows have no rate, ceiling or baseline
    row.kernel = kind;
    row.time = point.total;
    row.rate = cells / (point.total.median_ms * 1e3);  // million cell updates per second
    row.rate_unit = "Mcells/s";
    row.ceiling = "ideal-scaling";  // ratio = parallel efficiency
    row.ceiling_rate = one_gpu_rate * gpus;
    // Under the roofline of all the GPUs together: each one's measured roofs, times their number.
    sciddicat::declare_cell_work(row, cells, 1);
    const wb::Roofs& roofs = wb::measured_roofs();
    row.roof_gbs = gpus * roofs.stream_gbs;
    row.roof_gflops = gpus * roofs.fp64_gflops;
    if (work_factor == 1.0) {
        row.baseline = "1-gpu";
        row.baseline_ms = one_gpu.total.median_ms;
    }
    rows.write(row);
    part.kernel = kind + "-compute";
    part.time = point.compute;
    rows.write(part);
    if (gpus == 1) return;
    part.kernel = kind + "-exchange";
    part.time = point.exchange;
    rows.write(part);
}
