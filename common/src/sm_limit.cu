// WB_SM_LIMIT: run a program on a few of the GPU's SMs (a green context), as on a small GPU.
#include "wb/sm_limit.h"

#include "wb/cuda_check.h"
#include "wb/driver_entry.h"
#include "wb/exit_codes.h"

#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cu...

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace wb {

namespace {

// The driver API's function `name` (wb/driver_entry.h), or the end of the program where this
// driver lacks it.
template <typename Function>
Function driver_function(const char* name, unsigned int version) {
    void* function = driver_entry_point(name, version);
    if (function == nullptr) {
        std::fprintf(stderr,
                     "error: WB_SM_LIMIT needs green contexts (%s), which this NVIDIA driver lacks (CUDA 12.4 "
                     "or newer)\n",
                     name);
        std::exit(kExitUsage);
    }
    return reinterpret_cast<Function>(function);
}

// Ends the program as WB_CUDA_CHECK does for a runtime call: the call, its CUresult, exit 3.
void driver_check(CUresult result, const char* call) {
    if (result == CUDA_SUCCESS) return;
    std::fprintf(stderr, "CUDA driver error: %s failed (CUresult %d), while setting up WB_SM_LIMIT\n", call,
                 static_cast<int>(result));
    std::exit(kExitCudaError);
}

[[noreturn]] void bad_limit(const std::string& why) {
    std::fprintf(stderr, "error: WB_SM_LIMIT='%s': %s\n", std::getenv("WB_SM_LIMIT"), why.c_str());
    std::exit(kExitUsage);
}

// The driver's handle of the runtime's device number `device`.
CUdevice driver_device(int device) {
    static const auto get_device = driver_function<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000);
    CUdevice handle{};
    driver_check(get_device(&handle, device), "cuDeviceGet");
    return handle;
}

// The SMs of the device (all of them), as a green context can be cut from them.
CUdevResource device_sms(CUdevice handle) {
    static const auto get_resource =
        driver_function<PFN_cuDeviceGetDevResource_v12040>("cuDeviceGetDevResource", 12040);
    CUdevResource sms{};
    driver_check(get_resource(handle, &sms, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource");
    return sms;
}

// A green context of `wanted` SMs of `device` (the driver rounds the count up to its granularity,
// 8 SMs on compute capability 9.0), as the CUcontext that the runtime's calls use once current.
SmLimit create_green_context(int device, int wanted) {
    static const auto split =
        driver_function<PFN_cuDevSmResourceSplitByCount_v12040>("cuDevSmResourceSplitByCount", 12040);
    static const auto describe =
        driver_function<PFN_cuDevResourceGenerateDesc_v12040>("cuDevResourceGenerateDesc", 12040);
    static const auto create = driver_function<PFN_cuGreenCtxCreate_v12040>("cuGreenCtxCreate", 12040);
    static const auto as_context = driver_function<PFN_cuCtxFromGreenCtx_v12040>("cuCtxFromGreenCtx", 12040);

    const CUdevice handle = driver_device(device);
    CUdevResource all = device_sms(handle);
    SmLimit limit;
    limit.total = static_cast<int>(all.sm.smCount);
    if (wanted > limit.total) bad_limit("more SMs than the GPU has (" + std::to_string(limit.total) + ")");
    CUdevResource group{};
    unsigned int groups = 1;
    // A count the driver cannot cut (above the GPU's once rounded up) is refused by an error or
    // by no group, depending on the driver: both are bad input.
    const CUresult cut = split(&group, &groups, &all, nullptr, 0, static_cast<unsigned int>(wanted));
    if (cut != CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION) driver_check(cut, "cuDevSmResourceSplitByCount");
    if (cut == CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION || groups != 1)
        bad_limit("the GPU cannot be split into a group of " + std::to_string(wanted) +
                  " SMs (partitions of at least " + std::to_string(all.sm.minSmPartitionSize) + ", in steps of " +
                  std::to_string(all.sm.smCoscheduledAlignment) + ", out of " + std::to_string(limit.total) + ")");
    CUdevResourceDesc description{};
    driver_check(describe(&description, &group, 1), "cuDevResourceGenerateDesc");
    CUgreenCtx green{};
    driver_check(create(&green, description, handle, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate");
    CUcontext context{};
    driver_check(as_context(&context, green), "cuCtxFromGreenCtx");
    limit.context = context;
    limit.green = green;
    limit.granted = static_cast<int>(group.sm.smCount);
    return limit;
}

// Ends the program unless a stream that the runtime makes now (cudaStreamCreate), and its legacy
// default stream, belong to `green`: the proof that the runtime's launches run on its SMs.
void require_runtime_streams_in(CUgreenCtx green) {
    static const auto green_of = driver_function<PFN_cuStreamGetGreenCtx_v12040>("cuStreamGetGreenCtx", 12040);
    cudaStream_t made = nullptr;
    WB_CUDA_CHECK(cudaStreamCreate(&made));
    CUgreenCtx of_made = nullptr, of_legacy = nullptr;
    driver_check(green_of(reinterpret_cast<CUstream>(made), &of_made), "cuStreamGetGreenCtx");
    driver_check(green_of(CU_STREAM_LEGACY, &of_legacy), "cuStreamGetGreenCtx");
    WB_CUDA_CHECK(cudaStreamDestroy(made));
    if (of_made == green && of_legacy == green) return;
    std::fprintf(stderr, "CUDA driver error: WB_SM_LIMIT's green context is current, but the runtime's streams are "
                         "not in it: its launches would run on every SM\n");
    std::exit(kExitCudaError);
}

// The green contexts made so far, one per device and process.
std::map<int, SmLimit>& made_limits() {
    static std::map<int, SmLimit> made;
    return made;
}

}  // namespace

int requested_sm_limit() {
    const char* text = std::getenv("WB_SM_LIMIT");
    if (text == nullptr || text[0] == '\0') return 0;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || text[0] < '0' || text[0] > '9') bad_limit("not a whole number of SMs");
    if (value < 1) bad_limit("the number of SMs must be at least 1");
    if (value > 100000) bad_limit("more SMs than any GPU has");
    return static_cast<int>(value);
}

SmLimit apply_sm_limit(int device) {
    const int wanted = requested_sm_limit();
    if (wanted == 0) return {};
    // One green context per device and process: a second require_gpu makes the same one current
    // again (cudaSetDevice made the device's primary context current).
    std::map<int, SmLimit>& made = made_limits();
    auto found = made.find(device);
    if (found == made.end()) {
        found = made.emplace(device, create_green_context(device, wanted)).first;
        std::printf("note: WB_SM_LIMIT=%d: running on %d of %d SMs (green context)\n", wanted, found->second.granted,
                    found->second.total);
        std::fflush(stdout);
    }
    static const auto set_current = driver_function<PFN_cuCtxSetCurrent_v4000>("cuCtxSetCurrent", 4000);
    driver_check(set_current(static_cast<CUcontext>(found->second.context)), "cuCtxSetCurrent");
    require_runtime_streams_in(static_cast<CUgreenCtx>(found->second.green));
    return found->second;
}

int granted_sms_here() {
    if (made_limits().empty()) return 0;  // no WB_SM_LIMIT: nothing asked of CUDA (graph launches call this)
    int device = 0;
    WB_CUDA_CHECK(cudaGetDevice(&device));
    const auto found = made_limits().find(device);
    if (found == made_limits().end()) return 0;
    static const auto get_current = driver_function<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 4000);
    CUcontext current = nullptr;
    driver_check(get_current(&current), "cuCtxGetCurrent");
    return current == static_cast<CUcontext>(found->second.context) ? found->second.granted : 0;
}

}  // namespace wb
