// Lesson 03, program "occupancy": a memory-bound kernel, y = 3x. Its blocks ask for shared memory
// they never touch, only so that fewer of them fit on an SM at once: the fewer resident warps, the
// less memory latency the SM can hide.
#include "kernels/memory_bound_scale.h"

#include "wb/cuda_check.h"

namespace {

__global__ void scale_kernel(const double* x, double* y, long long count) {
    extern __shared__ double unused[];  // asked for only to limit the blocks per SM
    (void)unused;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        y[i] = 3.0 * x[i];
}

}  // namespace

const void* scale_kernel_function() { return reinterpret_cast<const void*>(&scale_kernel); }

void launch_scale(int grid, int threads, std::size_t dynamic_shared_bytes, const double* x, double* y,
                  long long count) {
    scale_kernel<<<grid, threads, dynamic_shared_bytes>>>(x, y, count);
    WB_CHECK_LAUNCH("scale_kernel");
}
