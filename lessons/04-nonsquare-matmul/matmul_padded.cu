// Lesson 04 exercise, approach 1: pad every matrix to a multiple of the tile (as the report,
// source 000, did), run the full-tile kernel, copy back the real corner.
// Check your work with:  scripts/check 04-nonsquare-matmul   (rebuilds, then runs the check)
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile) {
    PaddedProduct d;
    // >>> TODO 1: the padded sizes: n, m and p rounded up to multiples of the tile
    // d.rows, d.inner, d.cols = n, m, p rounded UP to multiples of tile.
    // <<< TODO 1
    // >>> TODO 2: three pitched allocations of the padded sizes
    // For example
    //   WB_CUDA_CHECK(cudaMallocPitch(&d.a, &d.a_pitch, d.inner * sizeof(double), d.rows));
    // (b: d.cols wide, d.inner rows; c: d.cols wide, d.rows rows).
    // <<< TODO 2
    // >>> TODO 3: zeros in the padded A and B, so the padding adds nothing
    // Zero-fill the padded a and b with cudaMemset2D(ptr, pitch, 0, width_bytes, rows).
    // <<< TODO 3
    // >>> TODO 4: the host matrices into the top-left corners
    // Copy them with cudaMemcpy2D: the host rows are m (for a) and p (for b) doubles long,
    // the device rows d.a_pitch / d.b_pitch bytes.
    (void)a;
    (void)b;
    (void)n;
    (void)m;
    (void)p;
    (void)tile;
    // <<< TODO 4
    return d;
}

void download_result(const PaddedProduct& d, double* c, int n, int p) {
    // >>> TODO 5: the n x p corner of the padded C back into c
    // Copy the n x p corner of d.c (rows d.c_pitch bytes apart) into c (rows p doubles
    // apart) with one cudaMemcpy2D.
    (void)d;
    (void)c;
    (void)n;
    (void)p;
    // <<< TODO 5
}

void free_padded(PaddedProduct& d) {
    // >>> TODO 6: free the three matrices and forget them
    // cudaFree the three matrices (checked), then reset d to PaddedProduct{}.
    (void)d;
    // <<< TODO 6
}
