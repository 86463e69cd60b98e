/// @file scaling_rows.h
/// @brief Lesson 08 harness: the benchmark's CSV rows of one scaling point.
#pragma once

#include "harness/grid_inputs.h"

#include "wb/csv.h"
#include "wb/timer.h"

#include <string>

/// One point of a scaling curve: the whole run, its kernels alone and its exchanges alone.
struct ScalingPoint {
    wb::TimingStats total, compute, exchange;
};

/// The rows of one point: the whole run (rate, parallel efficiency as ratio, speedup over one GPU
/// for strong scaling), then its kernels alone and, on several GPUs, its exchanges alone.
/// work_factor: how many times the 1-GPU grid's cells this grid has.
void write_rows(wb::BenchRows& rows, const std::string& kind, const Inputs& in, int steps, int gpus,
                const ScalingPoint& point, const ScalingPoint& one_gpu, double work_factor);
