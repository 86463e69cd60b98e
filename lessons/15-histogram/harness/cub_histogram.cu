// Lesson 15 harness: CUB's histogram (see cub_histogram.h).
#include "harness/cub_histogram.h"

#include "histogram.h"

#include "wb/cuda_check.h"
#include "wb/device_buffer.h"

#include <cub/device/device_histogram.cuh>

namespace {

// CUB's temporary storage, kept between calls so that timed runs allocate nothing.
wb::DeviceBuffer<unsigned char>& scratch() {
    static wb::DeviceBuffer<unsigned char> buffer;
    return buffer;
}

}  // namespace

template <class Value>
void cub_histogram(const Value* d_values, long long count, unsigned int* d_bins) {
    const int levels = bin_count<Value>() + 1;  // bin v holds [v, v + 1)
    std::size_t bytes = 0;
    WB_CUDA_CHECK(
        cub::DeviceHistogram::HistogramEven(nullptr, bytes, d_values, d_bins, levels, 0, bin_count<Value>(), count));
    // Never a null pointer: CUB would take it for the size query again.
    if (scratch().bytes() < bytes || scratch().get() == nullptr)
        scratch() = wb::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 16);
    WB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(scratch().get(), bytes, d_values, d_bins, levels, 0,
                                                      bin_count<Value>(), count));
    WB_CHECK_LAUNCH("cub::DeviceHistogram::HistogramEven");
}

template void cub_histogram(const unsigned char*, long long, unsigned int*);
template void cub_histogram(const unsigned short*, long long, unsigned int*);
