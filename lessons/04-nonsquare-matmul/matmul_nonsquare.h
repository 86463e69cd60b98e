/// @file matmul_nonsquare.h
/// @brief Lesson 04: C (n x p) = A (n x m) * B (m x p) for any n, m, p, two ways.
#pragma once

#include <cstddef>
#include <vector>

/// The tile widths compiled for both approaches.
inline const std::vector<int> kTileWidths = {2, 4, 8, 16, 32};

/// Approach 1: device copies of A, B and C padded with zeros to multiples of the tile.
/// Each matrix is a pitched allocation: row r starts r * pitch bytes after the first.
struct PaddedProduct {
    double* a = nullptr;      ///< rows x inner, zero outside the real n x m corner
    double* b = nullptr;      ///< inner x cols, zero outside the real m x p corner
    double* c = nullptr;      ///< rows x cols, written whole by the kernel
    std::size_t a_pitch = 0;  ///< bytes from one row of a to the next (from cudaMallocPitch)
    std::size_t b_pitch = 0;  ///< the same for b
    std::size_t c_pitch = 0;  ///< the same for c
    int rows = 0;             ///< n rounded up to a multiple of the tile
    int inner = 0;            ///< m rounded up
    int cols = 0;             ///< p rounded up
    /// Device bytes held by the three padded matrices.
    std::size_t bytes() const { return a_pitch * rows + b_pitch * inner + c_pitch * rows; }
};

/// Approach 1, step 1: allocates the padded matrices, zero-fills them and copies A (n x m) and
/// B (m x p) from the host into their top-left corners.
PaddedProduct upload_padded(const double* a, const double* b, int n, int m, int p, int tile);

/// Approach 1, step 2 (given): the square-tile kernel on the padded matrices, in which every
/// tile is full, so it needs no bounds checks. Launches and checks the launch.
void launch_full_tiles(int tile, const PaddedProduct& padded);

/// Approach 1, step 3: copies the real n x p corner of the padded C into host c (n x p).
void download_result(const PaddedProduct& padded, double* c, int n, int p);

/// Approach 1, step 4: frees the three padded matrices and resets the pointers.
void free_padded(PaddedProduct& padded);

/// Approach 2: the tiled kernel with bounds-checked tile loads on unpadded device matrices
/// A (n x m), B (m x p), C (n x p). Launches and checks the launch.
void launch_matmul_bounds(int tile, const double* d_a, const double* d_b, double* d_c, int n, int m, int p);
