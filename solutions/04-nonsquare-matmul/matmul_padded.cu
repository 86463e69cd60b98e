// Lesson 04 reference solution, approach 1: pad to multiples of the tile.
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

namespace {

int round_up(int count, int tile) { return (count + tile - 1) / tile * tile; }

}  // namespace

PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile) {
    PaddedProduct d;
    d.rows = round_up(n, tile);
    d.inner = round_up(m, tile);
    d.cols = round_up(p, tile);
    const std::size_t row_a = d.inner * sizeof(double);  // bytes of one padded row
    const std::size_t row_b = d.cols * sizeof(double);
    WB_CUDA_CHECK(cudaMallocPitch(&d.a, &d.a_pitch, row_a, d.rows));
    WB_CUDA_CHECK(cudaMallocPitch(&d.b, &d.b_pitch, row_b, d.inner));
    WB_CUDA_CHECK(cudaMallocPitch(&d.c, &d.c_pitch, row_b, d.rows));

    // Zeros everywhere first: the padding then adds 0 * x = 0 to every dot product.
    WB_CUDA_CHECK(cudaMemset2D(d.a, d.a_pitch, 0, row_a, d.rows));
    WB_CUDA_CHECK(cudaMemset2D(d.b, d.b_pitch, 0, row_b, d.inner));

    // The real matrices go into the top-left corners: n rows of m doubles, m rows of p doubles.
    WB_CUDA_CHECK(cudaMemcpy2D(d.a, d.a_pitch, a, m * sizeof(double), m * sizeof(double), n, cudaMemcpyHostToDevice));
    WB_CUDA_CHECK(cudaMemcpy2D(d.b, d.b_pitch, b, p * sizeof(double), p * sizeof(double), m, cudaMemcpyHostToDevice));
    return d;
}

void download_result(const PaddedProduct& d, double* c, int n, int p) {
    WB_CUDA_CHECK(cudaMemcpy2D(c, p * sizeof(double), d.c, d.c_pitch, p * sizeof(double), n, cudaMemcpyDeviceToHost));
}

void free_padded(PaddedProduct& d) {
    WB_CUDA_CHECK(cudaFree(d.a));
    WB_CUDA_CHECK(cudaFree(d.b));
    WB_CUDA_CHECK(cudaFree(d.c));
    d = PaddedProduct{};
}
