/// @file versions.h
/// @brief Lesson 05: the table of versions the driver runs, and how it runs one of them on a
/// matrix already on the device.
#pragma once

#include "column_reduce.h"
#include "going_further.h"

#include "wb/column_sums.h"
#include "wb/workbook.h"

#include <string>
#include <vector>

/// An m x n matrix of doubles (rows x columns, row-major).
struct Shape {
    long long m;
    int n;
    std::string str() const { return std::to_string(m) + "x" + std::to_string(n); }
    double bytes() const { return 8.0 * static_cast<double>(m) * n; }
};

enum class Kind { original, truncating, split16, high2, cas, bandwidth, shuffle, cub, thrust, cublas };

/// How the driver runs one version: its kind, and what it is.
struct VersionKind {
    Kind kind;
    const char* what;
};

/// One version: its name is the CSV's kernel column and what --kernels selects it by.
using Version = wb::Version<VersionKind>;

inline const std::vector<Version> kVersions = {
    {"original", "", {Kind::original, "one thread per column"}},
    {"split16-truncating", "", {Kind::truncating, "64x16 blocks, m/16 rows each (drops m % 16 rows)"}},
    {"split16", "", {Kind::split16, "64x16 blocks, rows split exactly (TODO 1)"}},
    {"high2", "", {Kind::high2, "8 blocks of 8x128 threads"}},
    {"split16-cas", "", {Kind::cas, "split16 with atomicAdd made of atomicCAS (TODO 2)"}},
    {"bandwidth", "", {Kind::bandwidth, "coalesced, block-combined, one atomic per block and column (TODO 3)"}},
    {"bandwidth-shuffle", "", {Kind::shuffle, "version 5 combining each warp's columns with shuffles (n divides 32)"}},
    {"cub-segmented", "", {Kind::cub, "CUB DeviceSegmentedReduce over a column-major view: one segment per column"}},
    {"thrust-by-key", "", {Kind::thrust, "Thrust reduce_by_key over the column-major view, keyed by column"}},
    {"cublas-dgemv", "", {Kind::cublas, "cuBLAS dgemv, y = A^T * ones (the library baseline)"}},
};

/// The assignment's CPU loop, in the cache-friendly order (along rows), for the CPU time.
void cpu_column_sums(const double* matrix, double* sums, const Shape& shape);

/// The versions to run and version 5's launch, from the command line.
struct Settings {
    std::vector<Version> versions;  ///< those --kernels names, in its order (default: all)
    int threads = 1024;             ///< threads per block (--block)
    int blocks_per_sm = 0;          ///< blocks per multiprocessor (--blocks-per-sm; 0: as many as fit)
};

/// --kernels, --block (one-dimensional, at most 1024 threads) and --blocks-per-sm; a usage error
/// otherwise.
Settings settings_from(const wb::Options& options);

/// The matrix on the device (the benchmark reads rotated copies, so that no launch finds it in
/// L2), the sums, and the vector of ones of cuBLAS's y = A^T * ones.
struct DeviceData {
    std::vector<wb::DeviceBuffer<double>> matrices;
    wb::DeviceBuffer<double> sums;
    wb::DeviceBuffer<double> ones;
    wb::DeviceBuffer<unsigned char> cub_scratch;  ///< CUB's temporary storage, sized once
    wb::DeviceBuffer<int> thrust_keys;            ///< the columns reduce_by_key reports
};

/// Uploads `copies` copies of the matrix (a clear error first when the device lacks the memory).
DeviceData upload(const std::vector<double>& matrix, const Shape& shape, int copies);

/// Launches one version on copy `copy` of the matrix, writing data.sums; does not wait.
LaunchConfig run_version(Kind kind, int copy, const DeviceData& data, const Shape& shape, const Settings& settings);

/// "x,y,z", as the assignment's program printed grids and blocks.
std::string dims(dim3 d);

/// Runs one version once on poisoned sums and compares them with the reference; with `print`,
/// one line with its grid, block and the comparison.
bool run_and_compare(const Version& version, DeviceData& data, const Shape& shape,
                     const wb::ColumnSumsReference& reference, const Settings& settings, bool print);

/// Times one version's kernel(s): the median of batches of launches, each launch reading the
/// next copy of the matrix (wb::measure_gpu_batches). `repeats` of 0 chooses them: few for slow
/// versions, enough for a stable median for fast ones. `config` receives the launch's grid and block.
wb::TimingStats time_version(const Version& version, const DeviceData& data, const Shape& shape,
                             const Settings& settings, int repeats, LaunchConfig& config);

/// The truncating split is given code with a known bug: true when its result `ok` is what it
/// must be, right exactly where no row is dropped (m a multiple of 16). Prints why otherwise.
bool truncating_as_expected(bool ok, const Shape& shape);
