#include "wb/timer.h"

#include "wb/cuda_check.h"

#include <algorithm>

namespace wb {

GpuTimer::GpuTimer(cudaStream_t stream) : stream_(stream) {
    WB_CUDA_CHECK(cudaEventCreate(&start_));
    WB_CUDA_CHECK(cudaEventCreate(&stop_));
}

GpuTimer::~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
}

void GpuTimer::start() { WB_CUDA_CHECK(cudaEventRecord(start_, stream_)); }

double GpuTimer::stop_ms() {
    WB_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    WB_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    WB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
}

TimingStats summarize(std::vector<double> samples_ms) {
    TimingStats stats;
    stats.repeats = static_cast<int>(samples_ms.size());
    if (samples_ms.empty()) return stats;
    std::sort(samples_ms.begin(), samples_ms.end());
    const std::size_t n = samples_ms.size();
    stats.median_ms = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
    stats.min_ms = samples_ms.front();
    stats.max_ms = samples_ms.back();
    return stats;
}

}  // namespace wb
