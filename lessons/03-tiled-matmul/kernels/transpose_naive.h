// Lesson 03, program "banks": the transpose without shared memory, the contrast to yours.
#pragma once

// out (cols x rows) = the transpose of in (rows x cols), both row-major, on blocks of 32 x 8
// threads, one element each (checks the launch).
template <typename T>
void launch_transpose_naive(const T* in, T* out, int rows, int cols);
