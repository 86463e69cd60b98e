// Lesson 07 harness: references, device buffers and padding (see matmul_harness.h).
#include "matmul_harness.h"

#include "kernels.h"
#include "wb/ceilings.h"
#include "wb/workbook.h"

#include <cmath>
#include <string>

void require_multiple(const char* kernel, int n, int tile) {
    if (n <= 0 || n % tile != 0)
        wb::usage_error(std::string(kernel) + " needs n to be a positive multiple of " + std::to_string(tile) +
                        " (got " + std::to_string(n) + ")");
}

DeviceMatrix::DeviceMatrix(std::size_t elements) : count(elements) {
    WB_CUDA_CHECK(cudaMalloc(&data, elements * sizeof(double)));
}
DeviceMatrix::~DeviceMatrix() { cudaFree(data); }
void DeviceMatrix::upload(const std::vector<double>& host) {
    WB_CUDA_CHECK(cudaMemcpy(data, host.data(), count * sizeof(double), cudaMemcpyHostToDevice));
}
std::vector<double> DeviceMatrix::download() const {
    std::vector<double> host(count);
    WB_CUDA_CHECK(cudaMemcpy(host.data(), data, count * sizeof(double), cudaMemcpyDeviceToHost));
    return host;
}

namespace {
__global__ void absolute_kernel(const double* in, double* out, std::size_t count) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = fabs(in[i]);
}
}  // namespace

void absolute_values(const double* d_in, double* d_out, std::size_t count) {
    absolute_kernel<<<1024, 256>>>(d_in, d_out, count);
    WB_CHECK_LAUNCH("absolute_kernel");
}

Reference cpu_reference(const std::vector<double>& a, const std::vector<double>& b, int n) {
    Reference ref;
    ref.exact_cpu = true;
    ref.expected.resize(static_cast<std::size_t>(n) * n);
    ref.scale.resize(ref.expected.size());
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            long double sum = 0.0L, magnitude = 0.0L;
            for (int k = 0; k < n; ++k) {
                const long double term = static_cast<long double>(a[std::size_t(i) * n + k]) * b[std::size_t(k) * n + j];
                sum += term;
                magnitude += std::fabs(term);
            }
            ref.expected[std::size_t(i) * n + j] = static_cast<double>(sum);
            ref.scale[std::size_t(i) * n + j] = static_cast<double>(magnitude);
        }
    return ref;
}

Reference cublas_reference(const std::vector<double>& a, const std::vector<double>& b, int n) {
    const std::size_t count = static_cast<std::size_t>(n) * n;
    wb::require_device_memory(5 * count * sizeof(double), "the cuBLAS reference");
    DeviceMatrix d_a(count), d_b(count), d_c(count), d_abs_a(count), d_abs_b(count);
    d_a.upload(a);
    d_b.upload(b);
    Reference ref;
    wb::cublas_gemm<double>(n, n, n, d_a.data, d_b.data, d_c.data);
    ref.expected = d_c.download();
    absolute_values(d_a.data, d_abs_a.data, count);
    absolute_values(d_b.data, d_abs_b.data, count);
    wb::cublas_gemm<double>(n, n, n, d_abs_a.data, d_abs_b.data, d_c.data);
    ref.scale = d_c.download();
    return ref;
}

namespace {
std::vector<double> padded_copy(const std::vector<double>& m, int n, int padded) {
    if (padded == n) return m;
    std::vector<double> out(static_cast<std::size_t>(padded) * padded, 0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) out[std::size_t(i) * padded + j] = m[std::size_t(i) * n + j];
    return out;
}
}  // namespace

std::vector<double> run_kernel_padded(const LessonKernel& kernel, const std::vector<double>& a,
                                      const std::vector<double>& b, int n) {
    const int padded = (n + kernel.multiple - 1) / kernel.multiple * kernel.multiple;
    const std::size_t count = static_cast<std::size_t>(padded) * padded;
    wb::require_device_memory(3 * count * sizeof(double), "the check's matrices");
    DeviceMatrix d_a(count), d_b(count), d_c(count);
    d_a.upload(padded_copy(a, n, padded));
    d_b.upload(padded_copy(b, n, padded));
    wb::poison_device(d_c.data, count * sizeof(double));
    kernel.launch(d_a.data, d_b.data, d_c.data, padded);
    WB_CHECK_LAUNCH_AND_WAIT(kernel.name);
    const std::vector<double> c_padded = d_c.download();
    if (padded == n) return c_padded;
    std::vector<double> c(static_cast<std::size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) c[std::size_t(i) * n + j] = c_padded[std::size_t(i) * padded + j];
    return c;
}
