#include "wb/steady_timing.h"

#include "wb/cuda_check.h"

#include <cstdio>

namespace wb {

double spread(const TimingStats& time) { return time.min_ms > 0.0 ? time.max_ms / time.min_ms : 0.0; }

SteadyTiming measure_steadily(const std::string& name, const std::string& label,
                              const std::function<TimingStats()>& measure_once, const Steadiness& limits) {
    TimingStats time;
    for (int attempt = 1; attempt <= limits.tries; ++attempt) {
        time = measure_once();
        if (spread(time) <= limits.most_spread) return {time, label};
    }
    std::printf("  warning: %s: slowest sample %.2f times the fastest after %d tries (limit %.1f); kept, marked "
                "\"unsteady\" in the CSV\n",
                name.c_str(), spread(time), limits.tries, limits.most_spread);
    char mark[80];
    std::snprintf(mark, sizeof mark, "; unsteady: max/min %.2f after %d tries", spread(time), limits.tries);
    return {time, label + mark};
}

std::string quick_run_mark(int repeats, int default_repeats) {
    if (repeats >= default_repeats) return "";
    std::printf("warning: --repeat %d is fewer than %d: a quick run for a smoke test; every row is marked "
                "\"quick run\" in the CSV, and its figures are not for comparison\n",
                repeats, default_repeats);
    return "; quick run, " + std::to_string(repeats) + " repeats";
}

SteadyTiming time_device_copy(void* to, const void* from, std::size_t bytes, int repeats, int batch) {
    return measure_steadily("device-copy", "cudaMemcpyAsync device to device", [&] {
        return measure_gpu_batches(
            repeats, batch, [&](int) { WB_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice)); });
    });
}

}  // namespace wb
