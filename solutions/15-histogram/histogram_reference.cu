// Lesson 15: the reference version (see histogram.h). Read it after the exercise: it builds on
// the answers of TODO 2 and 3.
//
// What makes it fast, in the order they matter:
//   - runs of equal values are counted in a register and added once, when the value changes:
//     on all-equal input a thread adds its whole share with one atomic at its end, and skewed
//     input (text) needs fewer atomics than values;
//   - each warp counts into its own copy of the bins (8 copies per block), so that warps of one
//     block never wait for one another's atomics on the same bin;
//   - 16-byte loads (uint4) of the input, whatever the value type, with the few values before the
//     first aligned address and after the last whole chunk counted one by one;
//   - as many blocks as stay resident, each looping over its share of the input.
// With 65,536 bins (unsigned short values) one copy of 32-bit counters, 256 KiB, exceeds what a
// block may have. The bins are then split into slices that fit (two of 32,768 on an H100); each
// block counts the values of one slice only. Blocks b and b + 1 count different slices of the
// same part of the input at the same time, so the input's second reading mostly hits L2.
#include "histogram.h"
#include "launch_grid.h"

#include <cstdint>
#include <cstring>

namespace {

constexpr int kChunkBytes = 16;  // one uint4 load

// How the bins are shared out: `slices` blocks in a row count the same values, each its own
// `slice_bins` bins; each block has `copies` copies of its slice (one per warp, in turn).
struct Layout {
    int threads;
    int slices;
    int slice_bins;
    int copies;
    std::size_t shared_bytes() const { return static_cast<std::size_t>(copies) * slice_bins * sizeof(unsigned int); }
};

// A run of equal values seen by one thread: counted in registers, added when the value changes.
struct Run {
    unsigned int value = 0;
    unsigned int length = 0;
};

__device__ void add_run(unsigned int* slice, unsigned int first_bin, unsigned int slice_bins, const Run& run) {
    const unsigned int bin = run.value - first_bin;  // wraps to a large number below the slice
    if (run.length != 0 && bin < slice_bins) atomicAdd(&slice[bin], run.length);
}

__device__ void count_value(unsigned int value, Run& run, unsigned int* slice, unsigned int first_bin,
                            unsigned int slice_bins) {
    if (value == run.value) {
        ++run.length;
        return;
    }
    add_run(slice, first_bin, slice_bins, run);
    run.value = value;
    run.length = 1;
}

template <class Value>
__global__ void reference_kernel(const Value* values, long long count, unsigned int* bins, Layout layout) {
    extern __shared__ unsigned int copies[];
    constexpr int kPerChunk = kChunkBytes / sizeof(Value);
    const int copy_words = layout.copies * layout.slice_bins;
    for (int i = threadIdx.x; i < copy_words; i += blockDim.x) copies[i] = 0;
    __syncthreads();

    const unsigned int first_bin = static_cast<unsigned int>(blockIdx.x % layout.slices) * layout.slice_bins;
    const unsigned int slice_bins = static_cast<unsigned int>(layout.slice_bins);
    unsigned int* slice = copies + (threadIdx.x / warpSize) % layout.copies * layout.slice_bins;
    const long long parts = gridDim.x / layout.slices;
    const long long thread = blockIdx.x / layout.slices * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long threads = parts * blockDim.x;

    // Values before the first 16-byte boundary and after the last whole chunk: one by one.
    const auto address = reinterpret_cast<std::uintptr_t>(values);
    const long long head =
        min(count, static_cast<long long>((kChunkBytes - address % kChunkBytes) % kChunkBytes / sizeof(Value)));
    const long long chunks = (count - head) / kPerChunk;
    const long long tail = head + chunks * kPerChunk;
    Run run;
    for (long long i = thread; i < head + (count - tail); i += threads)
        count_value(values[i < head ? i : tail + (i - head)], run, slice, first_bin, slice_bins);

    const uint4* chunk = reinterpret_cast<const uint4*>(values + head);
    for (long long c = thread; c < chunks; c += threads) {
        const uint4 loaded = chunk[c];
        Value in_chunk[kPerChunk];
        memcpy(in_chunk, &loaded, kChunkBytes);
#pragma unroll
        for (int k = 0; k < kPerChunk; ++k) count_value(in_chunk[k], run, slice, first_bin, slice_bins);
    }
    add_run(slice, first_bin, slice_bins, run);
    __syncthreads();

    for (int bin = threadIdx.x; bin < layout.slice_bins; bin += blockDim.x) {
        unsigned int counted = 0;
        for (int c = 0; c < layout.copies; ++c) counted += copies[c * layout.slice_bins + bin];
        if (counted != 0) atomicAdd(&bins[first_bin + bin], counted);
    }
}

// Bytes: 256 threads, one copy of the 256 bins per warp. Wider values: as few slices as fit,
// one copy each, 1024 threads per block (one block per multiprocessor holds the slice).
template <class Value>
Layout layout_for() {
    if (bin_count<Value>() <= 256) return {256, 1, bin_count<Value>(), 8};
    Layout layout{1024, 1, bin_count<Value>(), 1};
    while (layout.shared_bytes() > shared_bytes_per_block()) {
        layout.slices *= 2;
        layout.slice_bins /= 2;
    }
    return layout;
}

}  // namespace

template <class Value>
void histogram_reference(const Value* d_values, long long count, unsigned int* d_bins) {
    const Layout layout = layout_for<Value>();
    allow_shared_bytes(reference_kernel<Value>, layout.shared_bytes());
    WB_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, bin_count<Value>() * sizeof(unsigned int)));
    const int per_chunk = kChunkBytes / sizeof(Value);
    const int parts = resident_grid(reference_kernel<Value>, layout.threads, layout.shared_bytes(),
                                    (count + per_chunk - 1) / per_chunk) /
                      layout.slices;
    const int blocks = (parts > 0 ? parts : 1) * layout.slices;
    reference_kernel<Value><<<blocks, layout.threads, layout.shared_bytes()>>>(d_values, count, d_bins, layout);
    WB_CHECK_LAUNCH("reference_kernel");
}

template void histogram_reference(const unsigned char*, long long, unsigned int*);
template void histogram_reference(const unsigned short*, long long, unsigned int*);
