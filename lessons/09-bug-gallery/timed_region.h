/// @file timed_region.h
/// @brief Bug gallery, program timed-region: what a kernel's time should include.
#pragma once

#include <functional>

/// The five things a GPU matrix product does, in the order they must happen.
struct ProductSteps {
    std::function<void()> allocate;     ///< cudaMalloc of A, B and C
    std::function<void()> copy_inputs;  ///< A and B, host to device
    std::function<void()> multiply;     ///< the kernel launch (and its wait)
    std::function<void()> copy_result;  ///< C, device to host
    std::function<void()> release;      ///< cudaFree
};

/// A stopwatch in the style of a pair of CUDA events.
struct StopWatch {
    std::function<void()> start;      ///< record the start event
    std::function<double()> stop_ms;  ///< record the stop event, wait, return milliseconds since start
};

/// Runs all five steps once and returns the time of the kernel alone, in milliseconds.
double time_the_kernel(const ProductSteps& steps, const StopWatch& watch);
