/// @file sciddicat_gpu.h
/// @brief Lesson 06: the GPU versions of one SciddicaT step. Each *_step function enqueues one
/// whole step (reset, flows, width update) on the default stream and checks its launches: it
/// reads g.sz, updates g.sh in place and uses g.sf for the outflows.
#pragma once

#include "sciddicat/device_grid.h"
#include "sciddicat/model.h"

#include <cuda_runtime.h>

#include <cstddef>

/// Version 2: three kernels over global memory, one thread per cell (exercise: monolithic.cu).
void monolithic_step(const sciddicat::DeviceGrid& g, dim3 block);
/// Version 3: the same three kernels with grid-stride loops, launched with fewer blocks so that
/// each thread covers about cells_per_axis x cells_per_axis cells (the report's NUM_ITER).
void grid_stride_step(const sciddicat::DeviceGrid& g, dim3 block, int cells_per_axis);
/// Version 4: the block's tile in shared memory, neighbours outside it from global memory.
void shared_no_halo_step(const sciddicat::DeviceGrid& g, dim3 block);
/// Version 5: the tile plus a one-cell halo in shared memory (exercise: shared_halo.cu).
void shared_halo_step(const sciddicat::DeviceGrid& g, dim3 block);
/// Shared memory bytes per block of the shared-halo version's largest kernel.
std::size_t shared_halo_bytes(dim3 block);
