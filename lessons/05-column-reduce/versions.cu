// Lesson 05: how the driver runs one version (see versions.h).
#include "versions.h"

#include "library_versions.h"

#include "wb/gemv_ceiling.h"

#include <cstdio>

namespace {

// A version whose first run takes longer than this is timed with 3 samples instead of 15.
constexpr double kLongSampleMs = 50.0;

}  // namespace

void cpu_column_sums(const double* matrix, double* sums, const Shape& shape) {
    for (int col = 0; col < shape.n; ++col) sums[col] = 0.0;
    for (long long row = 0; row < shape.m; ++row)
        for (int col = 0; col < shape.n; ++col) sums[col] += matrix[row * shape.n + col];
}

Settings settings_from(const wb::Options& options) {
    Settings settings;
    settings.versions = wb::select_kernels(options, kVersions);
    if (!options.blocks.empty()) {
        const wb::Block2 block = options.blocks[0];
        const long threads = block.one_number ? block.x : block.threads();
        if (options.blocks.size() != 1 || (!block.one_number && block.y != 1) || threads > 1024)
            wb::usage_error(
                "--block: version 5 takes one-dimensional blocks of at most 1024 threads (e.g. --block 512); got " +
                block.str());
        settings.threads = static_cast<int>(threads);
    }
    settings.blocks_per_sm = static_cast<int>(options.integer("blocks-per-sm"));
    return settings;
}

DeviceData upload(const std::vector<double>& matrix, const Shape& shape, int copies) {
    const std::size_t bytes = wb::checked_bytes(sizeof(double), shape.m, shape.n);
    wb::require_device_memory(copies * bytes + (shape.m + shape.n) * sizeof(double) + (64u << 20),
                              (shape.str() + " matrix").c_str());
    DeviceData data{{},
                    wb::DeviceBuffer<double>(shape.n),
                    wb::DeviceBuffer<double>(std::vector<double>(shape.m, 1.0)),
                    wb::DeviceBuffer<unsigned char>(cub_column_sums_scratch_bytes(shape.m, shape.n)),
                    wb::DeviceBuffer<int>(shape.n)};
    for (int c = 0; c < copies; ++c) data.matrices.emplace_back(matrix);
    return data;
}

LaunchConfig run_version(Kind kind, int copy, const DeviceData& data, const Shape& shape, const Settings& settings) {
    const double* matrix = data.matrices[copy].get();
    double* sums = data.sums.get();
    const long long m = shape.m;
    const int n = shape.n;
    switch (kind) {
        case Kind::original: return column_sums_original(matrix, sums, m, n);
        case Kind::truncating: return column_sums_split16_truncating(matrix, sums, m, n);
        case Kind::split16: return column_sums_split16(matrix, sums, m, n);
        case Kind::high2: return column_sums_high2(matrix, sums, m, n);
        case Kind::cas: return column_sums_split16_cas(matrix, sums, m, n);
        case Kind::bandwidth:
            return column_sums_bandwidth(matrix, sums, m, n, settings.threads, settings.blocks_per_sm);
        case Kind::shuffle: return column_sums_bandwidth_shuffle(matrix, sums, m, n);
        case Kind::cub:
            cub_column_sums(matrix, sums, m, n, data.cub_scratch.get(), data.cub_scratch.bytes());
            return LaunchConfig{};
        case Kind::thrust: thrust_column_sums(matrix, sums, data.thrust_keys.get(), m, n); return LaunchConfig{};
        case Kind::cublas: wb::cublas_column_sums(matrix, m, n, data.ones.get(), sums); return LaunchConfig{};
    }
    return LaunchConfig{};
}

std::string dims(dim3 d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

bool run_and_compare(const Version& version, DeviceData& data, const Shape& shape,
                     const wb::ColumnSumsReference& reference, const Settings& settings, bool print) {
    data.sums.poison();
    const LaunchConfig config = run_version(version.config.kind, 0, data, shape, settings);
    WB_WAIT_FOR_KERNEL(version.name.c_str());
    const wb::CompareReport report = reference.compare(data.sums.to_host());
    if (print) {
        if (version.config.kind == Kind::cublas || version.config.kind == Kind::cub ||
            version.config.kind == Kind::thrust)
            std::printf("    %-19s %-22s ", version.name.c_str(), "(library)");
        else
            std::printf("    %-19s grid %-8s block %-8s ", version.name.c_str(), dims(config.grid).c_str(),
                        dims(config.block).c_str());
        wb::print_report(report, "sums", 0);
    }
    return report.ok();
}

wb::TimingStats time_version(const Version& version, const DeviceData& data, const Shape& shape,
                             const Settings& settings, int repeats, LaunchConfig& config) {
    const int copies = static_cast<int>(data.matrices.size());
    auto launch = [&](int i) { config = run_version(version.config.kind, i % copies, data, shape, settings); };
    if (repeats == 0) {
        wb::GpuTimer probe;
        probe.start();
        launch(0);
        repeats = probe.stop_ms() > kLongSampleMs ? 3 : 15;
    }
    return wb::measure_gpu_batches(repeats, copies, launch);
}

bool truncating_as_expected(bool ok, const Shape& shape) {
    const bool should_be_ok = shape.m % 16 == 0;
    if (ok != should_be_ok)
        std::printf("      unexpected: the truncating split should be %s here\n", should_be_ok ? "right" : "wrong");
    else if (!ok)
        std::printf("      (as expected: the last m %% 16 = %lld rows were dropped)\n", shape.m % 16);
    return ok == should_be_ok;
}
