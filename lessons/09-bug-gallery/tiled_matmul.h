/// @file tiled_matmul.h
/// @brief Bug gallery, program early-return: a tiled matrix product for any n.
#pragma once

/// Side of the square tiles (and thread blocks) of the product.
constexpr int kTile = 32;

/// C = A * B for n x n row-major float matrices on the device, tiles of kTile x kTile.
void tiled_matmul(const float* d_a, const float* d_b, float* d_c, int n);
