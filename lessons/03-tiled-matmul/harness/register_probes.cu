// Lesson 03, program "occupancy": kernels of different register counts, for the check on a real
// GPU. They are launched by no one: only their attributes and occupancy are asked for.
#include "harness/register_probes.h"

namespace {

__global__ void few_registers_kernel(const double* x, double* y, long long count) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) y[i] = 2.0 * x[i];
}

// Keeps `kValues` doubles of each thread alive at once: about 2 registers each.
template <int kValues>
__global__ void many_registers_kernel(const double* x, double* y, long long count) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) return;
    double v[kValues];
#pragma unroll
    for (int k = 0; k < kValues; ++k) v[k] = x[(i + k * 4099) % count];
    double sum = 0.0;
#pragma unroll
    for (int k = 0; k < kValues; ++k) sum += v[k] * v[(k * 7 + 3) % kValues];
    y[i] = sum;
}

}  // namespace

std::vector<NamedKernel> register_probe_kernels() {
    return {{"few registers", reinterpret_cast<const void*>(&few_registers_kernel)},
            {"16 live doubles", reinterpret_cast<const void*>(&many_registers_kernel<16>)},
            {"48 live doubles", reinterpret_cast<const void*>(&many_registers_kernel<48>)},
            {"100 live doubles", reinterpret_cast<const void*>(&many_registers_kernel<100>)}};
}
