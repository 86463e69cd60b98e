// Lesson 03, program "occupancy": kernels of different register counts, compiled here, for the
// check that compares occupancy_of() with the CUDA runtime on a real GPU.
#pragma once

#include <vector>

struct NamedKernel {
    const char* name;
    const void* function;  // for cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor
};

// From few registers per thread to many: "few registers", "16 live doubles", "48 live doubles",
// "100 live doubles".
std::vector<NamedKernel> register_probe_kernels();
