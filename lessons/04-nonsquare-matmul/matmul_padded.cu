// Lesson 04 exercise, approach 1: pad every matrix to a multiple of the tile (as the report,
// seed 000, did), run the full-tile kernel, copy back the real corner.
// Check your work with:  ctest --preset exercises -R 04-nonsquare-matmul
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile) {
    PaddedProduct d;
    // TODO 1: the padded sizes: d.rows, d.inner, d.cols = n, m, p rounded UP to multiples of tile.
    // TODO 2: three pitched allocations, e.g.
    //           WB_CUDA_CHECK(cudaMallocPitch(&d.a, &d.a_pitch, d.inner * sizeof(double), d.rows));
    //         (b: d.cols wide, d.inner rows; c: d.cols wide, d.rows rows).
    // TODO 3: zero-fill the padded a and b with cudaMemset2D(ptr, pitch, 0, width_bytes, rows).
    // TODO 4: copy the host matrices into the top-left corners with cudaMemcpy2D: the host rows
    //         are m (for a) and p (for b) doubles long, the device rows d.a_pitch / d.b_pitch bytes.
    (void)a;
    (void)b;
    (void)n;
    (void)m;
    (void)p;
    (void)tile;
    return d;
}

void download_result(const PaddedProduct& d, double* c, int n, int p) {
    // TODO 5: copy the n x p corner of d.c (rows d.c_pitch bytes apart) into c (rows p doubles
    //         apart) with one cudaMemcpy2D.
    (void)d;
    (void)c;
    (void)n;
    (void)p;
}

void free_padded(PaddedProduct& d) {
    // TODO 6: cudaFree the three matrices (checked), then reset d to PaddedProduct{}.
    (void)d;
}
