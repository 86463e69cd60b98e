/// @file padded_checks.h
/// @brief Lesson 04: what the check asks of approach 1's padded matrices beyond the product:
/// sizes and pitches, zero padding, and everything freed and forgotten.
#pragma once

#include "matmul_nonsquare.h"

#include "wb/device_call_watch.h"
#include "wb/matmul_harness.h"

#include <cstddef>
#include <string>

/// "61x37x53 tile 8x8": a case of the check, in its output.
std::string case_name(const wb::MatmulShape& shape, int tile);

/// True when upload_padded returned device matrices of the padded sizes, with pitches no shorter
/// than a padded row; otherwise prints what is wrong (and which TODO) and returns false.
bool padded_is_usable(const PaddedProduct& d, const wb::MatmulShape& s, int tile);

/// True when every element of a padded device matrix (rows x cols, `pitch` bytes a row) outside
/// its real corner (real_rows x real_cols) is zero; otherwise prints the first one that is not,
/// and the count, and returns false. `name` is the matrix's ("A" or "B").
bool padding_is_zero(const double* device, std::size_t pitch, int rows, int cols, int real_rows, int real_cols,
                     const char* name);

/// After free_padded: true when every allocation made since `watch` began is freed and the struct
/// no longer points at freed memory (TODO 6); otherwise prints which and returns false.
bool freed_and_forgotten(const wb::DeviceCallWatch& watch, const PaddedProduct& d, const std::string& label);
