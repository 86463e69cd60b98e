/// @file timer.h
/// @brief Wall-clock and CUDA-event timers, and the median-of-repeats benchmark helper.
///
/// Timing belongs in benchmarks, never in pass/fail checks. Every measurement warms up first
/// (module load, first-touch, cuBLAS handle creation stay out of the numbers), repeats, and
/// reports the median.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

/// Host wall-clock timer (steady clock).
class WallTimer {
public:
    WallTimer() { start(); }  ///< starts timing
    /// Restarts the timer.
    void start() { begin_ = std::chrono::steady_clock::now(); }
    /// Milliseconds since start().
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin_).count();
    }

private:
    std::chrono::steady_clock::time_point begin_;
};

/// Times GPU work on a stream with a pair of CUDA events.
class GpuTimer {
public:
    /// Creates the two events; times work on `stream`.
    explicit GpuTimer(cudaStream_t stream = nullptr);
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;
    /// Records the start event.
    void start();
    /// Records the stop event, waits for it, and returns the milliseconds since start().
    double stop_ms();
    /// Which timed stretch the GPU is in now, asked from any thread (a power sampler's): the
    /// number of the latest start() (1, 2, ...) while the GPU has passed its start event and not
    /// yet its stop event, -1 before, between and after them. The same number asked before and
    /// after a reading proves that the reading was taken inside that one stretch.
    long running() const;

private:
    cudaStream_t stream_;
    cudaEvent_t start_{}, stop_{};
    int device_ = 0;
    std::atomic<long> started_{0};            // start() calls so far
    std::atomic<bool> stop_recorded_{false};  // the latest start() has its stop event recorded
};

/// Median, minimum and maximum of repeated measurements.
struct TimingStats {
    double median_ms = 0.0;  ///< median of the repeats
    double min_ms = 0.0;     ///< fastest repeat
    double max_ms = 0.0;     ///< slowest repeat
    int repeats = 0;         ///< number of timed repeats
};

/// Summarises samples (in milliseconds).
TimingStats summarize(std::vector<double> samples_ms);

/// Before work predicted to take more than two seconds, prints one line saying what runs and
/// about how long it will take ("  cpu-ijk n=3000: about 45 s to go ..."), so that long work
/// is never silent. Shorter work prints nothing.
void announce_long_work(const std::string& what, double predicted_seconds);

/// Progress through work of known total size (bytes, cases, steps): after each part, says how
/// long the rest will take when that is over two seconds ("  check: about 14 s to go ...").
class WorkProgress {
public:
    /// `what` names the work in the message; `total` is its size in any unit.
    WorkProgress(std::string what, double total) : what_(std::move(what)), total_(total) {}
    /// `done` more units are finished.
    void advance(double done) {
        done_ += done;
        if (done_ > 0 && done_ < total_)
            announce_long_work(what_, timer_.elapsed_ms() / 1000.0 * (total_ - done_) / done_);
    }

private:
    std::string what_;
    double total_ = 0.0;
    double done_ = 0.0;
    WallTimer timer_;
};

/// Runs `run_once` `warmup` times untimed, then `repeats` times; `run_once` returns the
/// milliseconds of one run (so the caller decides what is inside the timed region). When the
/// first run shows that the rest will take more than two seconds, says how long.
template <class F>
TimingStats measure(int warmup, int repeats, F&& run_once) {
    std::vector<double> samples;
    samples.reserve(repeats);
    for (int i = 0; i < warmup + repeats; ++i) {
        const double ms = run_once();
        if (i >= warmup) samples.push_back(ms);
        // After the first run, a measurement that will take a while says how long is left.
        if (i == 0) announce_long_work("measuring", ms * (warmup + repeats - 1) / 1000.0);
    }
    return summarize(std::move(samples));
}

/// Times GPU work with `timer`: `launch` enqueues the work on the timer's stream; each run,
/// warm-ups included, is bracketed by the timer's events (GpuTimer::running() tells them apart).
template <class F>
TimingStats measure_gpu(GpuTimer& timer, int warmup, int repeats, F&& launch) {
    return measure(warmup, repeats, [&] {
        timer.start();
        launch();
        return timer.stop_ms();
    });
}

/// Times GPU work: `launch` enqueues the work on `stream`; each repeat is bracketed by events.
template <class F>
TimingStats measure_gpu(int warmup, int repeats, F&& launch, cudaStream_t stream = nullptr) {
    GpuTimer timer(stream);
    return measure_gpu(timer, warmup, repeats, launch);
}

/// Times launches too short to time one by one, where the host's launch overhead would be
/// measured instead of the GPU's work. One sample is a batch: the GPU is held busy by a spin
/// kernel while the host queues `batch` launches (launch(i) enqueues the i-th, i = 0 .. batch-1,
/// on the default stream), so the events bracket GPU work only; the sample is the batch's time
/// divided by `batch`. One untimed warm-up batch, then the median of `repeats` samples.
TimingStats measure_gpu_batches(int repeats, int batch, const std::function<void(int)>& launch);

/// measure_gpu_batches with the caller's `timer` (on the default stream): its events bracket
/// the timed batches alone, not the warm-up batch nor the spin before each batch.
TimingStats measure_gpu_batches(GpuTimer& timer, int repeats, int batch, const std::function<void(int)>& launch);

/// Times host code with the wall clock.
template <class F>
TimingStats measure_host(int warmup, int repeats, F&& work) {
    return measure(warmup, repeats, [&] {
        WallTimer timer;
        work();
        return timer.elapsed_ms();
    });
}

}  // namespace wb
