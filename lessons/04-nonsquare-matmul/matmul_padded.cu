// Lesson 04 exercise, approach 1: pad every matrix to a multiple of the tile (as the report,
// source 000, did), run the full-tile kernel, copy back the real corner.
// Check your work with:  scripts/check 04-nonsquare-matmul   (rebuilds, then runs the check)
#include "matmul_nonsquare.h"

#include "wb/cuda_check.h"

PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile) {
    PaddedProduct d;
    // >>> TODO 1: the padded sizes: n, m and p rounded up to multiples of the tile
    // Every padded size is a whole number of tiles, and never less than the real size.
    // <<< TODO 1
    // >>> TODO 2: three pitched allocations of the padded sizes
    // A, B and C at their padded sizes (A: d.rows x d.inner, B: d.inner x d.cols, C: d.rows x
    // d.cols), each row starting where the driver chooses (its pitch, kept in d), every call
    // checked.
    // <<< TODO 2
    // >>> TODO 3: zeros in the padded A and B, so the padding adds nothing
    // Every element of the padded A and B reads 0 before the real values are copied in.
    // <<< TODO 3
    // >>> TODO 4: the host matrices into the top-left corners
    // A's n x m and B's m x p values go to the top-left corners of the padded matrices; the
    // host rows and the device rows are not the same length.
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
    // Only the real n x p values come back into c, whose rows are p doubles long; the padded
    // rows of d.c are longer.
    (void)d;
    (void)c;
    (void)n;
    (void)p;
    // <<< TODO 5
}

void free_padded(PaddedProduct& d) {
    // >>> TODO 6: free the three matrices and forget them
    // Nothing left on the device, and d left empty, as a fresh PaddedProduct is.
    (void)d;
    // <<< TODO 6
}
