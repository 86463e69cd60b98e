#include "wb/power_sampler.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <dlfcn.h>
#include <utility>

namespace wb {

namespace {

// nvmlFieldValue_t (nvml.h), for nvmlDeviceGetFieldValues: the field asked for, then its value.
struct NvmlFieldValue {
    unsigned field_id = 0;
    unsigned scope_id = 0;
    long long timestamp_us = 0;
    long long latency_us = 0;
    int value_type = 0;   // nvmlValueType_t
    int nvml_return = 0;  // nvmlReturn_t of this field
    union {
        double d;
        unsigned ui;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
        int si;
        unsigned short us;
    } value{};
};

}  // namespace

// NVML's C interface, declared here with its ABI (nvml.h is not needed to build the course):
// nvmlReturn_t and the enums are C ints, nvmlDevice_t an opaque pointer.
struct PowerSampler::Nvml {
    using Init = int (*)();
    using Shutdown = int (*)();
    using ErrorString = const char* (*)(int);
    using ByPciBusId = int (*)(const char*, void**);
    using ClockInfo = int (*)(void*, int, unsigned*);
    using Milliwatts = int (*)(void*, unsigned*);
    using FieldValues = int (*)(void*, int, NvmlFieldValue*);
    using Reasons = int (*)(void*, unsigned long long*);

    Init init = nullptr;
    Shutdown shutdown = nullptr;
    ErrorString error_string = nullptr;
    ByPciBusId by_pci_bus_id = nullptr;
    ClockInfo clock_info = nullptr;
    FieldValues field_values = nullptr;  // the instantaneous board power
    Milliwatts enforced_power_limit = nullptr;
    Reasons clock_event_reasons = nullptr;  // nvmlDeviceGetCurrentClocksEventReasons, or the older name

    // A figure that cannot be read is said once, not at every sample.
    bool said_clock = false, said_power = false, said_reasons = false;

