// A stand-in for libnvidia-ml.so.1 in the power sampler's unit tests: the entry points
// wb::PowerSampler loads, answering with the readings a test sets through fake_nvml_set().
#include <atomic>

namespace {

std::atomic<unsigned> clock_mhz{0};
std::atomic<unsigned> power_mw{0};
std::atomic<int> power_return{0};  // what NVML says for the instantaneous power field (0: success)
std::atomic<unsigned long long> reasons{0};
int device_handle = 0;

// nvmlFieldValue_t, as nvml.h lays it out.
struct FieldValue {
    unsigned field_id;
    unsigned scope_id;
    long long timestamp;
    long long latency_us;
    int value_type;
    int nvml_return;
    union {
        double d;
        unsigned ui;
        unsigned long long ull;
    } value;
};

}  // namespace

extern "C" {

// What the next readings give: the SM clock, the board's power in mW (with power_status != 0 the
// instantaneous power field answers that NVML error instead) and the clock event reasons.
void fake_nvml_set(unsigned clock, unsigned milliwatts, int power_status, unsigned long long event_bits) {
    clock_mhz = clock;
    power_mw = milliwatts;
    power_return = power_status;
    reasons = event_bits;
}

int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int code) { return code == 3 ? "Not Supported" : "Unknown Error"; }

int nvmlDeviceGetHandleByPciBusId_v2(const char*, void** device) {
    *device = &device_handle;
    return 0;
}

int nvmlDeviceGetClockInfo(void*, int type, unsigned* clock) {
    if (type != 1) return 3;  // only NVML_CLOCK_SM
    *clock = clock_mhz;
    return 0;
}

int nvmlDeviceGetFieldValues(void*, int count, FieldValue* values) {
    for (int i = 0; i < count; ++i) {
        values[i].nvml_return = values[i].field_id == 186 ? power_return.load() : 3;  // NVML_FI_DEV_POWER_INSTANT
        values[i].value_type = 1;                                                     // unsigned int
        values[i].value.ui = power_mw;
    }
    return 0;
}

int nvmlDeviceGetEnforcedPowerLimit(void*, unsigned* milliwatts) {
    *milliwatts = 700000;
    return 0;
}

int nvmlDeviceGetCurrentClocksEventReasons(void*, unsigned long long* bits) {
    *bits = reasons;
    return 0;
}

}  // extern "C"
