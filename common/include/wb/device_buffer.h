/// @file device_buffer.h
/// @brief The one owner of device memory in the harness: every driver's buffers are
/// wb::DeviceBuffer (the exercises call cudaMalloc and cudaFree themselves, since that is what
/// they teach).
#pragma once

#include "wb/cuda_check.h"
#include "wb/device.h"

#include <cstddef>
#include <vector>

namespace wb {

/// Owns `count` elements of device memory (cudaMalloc / cudaFree, both checked).
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// Allocates `count` elements.
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_) WB_CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
    }
    /// Allocates host.size() elements and copies them in.
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host.data()); }
    ~DeviceBuffer() {
        if (data_) cudaFree(data_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    /// Takes over `other`'s memory; `other` is left empty.
    DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), count_(other.count_) {
        other.data_ = nullptr;
        other.count_ = 0;
    }
    /// Frees this buffer's memory, then takes over `other`'s; `other` is left empty.
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            if (data_) cudaFree(data_);
            data_ = other.data_;
            count_ = other.count_;
            other.data_ = nullptr;
            other.count_ = 0;
        }
        return *this;
    }
    T* get() const { return data_; }                          ///< the device pointer
    std::size_t count() const { return count_; }              ///< elements
    std::size_t bytes() const { return count_ * sizeof(T); }  ///< bytes
    /// Copies `count()` elements from the host.
    void upload(const T* host) { upload(host, count_); }
    /// Copies the first `n` elements from the host.
    void upload(const T* host, std::size_t n) {
        WB_CUDA_CHECK(cudaMemcpy(data_, host, n * sizeof(T), cudaMemcpyHostToDevice));
    }
    /// Copies the first `n` elements to the host.
    void download(T* host, std::size_t n) const {
        WB_CUDA_CHECK(cudaMemcpy(host, data_, n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    /// All `count()` elements, copied to a new host vector.
    std::vector<T> to_host() const {
        std::vector<T> host(count_);
        download(host.data(), count_);
        return host;
    }
    /// Sets every byte to zero.
    void zero() { WB_CUDA_CHECK(cudaMemset(data_, 0, bytes())); }
    /// Fills every byte with 0xFF: each floating-point element reads as NaN.
    void poison() { poison_device(data_, bytes()); }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace wb
