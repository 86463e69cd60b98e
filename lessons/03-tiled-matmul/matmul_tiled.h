/// @file matmul_tiled.h
/// @brief Lesson 03: the tiled shared-memory matrix product and a variant to compare with.
#pragma once

#include <vector>

/// The tile widths the lesson compiles (a tile of TILE x TILE threads computes a TILE x TILE
/// block of C). Each is a separate instantiation of the kernel template.
inline const std::vector<int> kTileWidths = {2, 4, 8, 16, 32};

/// C = A * B for n x n row-major matrices on the device with the tiled kernel (Kirk and Hwu):
/// n must be a multiple of `tile` (the driver pads the matrices with zeros when it is not).
/// Launches and checks the launch; does not wait.
template <class T>
void launch_matmul_tiled(int tile, const T* d_a, const T* d_b, T* d_c, int n);

/// The same product with the variant of the course notebook (source 001): tiles stored
/// transposed, thread x walking down the rows, inner loop unrolled. Correct for any n
/// (out-of-range tile elements load as zero), no padding needed.
template <class T>
void launch_matmul_transposed(int tile, const T* d_a, const T* d_b, T* d_c, int n);
