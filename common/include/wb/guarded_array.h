#pragma once
/// @file
/// An array of host memory with an inaccessible page on each side, for checks of CPU code: a read
/// or write past either end stops the program at once (a segmentation fault the check reports),
/// before it can corrupt the check's own data and leave a crash without an explanation.

#include <cstddef>
#include <vector>

namespace wb {

/// Page-guarded storage of `bytes` bytes; the last byte sits just below the trailing guard page,
/// so an index one past the end faults. Below the first element lies less than a page of
/// unused memory, then the leading guard page.
class GuardedBytes {
public:
    /// Maps the pages (ends the program with a message when it cannot).
    explicit GuardedBytes(std::size_t bytes);
    ~GuardedBytes();
    GuardedBytes(const GuardedBytes&) = delete;
    GuardedBytes& operator=(const GuardedBytes&) = delete;

    /// The first of the `bytes` bytes.
    void* data() const { return data_; }

private:
    void* mapping_ = nullptr;
    std::size_t mapping_bytes_ = 0;
    void* data_ = nullptr;
};

/// A page-guarded copy of a vector's elements (T trivially copyable).
template <class T>
class GuardedArray {
public:
    /// Copies `values` between guard pages.
    explicit GuardedArray(const std::vector<T>& values) : bytes_(values.size() * sizeof(T)), size_(values.size()) {
        T* out = data();
        for (std::size_t i = 0; i < size_; ++i) out[i] = values[i];
    }

    /// The first element.
    T* data() const { return static_cast<T*>(bytes_.data()); }
    /// A copy of the elements as they are now.
    std::vector<T> to_vector() const { return std::vector<T>(data(), data() + size_); }

private:
    GuardedBytes bytes_;
    std::size_t size_;
};

}  // namespace wb
