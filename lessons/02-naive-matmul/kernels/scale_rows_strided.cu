// Lesson 02, program "coalescing": the strided contrast to your scale_rows_kernel.
#include "kernels/coalescing_contrasts.h"

#include "wb/cuda_check.h"

#include <cstddef>

namespace {

// The contrast: the same product with x along the rows. The 32 threads of a warp then sit in
// one column, 32 rows apart: 32 different 32-byte sectors for 32 doubles.
__global__ void scale_rows_strided_kernel(const double* in, const double* row_scale, double* out, int rows, int cols) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        const std::size_t element = static_cast<std::size_t>(r) * cols + c;
        out[element] = row_scale[r] * in[element];
    }
}

}  // namespace

void launch_scale_rows_strided(const double* in, const double* row_scale, double* out, int rows, int cols, dim3 block) {
    const dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    scale_rows_strided_kernel<<<grid, block>>>(in, row_scale, out, rows, cols);
    WB_CHECK_LAUNCH("scale_rows_strided_kernel");
}
