#include "wb/power_sampler.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <dlfcn.h>

namespace wb {

// NVML's C interface, declared here with its ABI (nvml.h is not needed to build the course):
// nvmlReturn_t and the enums are C ints, nvmlDevice_t an opaque pointer.
struct PowerSampler::Nvml {
    using Init = int (*)();
    using Shutdown = int (*)();
    using ErrorString = const char* (*)(int);
    using ByPciBusId = int (*)(const char*, void**);
    using ClockInfo = int (*)(void*, int, unsigned*);
    using Milliwatts = int (*)(void*, unsigned*);
    using Reasons = int (*)(void*, unsigned long long*);

    Init init = nullptr;
    Shutdown shutdown = nullptr;
    ErrorString error_string = nullptr;
    ByPciBusId by_pci_bus_id = nullptr;
    ClockInfo clock_info = nullptr;
    Milliwatts power_usage = nullptr;
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
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

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
    if (sm_clock_mhz >= 0) parts.push_back("SM " + number(sm_clock_mhz) + " MHz");
    std::string power;
    if (power_w >= 0) power = number(power_w) + " W";
    if (power_max_w >= 0) power += " (max " + number(power_max_w) + " W";
    if (power_limit_w >= 0)
        power += std::string(power_max_w >= 0 ? ", " : " (") + "limit " + number(power_limit_w) + " W";
    if (power_max_w >= 0 || power_limit_w >= 0) power += ")";
    if (!power.empty()) parts.push_back(power);
    if (events_known) parts.push_back("clock events: " + events_text());
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
    return text;
}

std::vector<std::string> PowerSummary::fields() const {
    return {number(sm_clock_mhz),  number(power_w), number(power_max_w),
            number(power_limit_w), events_text(),   samples > 0 ? std::to_string(samples) : ""};
}

const std::vector<std::string>& power_columns() {
    static const std::vector<std::string> columns = {"sm_clock_mhz",  "power_w",      "power_max_w",
                                                     "power_limit_w", "clock_events", "power_samples"};
    return columns;
}

std::string cuda_pci_bus_id(int device) {
    char id[64] = {};
    if (cudaDeviceGetPCIBusId(id, static_cast<int>(sizeof id), device) != cudaSuccess) {
        cudaGetLastError();  // clear the error: the caller goes on without the id
        return "";
    }
    return id;
}

PowerSampler::PowerSampler(const std::string& pci_bus_id, int interval_ms, const std::string& library)
    : interval_ms_(std::max(1, interval_ms)) {
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
    nvml->power_usage = symbol<Nvml::Milliwatts>(handle, "nvmlDeviceGetPowerUsage");
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
    code = nvml_->power_usage ? nvml_->power_usage(device_, &value) : kNvmlSuccess - 1;
    if (code == kNvmlSuccess)
        sample.power_w = value / 1000.0;
    else
        say_unreadable(nvml_->said_power, "board power", nvml_->power_usage ? nvml_->error(code) : "no entry point");
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
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        const Sample sample = take_sample();
        lock.lock();
        samples_.push_back(sample);
        wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; });
    }
}

void PowerSampler::start() {
    if (!nvml_ || thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = false;
        samples_.clear();
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
    summary.power_max_w = powers.empty() ? -1.0 : *std::max_element(powers.begin(), powers.end());
    summary.power_limit_w = power_limit_w_;
    return summary;
}

}  // namespace wb
