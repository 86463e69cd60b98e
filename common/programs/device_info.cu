// Prints what the course needs to know about the GPU, plus two measured ceilings that every
// benchmark compares against: device copy bandwidth and cuBLAS DGEMM throughput.
#include "wb/ceilings.h"
#include "wb/cuda_check.h"
#include "wb/device.h"

#include "wb/random.h"

#include <cstdio>
#include <vector>

int main() {
    const wb::DeviceInfo info = wb::require_gpu();
    wb::print_device_info(info);

    const double copy_gbs = wb::measure_copy_bandwidth_gbs();
    std::printf("  measured device copy bandwidth: %.0f GB/s (read + write)\n", copy_gbs);

    const int n = 4096;
    const std::size_t bytes = sizeof(double) * n * n;
    double *a = nullptr, *b = nullptr, *c = nullptr;
    WB_CUDA_CHECK(cudaMalloc(&a, bytes));
    WB_CUDA_CHECK(cudaMalloc(&b, bytes));
    WB_CUDA_CHECK(cudaMalloc(&c, bytes));
    std::vector<double> host(static_cast<std::size_t>(n) * n);
    wb::fill_random(host, wb::kDefaultSeed);  // never time on zeros: they can run faster than real data
    WB_CUDA_CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
    WB_CUDA_CHECK(cudaMemcpy(b, host.data(), bytes, cudaMemcpyHostToDevice));
    const wb::TimingStats dgemm = wb::time_cublas_gemm<double>(n, n, n, a, b, c, 2, 10);
    std::printf("  cuBLAS DGEMM n=%d: %.0f GFLOP/s\n", n, wb::gemm_gflops(n, n, n, dgemm.median_ms));
    WB_CUDA_CHECK(cudaFree(a));
    WB_CUDA_CHECK(cudaFree(b));
    WB_CUDA_CHECK(cudaFree(c));
    return 0;
}
