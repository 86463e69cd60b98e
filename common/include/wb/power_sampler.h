/// @file power_sampler.h
/// @brief SM clock, board power and the reasons the clock is held back, read while timed GPU work runs.
///
/// The NVIDIA management library (NVML, `libnvidia-ml.so.1`, installed with the driver) is
/// loaded at run time, so the course builds and runs where it is missing (no driver, a
/// container without it): the sampler then says so once and every figure stays unknown, which
/// the CSV writes as empty fields, never as zero.
///
/// Every figure describes the timed runs and nothing else. While sampling, a background thread
/// asks the timer which timed stretch the GPU is in (GpuTimer::running: past the stretch's start
/// event, before its stop event) and, inside one, reads every `interval_ms` (1 by default) the SM
/// clock, the board's power and the clock event reasons; a reading is kept only when the same
/// stretch ran before and after it. So the untimed runs that settle the GPU, a benchmark's
/// warm-up batch, the spin that holds the GPU while a batch is queued, the gaps between samples
/// and the tries that a steadier measurement replaced are left out. The board power is NVML's
/// instantaneous reading (field NVML_FI_DEV_POWER_INSTANT): nvmlDeviceGetPowerUsage averages over
/// about the last second on Ampere and later GPUs (except A100), longer than most timed runs, so
/// it is not used; where the instantaneous reading is missing, the power columns stay empty.
#pragma once

#include "wb/timer.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace wb {

/// The bits of NVML's clock event reasons (nvmlClocksEventReason*, formerly "throttle reasons").
enum ClockEventBits : std::uint64_t {
    kClockEventIdle = 0x1,               ///< nothing runs: the clock idles
    kClockEventApplicationClocks = 0x2,  ///< application clocks set below the maximum
    kClockEventSwPowerCap = 0x4,         ///< the power controller holds the clock at the power limit
    kClockEventHwSlowdown = 0x8,         ///< hardware slowdown (power brake, temperature)
    kClockEventSyncBoost = 0x10,         ///< held to the clock of other GPUs of a sync-boost group
    kClockEventSwThermal = 0x20,         ///< the driver cools the GPU down (temperature)
    kClockEventHwThermal = 0x40,         ///< hardware thermal slowdown
    kClockEventHwPowerBrake = 0x80,      ///< external power brake (the system's power supply)
    kClockEventDisplayClocks = 0x100,    ///< display clock setting
};

/// The bits as a short CSV-safe text: names joined by '+' ("sw-power-cap+hw-slowdown"), "none"
/// for no bit, an unnamed bit as its hexadecimal value ("0x200").
std::string clock_event_names(std::uint64_t bits);

/// What was read while the timed stretches ran. Figures that could not be read are negative (the
/// CSV writes them as empty fields).
struct PowerSummary {
    int samples = 0;                 ///< readings kept: taken inside a timed stretch (0: nothing measured)
    double sm_clock_mhz = -1.0;      ///< median SM clock of those readings
    double sm_clock_min_mhz = -1.0;  ///< lowest SM clock read
    double sm_clock_max_mhz = -1.0;  ///< highest SM clock read
    double power_w = -1.0;           ///< median board power (NVML's instantaneous reading)
    double power_min_w = -1.0;       ///< lowest board power read
    double power_max_w = -1.0;       ///< highest board power read
    double power_limit_w = -1.0;     ///< the power limit the board enforces (not the datasheet's)
    bool events_known = false;       ///< the event reasons were read at least once
    std::uint64_t events = 0;        ///< OR of every event-reason bit read

    /// clock_event_names(events), or "" when the reasons were never read.
    std::string events_text() const;
    /// "SM 1755 MHz (1740..1770), 690 W (681..701, limit 700 W), clock events: sw-power-cap, 25
    /// readings while timed", leaving out what is unknown; "" when nothing was read.
    std::string describe() const;
    /// Column values, in the order of power_columns(): numbers or "" for unknown.
    std::vector<std::string> fields() const;
};

/// Names of the columns PowerSummary::fields() fills: sm_clock_mhz, sm_clock_min_mhz,
/// sm_clock_max_mhz, power_w, power_min_w, power_max_w, power_limit_w, clock_events, timed_samples.
const std::vector<std::string>& power_columns();

/// The CSV comment line that says what those columns hold (without "# ").
std::string power_columns_comment(double interval_ms = 1.0);

