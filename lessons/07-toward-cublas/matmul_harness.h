// Lesson 07 harness (not edited by the learner): references, device buffers and padding.
#pragma once

#include <cstddef>
#include <vector>

/// One kernel of the lesson as the driver sees it.
struct LessonKernel {
    const char* name;   // CSV "kernel" column, e.g. "05-register-tile-2d"
    const char* block;  // CSV "block" column: the block tile and threads
    int multiple;       // n must be a multiple of this (the driver pads check sizes)
    void (*launch)(const double* a, const double* b, double* c, int n);
};

/// Expected result and its rounding scale sum_k |a_ik b_kj| for n x n row-major inputs.
struct Reference {
    std::vector<double> expected;
    std::vector<double> scale;
    bool exact_cpu = false;  // true: long double on the CPU; false: cuBLAS on the GPU
};

/// Long double reference on the CPU (small n).
Reference cpu_reference(const std::vector<double>& a, const std::vector<double>& b, int n);

/// cuBLAS DGEMM reference on the GPU (large n); the scale is cuBLAS applied to |A| and |B|.
Reference cublas_reference(const std::vector<double>& a, const std::vector<double>& b, int n);

/// Runs one kernel on n x n inputs: pads them with zeros to the kernel's multiple, poisons C,
/// launches, waits, and returns the n x n result.
std::vector<double> run_kernel_padded(const LessonKernel& kernel, const std::vector<double>& a,
                                      const std::vector<double>& b, int n);

/// Device matrix that frees itself.
struct DeviceMatrix {
    double* data = nullptr;
    std::size_t count = 0;
    explicit DeviceMatrix(std::size_t elements);
    ~DeviceMatrix();
    DeviceMatrix(const DeviceMatrix&) = delete;
    DeviceMatrix& operator=(const DeviceMatrix&) = delete;
    void upload(const std::vector<double>& host);
    std::vector<double> download() const;
};

/// d_out[i] = |d_in[i]| on the device.
void absolute_values(const double* d_in, double* d_out, std::size_t count);
