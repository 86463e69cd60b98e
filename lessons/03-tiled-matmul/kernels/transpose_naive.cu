// Lesson 03, program "banks": the transpose without shared memory.
#include "kernels/transpose_naive.h"

#include "wb/cuda_check.h"

#include <cstddef>

namespace {

// The contrast without shared memory: reads along rows of `in`, writes 32 rows apart in `out`.
template <typename T>
__global__ void transpose_naive_kernel(const T* in, T* out, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[static_cast<std::size_t>(c) * rows + r] = in[static_cast<std::size_t>(r) * cols + c];
}

}  // namespace

template <typename T>
void launch_transpose_naive(const T* in, T* out, int rows, int cols) {
    const dim3 block(32, 8), grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    transpose_naive_kernel<T><<<grid, block>>>(in, out, rows, cols);
    WB_CHECK_LAUNCH("transpose_naive_kernel");
}

template void launch_transpose_naive<float>(const float*, float*, int, int);
template void launch_transpose_naive<double>(const double*, double*, int, int);
