/// @file steady_timing.h
/// @brief Benchmark timings that are repeated while they are unsteady, and the mark of a quick
/// run, both written into the CSV's label so that a figure is never read for more than it is.
#pragma once

#include "wb/timer.h"

#include <cstddef>
#include <functional>
#include <string>

namespace wb {

/// How steady a timing must be: its slowest sample at most `most_spread` times its fastest,
/// measured up to `tries` times in all.
struct Steadiness {
    double most_spread = 1.2;  ///< largest accepted max/min of the samples
    int tries = 3;             ///< measurements at most
};

/// The slowest sample divided by the fastest (0 when the fastest is 0).
double spread(const TimingStats& time);

/// A timing and the label its CSV row gets.
struct SteadyTiming {
    TimingStats time;   ///< the last measurement
    std::string label;  ///< `label`, with "; unsteady: ..." when it stayed unsteady
};

/// Measures with `measure_once` until its spread is at most limits.most_spread, limits.tries times
/// at most. A timing still unsteady after that is kept, with a warning naming `name`, and its
/// label gets "; unsteady: max/min 1.43 after 3 tries".
SteadyTiming measure_steadily(const std::string& name, const std::string& label,
                              const std::function<TimingStats()>& measure_once, const Steadiness& limits = {});

/// A device-to-device copy of `bytes` from `from` to `to`, timed as the benchmarks time their
/// kernels: `repeats` samples of `batch` back-to-back copies, measured again while unsteady. The
/// ceiling of a kernel that reads and writes those bytes once (label: "cudaMemcpyAsync device to
/// device").
SteadyTiming time_device_copy(void* to, const void* from, std::size_t bytes, int repeats, int batch);

/// "" when `repeats` is at least `default_repeats`; otherwise prints a warning that the run is a
/// quick one, for a smoke test, and returns "; quick run, N repeats" for every row's label.
std::string quick_run_mark(int repeats, int default_repeats);

}  // namespace wb
