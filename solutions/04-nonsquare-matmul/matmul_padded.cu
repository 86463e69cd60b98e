// Lesson 04 reference solution, approach 1: pad to multiples of the tile.
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile) {
    PaddedProduct d;
    // >>> TODO 1: the padded sizes: n, m and p rounded up to multiples of the tile
    const auto round_up = [tile](int count) { return (count + tile - 1) / tile * tile; };
    d.rows = round_up(n);
    d.inner = round_up(m);
    d.cols = round_up(p);
    // <<< TODO 1
    // >>> TODO 2: three pitched allocations of the padded sizes
    const std::size_t row_a = d.inner * sizeof(double);  // bytes of one padded row
    const std::size_t row_b = d.cols * sizeof(double);
    WB_CUDA_CHECK(cudaMallocPitch(&d.a, &d.a_pitch, row_a, d.rows));
    WB_CUDA_CHECK(cudaMallocPitch(&d.b, &d.b_pitch, row_b, d.inner));
    WB_CUDA_CHECK(cudaMallocPitch(&d.c, &d.c_pitch, row_b, d.rows));
    // <<< TODO 2
    // >>> TODO 3: zeros in the padded A and B, so the padding adds nothing
    // Zeros everywhere first: the padding then adds 0 * x = 0 to every dot product.
    WB_CUDA_CHECK(cudaMemset2D(d.a, d.a_pitch, 0, row_a, d.rows));
    WB_CUDA_CHECK(cudaMemset2D(d.b, d.b_pitch, 0, row_b, d.inner));
    // <<< TODO 3
    // >>> TODO 4: the host matrices into the top-left corners
    // The real matrices go into the top-left corners: n rows of m doubles, m rows of p doubles.
    WB_CUDA_CHECK(cudaMemcpy2D(d.a, d.a_pitch, a, m * sizeof(double), m * sizeof(double), n, cudaMemcpyHostToDevice));
    WB_CUDA_CHECK(cudaMemcpy2D(d.b, d.b_pitch, b, p * sizeof(double), p * sizeof(double), m, cudaMemcpyHostToDevice));
    // <<< TODO 4
    return d;
}

void download_result(const PaddedProduct& d, double* c, int n, int p) {
    // >>> TODO 5: the n x p corner of the padded C back into c
    WB_CUDA_CHECK(cudaMemcpy2D(c, p * sizeof(double), d.c, d.c_pitch, p * sizeof(double), n, cudaMemcpyDeviceToHost));
    // <<< TODO 5
}

void free_padded(PaddedProduct& d) {
    // >>> TODO 6: free the three matrices and forget them
    WB_CUDA_CHECK(cudaFree(d.a));
    WB_CUDA_CHECK(cudaFree(d.b));
    WB_CUDA_CHECK(cudaFree(d.c));
    d = PaddedProduct{};
    // <<< TODO 6
}
