/// @file problem.h
/// @brief Lesson 14 harness: one input on the device, every contender run on it, and the
/// comparison with the CPU references (harness/reference.h).
#pragma once

#include "harness/reference.h"
#include "scan.h"

#include "wb/compare.h"
#include "wb/device_buffer.h"

#include <cstdint>
#include <string>
#include <vector>

/// Who computes: the exercise's three-kernel versions (parts 3 and 4), the single-pass ones
/// (given kernels on part 5, the look-back) or CUB.
enum class Impl { three_kernel, single_pass, cub };

/// The exercise part an implementation and operation check (for the check's messages).
std::string part_of(Impl impl, const Operation& operation);

/// The input and every buffer the contenders write, sized once for `n` elements.
template <class T>
struct DeviceProblem {
    explicit DeviceProblem(const std::vector<T>& input);
    long long n;
    wb::DeviceBuffer<T> in, out;
    wb::DeviceBuffer<T> tile_sums;                ///< the three-kernel scan's
    wb::DeviceBuffer<int> scratch, kept;          ///< compact()'s scratch and the count kept
    wb::DeviceBuffer<unsigned long long> status;  ///< the single-pass kernels' status words
    wb::DeviceBuffer<unsigned char> cub_temp;     ///< CUB's temporary storage
    std::size_t cub_bytes = 0;
    /// Launches one contender on `in`, writing `out` (and `kept`); does not wait.
    void run(Impl impl, const Operation& operation);
};

/// The device memory DeviceProblem<T> takes for n elements (4-byte T), to check before.
std::size_t device_bytes(long long n);

/// Compares the device result of `problem` with `expected`: prints one line (with the first
/// wrong element and the count of wrong ones) after `label` and returns whether it is right.
template <class T>
bool compare_result(DeviceProblem<T>& problem, const Expected& expected, const Operation& operation,
                    const std::string& label);
