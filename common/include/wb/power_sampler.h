/// @file power_sampler.h
/// @brief SM clock, board power and the reasons the clock is held back, sampled while GPU work runs.
///
/// The NVIDIA management library (NVML, `libnvidia-ml.so.1`, installed with the driver) is
/// loaded at run time, so the course builds and runs where it is missing (no driver, a
/// container without it): the sampler then says so once and every figure stays unknown, which
/// the CSV writes as empty fields, never as zero.
///
/// While sampling, a background thread reads every `interval_ms` (10 by default) the SM clock,
/// the board's power draw and the clock event reasons. NVML's power reading is an average over
/// about the last second on recent GPUs (Ampere and later, except A100), so work should run on
/// the GPU for a second or so before sampling starts for the power to belong to that work.
#pragma once

#include "wb/timer.h"

#include <condition_variable>
#include <cstdint>
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

/// What was sampled over one interval. Figures that could not be read are negative (the CSV
/// writes them as empty fields).
struct PowerSummary {
    int samples = 0;              ///< samples taken (0: nothing measured)
    double sm_clock_mhz = -1.0;   ///< median SM clock
    double power_w = -1.0;        ///< median board power
    double power_max_w = -1.0;    ///< largest board power sampled
    double power_limit_w = -1.0;  ///< the power limit the board enforces (not the datasheet's)
    bool events_known = false;    ///< the event reasons were read at least once
    std::uint64_t events = 0;     ///< OR of every event-reason bit seen

    /// clock_event_names(events), or "" when the reasons were never read.
    std::string events_text() const;
    /// "SM 1755 MHz, 690 W (max 700 W, limit 700 W), clock events: sw-power-cap", leaving out
    /// what is unknown; "" when nothing was sampled.
    std::string describe() const;
    /// Column values, in the order of power_columns(): numbers or "" for unknown.
    std::vector<std::string> fields() const;
};

/// Names of the columns PowerSummary::fields() fills: sm_clock_mhz, power_w, power_max_w,
/// power_limit_w, clock_events, power_samples.
const std::vector<std::string>& power_columns();

/// Samples one GPU through NVML between start() and stop().
class PowerSampler {
public:
    /// Loads `library` and finds the GPU at `pci_bus_id` (as cudaDeviceGetPCIBusId writes it).
    /// Any failure is said once per process on stdout ("power and clock not measured: ...") and
    /// leaves the sampler unavailable: start() and stop() then do nothing and return no figures.
    explicit PowerSampler(const std::string& pci_bus_id, int interval_ms = 10,
                          const std::string& library = "libnvidia-ml.so.1");
    ~PowerSampler();
    PowerSampler(const PowerSampler&) = delete;
    PowerSampler& operator=(const PowerSampler&) = delete;

    /// NVML was loaded and the GPU found.
    bool available() const { return nvml_ != nullptr; }
    /// Why the sampler is unavailable ("" when it is available).
    const std::string& why_unavailable() const { return why_; }
    /// Starts sampling on a background thread (one sample at once, then every interval).
    void start();
    /// Stops sampling and summarises the samples since start().
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
    int interval_ms_ = 10;
    double power_limit_w_ = -1.0;
    std::string why_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::vector<Sample> samples_;
};

/// The CUDA device's PCI bus id ("0000:1B:00.0"), or "" when it cannot be read.
std::string cuda_pci_bus_id(int device);

/// A timing and what the sampler saw while it ran.
struct SampledTiming {
    TimingStats time;    ///< the timing
    PowerSummary power;  ///< clock, power and clock events sampled while it ran
};

/// Runs `launch` (GPU work on the default stream) untimed and waits for it, again and again
/// until `settle_ms` have passed (at least once), so that the clock and NVML's power reading,
/// averaged over about a second, belong to this work and not to what ran before. Stops at the
/// first failed wait and returns its error (cudaSuccess otherwise).
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
/// while `sampler` samples. The caller checks the launches afterwards.
template <class F>
SampledTiming measure_gpu_sampled(PowerSampler& sampler, double settle_ms, int repeats, F&& launch) {
    settle_gpu(settle_ms, launch);  // an error: the caller's launch check names it
    SampledTiming result;
    sampler.start();
    result.time = measure_gpu(0, repeats, launch);
    result.power = sampler.stop();
    return result;
}

}  // namespace wb
