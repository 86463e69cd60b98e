// Lesson 02, program "coalescing": divergence. The same elements and the same work, with the
// two branches mixed inside every warp or kept apart in different warps.
#include "kernels/coalescing_contrasts.h"

#include "wb/cuda_check.h"

namespace {

// Even elements take one loop, odd elements another, each `work` dependent multiply-adds.
__device__ double even_or_odd_work(double x, long long element, int work) {
    if (element % 2 == 0) {
        for (int i = 0; i < work; ++i) x = x * 0.999 + 0.001;
    } else {
        for (int i = 0; i < work; ++i) x = x * 0.998 - 0.002;
    }
    return x;
}

// Thread t takes element t: in every warp half the threads go one way and half the other, so
// the warp runs both loops one after the other.
__global__ void branch_by_lane_kernel(const double* in, double* out, long long count, int work) {
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < count) out[t] = even_or_odd_work(in[t], t, work);
}

// The same elements, handed out so that every warp's 32 elements have the same parity: warps
// 2g and 2g + 1 share the 64 elements 64g .. 64g + 63, evens to the first, odds to the second.
__global__ void branch_by_warp_kernel(const double* in, double* out, long long count, int work) {
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long warp = t / 32, lane = t % 32;
    const long long element = (warp / 2) * 64 + 2 * lane + warp % 2;
    if (element < count) out[element] = even_or_odd_work(in[element], element, work);
}

}  // namespace

void launch_branch_by_lane(const double* in, double* out, long long count, int work, int blocks, int threads) {
    branch_by_lane_kernel<<<blocks, threads>>>(in, out, count, work);
    WB_CHECK_LAUNCH("branch_by_lane_kernel");
}

void launch_branch_by_warp(const double* in, double* out, long long count, int work, int blocks, int threads) {
    branch_by_warp_kernel<<<blocks, threads>>>(in, out, count, work);
    WB_CHECK_LAUNCH("branch_by_warp_kernel");
}
