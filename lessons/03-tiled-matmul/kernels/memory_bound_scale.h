// Lesson 03, program "occupancy": the memory-bound kernel whose blocks per SM the benchmark sets.
#pragma once

#include <cstddef>

// The kernel itself, for cudaFuncSetAttribute and cudaOccupancyMaxActiveBlocksPerMultiprocessor.
const void* scale_kernel_function();

// y = 3x over `count` doubles, with a grid-stride loop on `grid` blocks of `threads` threads,
// each block asking for `dynamic_shared_bytes` of shared memory it does not use (checks the
// launch).
void launch_scale(int grid, int threads, std::size_t dynamic_shared_bytes, const double* x, double* y, long long count);