    std::string error(int code) const {
        const char* text = error_string ? error_string(code) : nullptr;
        return text ? std::string(text) : "NVML error " + std::to_string(code);
    }
};

namespace {

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;              // NVML_CLOCK_SM
constexpr unsigned kNvmlPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT: the board's power now, in mW
// Outside a timed stretch the sampler asks again after this long.
constexpr std::chrono::microseconds kStretchPoll(100);

template <class F>
F symbol(void* library, const char* name) {
    return reinterpret_cast<F>(dlsym(library, name));
}

// Said once per process: a benchmark makes several samplers, the reader needs the reason once.
void say_unavailable(const std::string& why) {
    static bool said = false;
    if (said) return;
    said = true;
    std::printf("power and clock not measured (their columns stay empty): %s\n", why.c_str());
    std::fflush(stdout);
}

void say_unreadable(bool& said, const char* what, const std::string& cause) {
    if (said) return;
    said = true;
    std::printf("note: NVML cannot read the %s (%s): its column stays empty\n", what, cause.c_str());
    std::fflush(stdout);
}

double median(std::vector<double> values) {
    if (values.empty()) return -1.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string number(double value) {
    if (!(value >= 0.0)) return "";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

// A field's value as a number, whatever type NVML gave it in (nvmlValueType_t); -1 for an unknown type.
double field_number(const NvmlFieldValue& field) {
    switch (field.value_type) {
        case 0: return field.value.d;
        case 1: return field.value.ui;
        case 2: return static_cast<double>(field.value.ul);
        case 3: return static_cast<double>(field.value.ull);
        case 4: return static_cast<double>(field.value.sll);
        case 5: return field.value.si;
        case 6: return field.value.us;
        default: return -1.0;
    }
}

// "1755 MHz" for one value, "1755 MHz (1740..1770)" for a median and a range.
std::string with_range(double median, double low, double high, const char* unit) {
    std::string text = number(median) + " " + unit;
    if (low >= 0 && high >= 0 && low < high) text += " (" + number(low) + ".." + number(high) + ")";
    return text;
}

}  // namespace

std::string clock_event_names(std::uint64_t bits) {
    static const struct {
        std::uint64_t bit;
        const char* name;
    } kNames[] = {{kClockEventIdle, "idle"},
                  {kClockEventApplicationClocks, "app-clocks"},
                  {kClockEventSwPowerCap, "sw-power-cap"},
                  {kClockEventHwSlowdown, "hw-slowdown"},
                  {kClockEventSyncBoost, "sync-boost"},
                  {kClockEventSwThermal, "sw-thermal"},
                  {kClockEventHwThermal, "hw-thermal"},
                  {kClockEventHwPowerBrake, "hw-power-brake"},
                  {kClockEventDisplayClocks, "display-clocks"}};
    if (bits == 0) return "none";
    std::string text;
    for (const auto& entry : kNames) {
        if (!(bits & entry.bit)) continue;
        if (!text.empty()) text += '+';
        text += entry.name;
        bits &= ~entry.bit;
    }
    for (std::uint64_t bit = 1; bits != 0; bit <<= 1) {
        if (!(bits & bit)) continue;
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(bit));
        if (!text.empty()) text += '+';
        text += hex;
        bits &= ~bit;
    }
    return text;
}

std::string PowerSummary::events_text() const { return events_known ? clock_event_names(events) : ""; }

std::string PowerSummary::describe() const {
    if (samples == 0) return "";
    std::vector<std::string> parts;
    if (sm_clock_mhz >= 0) parts.push_back("SM " + with_range(sm_clock_mhz, sm_clock_min_mhz, sm_clock_max_mhz, "MHz"));
    std::string power;
    if (power_w >= 0) power = with_range(power_w, power_min_w, power_max_w, "W");
    if (power_limit_w >= 0) power += (power.empty() ? "" : ", ") + std::string("limit ") + number(power_limit_w) + " W";
    if (!power.empty()) parts.push_back(power);
    if (events_known) parts.push_back("clock events: " + events_text());
    parts.push_back(std::to_string(samples) + " readings while timed");
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
    return text;
}

std::vector<std::string> PowerSummary::fields() const {
    return {number(sm_clock_mhz),
            number(sm_clock_min_mhz),
            number(sm_clock_max_mhz),
            number(power_w),
            number(power_min_w),
            number(power_max_w),
            number(power_limit_w),
            events_text(),
            samples > 0 ? std::to_string(samples) : ""};
}

const std::vector<std::string>& power_columns() {
    static const std::vector<std::string> columns = {"sm_clock_mhz",  "sm_clock_min_mhz", "sm_clock_max_mhz",
                                                     "power_w",       "power_min_w",      "power_max_w",
                                                     "power_limit_w", "clock_events",     "timed_samples"};
    return columns;
}

std::string power_columns_comment(double interval_ms) {
    return "clock and power: NVML read every " + number(interval_ms) +
           " ms while a timed run or batch was on the GPU (past its start event, before its stop event; "
           "readings at other times dropped): sm_clock_mhz and power_w (the board's instantaneous power) "
           "the medians of those readings, *_min_* and *_max_* their range, clock_events every reason "
           "read, timed_samples how many readings; power_limit_w the limit the board enforces";
}

std::string cuda_pci_bus_id(int device) {
    char id[64] = {};
    if (cudaDeviceGetPCIBusId(id, static_cast<int>(sizeof id), device) != cudaSuccess) {
        cudaGetLastError();  // clear the error: the caller goes on without the id
        return "";
    }
    return id;
}

PowerSampler::PowerSampler(const std::string& pci_bus_id, double interval_ms, const std::string& library)
    : interval_ms_(std::max(0.1, interval_ms)) {
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* cause = dlerror();
        why_ = "cannot load " + library + (cause ? std::string(": ") + cause : std::string());
        say_unavailable(why_);
        return;
    }
    // The library stays loaded: other parts of the harness may hold NVML initialised too.
    Nvml* nvml = new Nvml;
    nvml->init = symbol<Nvml::Init>(handle, "nvmlInit_v2");
    nvml->shutdown = symbol<Nvml::Shutdown>(handle, "nvmlShutdown");
    nvml->error_string = symbol<Nvml::ErrorString>(handle, "nvmlErrorString");
    nvml->by_pci_bus_id = symbol<Nvml::ByPciBusId>(handle, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml->clock_info = symbol<Nvml::ClockInfo>(handle, "nvmlDeviceGetClockInfo");
    nvml->field_values = symbol<Nvml::FieldValues>(handle, "nvmlDeviceGetFieldValues");
    nvml->enforced_power_limit = symbol<Nvml::Milliwatts>(handle, "nvmlDeviceGetEnforcedPowerLimit");
    nvml->clock_event_reasons = symbol<Nvml::Reasons>(handle, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml->clock_event_reasons)  // drivers before 535 have only the older name
        nvml->clock_event_reasons = symbol<Nvml::Reasons>(handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!nvml->init || !nvml->shutdown || !nvml->by_pci_bus_id) {
        why_ = library + " lacks nvmlInit_v2, nvmlShutdown or nvmlDeviceGetHandleByPciBusId_v2";
        delete nvml;
        say_unavailable(why_);
        return;
    }
    const int initialised = nvml->init();
    if (initialised != kNvmlSuccess) {
        why_ = "nvmlInit_v2 failed: " + nvml->error(initialised);
        delete nvml;
        say_unavailable(why_);
        return;
    }
    const int found = pci_bus_id.empty() ? -1 : nvml->by_pci_bus_id(pci_bus_id.c_str(), &device_);
    if (found != kNvmlSuccess) {
        why_ = pci_bus_id.empty() ? "the GPU's PCI bus id is unknown"
                                  : "NVML finds no GPU at PCI bus id " + pci_bus_id + ": " + nvml->error(found);
        nvml->shutdown();
        delete nvml;
        device_ = nullptr;
        say_unavailable(why_);
        return;
    }
    nvml_ = nvml;
    unsigned milliwatts = 0;
    const int limit =
        nvml_->enforced_power_limit ? nvml_->enforced_power_limit(device_, &milliwatts) : kNvmlSuccess - 1;
    if (limit == kNvmlSuccess)
        power_limit_w_ = milliwatts / 1000.0;
    else
        std::printf("note: NVML cannot read the enforced power limit (%s): power_limit_w stays empty\n",
                    nvml_->enforced_power_limit ? nvml_->error(limit).c_str() : "no nvmlDeviceGetEnforcedPowerLimit");
}

PowerSampler::~PowerSampler() {
    if (thread_.joinable()) stop();
    if (nvml_) nvml_->shutdown();
    delete nvml_;
}

PowerSampler::Sample PowerSampler::take_sample() {
    Sample sample;
    unsigned value = 0;
    int code = nvml_->clock_info ? nvml_->clock_info(device_, kNvmlClockSm, &value) : kNvmlSuccess - 1;
    if (code == kNvmlSuccess)
        sample.clock_mhz = value;
    else
        say_unreadable(nvml_->said_clock, "SM clock", nvml_->clock_info ? nvml_->error(code) : "no entry point");
    NvmlFieldValue power;
    power.field_id = kNvmlPowerInstant;
    code = nvml_->field_values ? nvml_->field_values(device_, 1, &power) : kNvmlSuccess - 1;
    if (code == kNvmlSuccess) code = power.nvml_return;
    const double milliwatts = code == kNvmlSuccess ? field_number(power) : -1.0;
    if (milliwatts >= 0)
        sample.power_w = milliwatts / 1000.0;
    else
        say_unreadable(nvml_->said_power, "instantaneous board power",
                       !nvml_->field_values   ? "no nvmlDeviceGetFieldValues"
                       : code != kNvmlSuccess ? nvml_->error(code)
                                              : "a value of unknown type");
    unsigned long long reasons = 0;
    code = nvml_->clock_event_reasons ? nvml_->clock_event_reasons(device_, &reasons) : kNvmlSuccess - 1;
    if (code == kNvmlSuccess) {
        sample.events_known = true;
        sample.events = reasons;
    } else {
        say_unreadable(nvml_->said_reasons, "clock event reasons",
                       nvml_->clock_event_reasons ? nvml_->error(code) : "no entry point");
    }
    return sample;
}

void PowerSampler::run() {
    const auto interval = std::chrono::duration<double, std::milli>(interval_ms_);
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        // A reading counts only when the same timed stretch ran before and after it.
        const long stretch = stretch_();
        bool kept = false;
        Sample sample;
        if (stretch >= 0) {
            sample = take_sample();
            kept = stretch_() == stretch;
        }
        lock.lock();
        if (kept) samples_.push_back(sample);
        if (stretch >= 0)
            wake_.wait_for(lock, interval, [this] { return stopping_; });
        else
            wake_.wait_for(lock, kStretchPoll, [this] { return stopping_; });
    }
}

void PowerSampler::start(Stretch stretch) {
    if (!nvml_ || thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = false;
        samples_.clear();
        stretch_ = std::move(stretch);
    }
    thread_ = std::thread([this] { run(); });
}

PowerSummary PowerSampler::stop() {
    PowerSummary summary;
    if (!nvml_ || !thread_.joinable()) return summary;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    std::vector<double> clocks, powers;
    for (const Sample& sample : samples_) {
        if (sample.clock_mhz >= 0) clocks.push_back(sample.clock_mhz);
        if (sample.power_w >= 0) powers.push_back(sample.power_w);
        if (sample.events_known) {
            summary.events_known = true;
            summary.events |= sample.events;
        }
    }
    summary.samples = static_cast<int>(samples_.size());
    summary.sm_clock_mhz = median(clocks);
    summary.power_w = median(powers);
    if (!clocks.empty()) {
        summary.sm_clock_min_mhz = *std::min_element(clocks.begin(), clocks.end());
        summary.sm_clock_max_mhz = *std::max_element(clocks.begin(), clocks.end());
    }
    if (!powers.empty()) {
        summary.power_min_w = *std::min_element(powers.begin(), powers.end());
        summary.power_max_w = *std::max_element(powers.begin(), powers.end());
    }
    // The limit describes the board, not a reading: it is kept only with readings beside it.
    if (summary.samples > 0) summary.power_limit_w = power_limit_w_;
    return summary;
}

SampledTiming measure_gpu_batches_sampled(PowerSampler& sampler, int repeats, int batch,
                                          const std::function<void(int)>& launch) {
    GpuTimer timer;
    SampledTiming result;
    sampler.start([&timer] { return timer.running(); });
    const SamplingScope sampling(sampler);
    result.time = measure_gpu_batches(timer, repeats, batch, launch);
    result.power = sampler.stop();
    return result;
}

}  // namespace wb
