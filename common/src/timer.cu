#include "wb/timer.h"

#include "wb/cuda_check.h"

#include <algorithm>
#include <cstdio>

namespace wb {

GpuTimer::GpuTimer(cudaStream_t stream) : stream_(stream) {
    WB_CUDA_CHECK(cudaGetDevice(&device_));
    WB_CUDA_CHECK(cudaEventCreate(&start_));
    WB_CUDA_CHECK(cudaEventCreate(&stop_));
}

GpuTimer::~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
}

void GpuTimer::start() {
    // Until its stop event is recorded, a stretch counts as not running (stop_ still holds the
    // previous stretch's event, already passed).
    stop_recorded_ = false;
    ++started_;
    WB_CUDA_CHECK(cudaEventRecord(start_, stream_));
}

double GpuTimer::stop_ms() {
    WB_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    stop_recorded_ = true;
    WB_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    WB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
}

long GpuTimer::running() const {
    const long stretch = started_;
    if (stretch == 0 || !stop_recorded_) return -1;
    // Another thread's CUDA calls go to its own current device: make it the timer's, so that the
    // queries below create no context on another GPU. An error only means "not known to run".
    if (cudaSetDevice(device_) != cudaSuccess) return -1;
    const bool passed_start = cudaEventQuery(start_) == cudaSuccess;
    const bool before_stop = cudaEventQuery(stop_) == cudaErrorNotReady;
    // A start() in between (a stretch ended and the next began) makes the answer unknown.
    if (!passed_start || !before_stop || started_ != stretch || !stop_recorded_) return -1;
    return stretch;
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

namespace {

// Spins for `cycles` clock cycles: keeps the GPU busy while the host queues a batch.
__global__ void hold_gpu(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

}  // namespace

TimingStats measure_gpu_batches(int repeats, int batch, const std::function<void(int)>& launch) {
    GpuTimer timer;
    return measure_gpu_batches(timer, repeats, batch, launch);
}

TimingStats measure_gpu_batches(GpuTimer& timer, int repeats, int batch, const std::function<void(int)>& launch) {
    int device = 0, clock_khz = 0;
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    if (clock_khz <= 0) clock_khz = 2000000;                                                 // unknown: assume 2 GHz
    const long long hold_cycles_per_launch = static_cast<long long>(clock_khz) * 20 / 1000;  // 20 us
    for (int i = 0; i < batch; ++i) launch(i);
    WB_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        hold_gpu<<<1, 1>>>(hold_cycles_per_launch * (batch + 4));
        WB_CHECK_LAUNCH("hold_gpu");
        timer.start();
        for (int i = 0; i < batch; ++i) launch(i);
        samples.push_back(timer.stop_ms() / batch);
    }
    return summarize(samples);
}

void announce_long_work(const std::string& what, double predicted_seconds) {
    if (predicted_seconds <= 2.0) return;
    if (predicted_seconds < 120.0)
        std::printf("  %s: about %.0f s to go ...\n", what.c_str(), predicted_seconds);
    else
        std::printf("  %s: about %.0f min to go ...\n", what.c_str(), predicted_seconds / 60.0);
    std::fflush(stdout);
}

}  // namespace wb