/// Samples one GPU through NVML between start() and stop(), keeping the readings taken inside
/// timed stretches.
class PowerSampler {
public:
    /// Which timed stretch runs now (a number, the same for one stretch), or a negative number
    /// outside them; asked from the sampler's thread (GpuTimer::running).
    using Stretch = std::function<long()>;

    /// Loads `library` and finds the GPU at `pci_bus_id` (as cudaDeviceGetPCIBusId writes it).
    /// Any failure is said once per process on stdout ("power and clock not measured: ...") and
    /// leaves the sampler unavailable: start() and stop() then do nothing and return no figures.
    explicit PowerSampler(const std::string& pci_bus_id, double interval_ms = 1.0,
                          const std::string& library = "libnvidia-ml.so.1");
    ~PowerSampler();
    PowerSampler(const PowerSampler&) = delete;
    PowerSampler& operator=(const PowerSampler&) = delete;

    /// NVML was loaded and the GPU found.
    bool available() const { return nvml_ != nullptr; }
    /// Why the sampler is unavailable ("" when it is available).
    const std::string& why_unavailable() const { return why_; }
    /// The time between two readings inside a timed stretch.
    double interval_ms() const { return interval_ms_; }
    /// Starts sampling on a background thread: outside a timed stretch it waits (asking `stretch`
    /// every 0.1 ms), inside one it reads every interval and keeps the reading when `stretch`
    /// gives the same number before and after it.
    void start(Stretch stretch);
    /// Stops sampling and summarises the readings kept since start().
    PowerSummary stop();

    struct Nvml;  ///< the library's entry points (power_sampler.cpp)

private:
    struct Sample {
        double clock_mhz = -1.0, power_w = -1.0;
        bool events_known = false;
        std::uint64_t events = 0;
    };
    Sample take_sample();
    void run();

    Nvml* nvml_ = nullptr;
    void* device_ = nullptr;
    double interval_ms_ = 1.0;
    double power_limit_w_ = -1.0;
    std::string why_;
    Stretch stretch_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::vector<Sample> samples_;
};

/// Stops a sampler when it goes out of scope, an exception included. Declared after the GpuTimer
/// whose stretches the sampler asks about, it ends the sampling before that timer is gone.
class SamplingScope {
public:
    /// Takes the sampler that the scope's end stops (started or not).
    explicit SamplingScope(PowerSampler& sampler) : sampler_(sampler) {}
    ~SamplingScope() { sampler_.stop(); }
    SamplingScope(const SamplingScope&) = delete;
    SamplingScope& operator=(const SamplingScope&) = delete;

private:
    PowerSampler& sampler_;
};

/// The CUDA device's PCI bus id ("0000:1B:00.0"), or "" when it cannot be read.
std::string cuda_pci_bus_id(int device);

/// A timing and what the sampler read while its timed stretches ran.
struct SampledTiming {
    TimingStats time;    ///< the timing
    PowerSummary power;  ///< clock, power and clock events read inside the timed stretches
};

/// Runs `launch` (GPU work on the default stream) untimed and waits for it, again and again
/// until `settle_ms` have passed (at least once), so that the timed runs start at the clock and
/// the power this work settles at, not at those of what ran before. Stops at the first failed
/// wait and returns its error (cudaSuccess otherwise).
template <class F>
cudaError_t settle_gpu(double settle_ms, F&& launch) {
    const WallTimer settling;
    cudaError_t status = cudaSuccess;
    do {
        launch();
        status = cudaDeviceSynchronize();
    } while (status == cudaSuccess && settling.elapsed_ms() < settle_ms);
    return status;
}

/// settle_gpu(settle_ms, launch), then times `repeats` runs (measure_gpu, no further warm-up)
/// while `sampler` keeps the readings taken during them. The caller checks the launches afterwards.
template <class F>
SampledTiming measure_gpu_sampled(PowerSampler& sampler, double settle_ms, int repeats, F&& launch) {
    settle_gpu(settle_ms, launch);  // an error: the caller's launch check names it
    GpuTimer timer;
    SampledTiming result;
    sampler.start([&timer] { return timer.running(); });
    const SamplingScope sampling(sampler);
    result.time = measure_gpu(timer, 0, repeats, launch);
    result.power = sampler.stop();
    return result;
}

/// measure_gpu_batches(repeats, batch, launch) while `sampler` keeps the readings taken during
/// the timed batches (not during the warm-up batch, nor the spin before each batch).
SampledTiming measure_gpu_batches_sampled(PowerSampler& sampler, int repeats, int batch,
                                          const std::function<void(int)>& launch);

}  // namespace wb
