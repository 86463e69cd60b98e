/// @file roofs.h
/// @brief The roofline of the GPU a benchmark runs on, measured in the same run: how fast it
/// can stream memory and how fast it can do fused multiply-adds. Every benchmark row that
/// declares its work (BenchRow::flops, BenchRow::dram_bytes) is placed under these roofs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wb {

/// Measured once per process on the current GPU (the first call measures, about 50 ms).
struct Roofs {
    double stream_gbs = -1.0;          ///< the faster of a streaming copy kernel (bytes read + written / time)
                                       ///< and a pure read (bytes read / time)
    double copy_gbs = -1.0;            ///< cudaMemcpy device to device, counted the same way
    double fp64_gflops = -1.0;         ///< FP64 FMA probe, 2 flops per FMA (no tensor cores)
    double fp32_gflops = -1.0;         ///< FP32 FMA probe, 2 flops per FMA (no tensor cores)
    double fp64_tensor_gflops = -1.0;  ///< FP64 tensor-core (DMMA) probe: mma.sync m16n8k16 on
                                       ///< compute capability 9.0 and later, m8n8k4 on 8.x; -1 below 8.0
};

/// Device-to-device copy bandwidth in GB/s (bytes read + bytes written, 1 GB = 1e9 B),
/// median of `repeats` copies of `bytes` bytes after a warm-up.
double measure_copy_bandwidth_gbs(std::size_t bytes = std::size_t(1) << 30, int repeats = 20);

/// The roofs of the current GPU (measured on first use).
const Roofs& measured_roofs();

/// The arithmetic roof for a benchmark row's precision: fp64 for "double", fp32 for "float",
/// the FP64 tensor-core roof for "double" on tensor cores; -1 for any other.
double arithmetic_roof_gflops(const Roofs& roofs, const std::string& precision, bool tensor_cores);

/// Lines describing the GPU and the software of this run (largest clocks, driver, CUDA runtime, and
/// whatever libraries registered themselves with add_environment_note), for CSV headers.
std::vector<std::string> gpu_environment_lines();

/// Lets a library add itself to gpu_environment_lines() (e.g. "cuBLAS 13.0.2").
bool add_environment_note(const std::string& note);

}  // namespace wb
