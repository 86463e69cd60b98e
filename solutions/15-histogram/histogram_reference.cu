// Lesson 15: the reference version (see histogram.h). Read it after the exercise: it builds on
// the answers of TODO 2 and 3.
//
// What makes it fast, in the order they matter:
//   - each thread loads four 16-byte chunks (uint4) before it counts any of them: four loads
//     in flight per thread keep enough bytes on their way from memory to hide its latency;
//   - a chunk whose values are all equal (all-equal input, the long runs of skewed input) adds
//     to a run kept in a register, added with one atomic when the value changes; any other
//     chunk adds one per value, with no test per value (on uniform input a test per value,
//     a run of length one almost every time, costs more than it saves);
//   - each warp counts into its own copy of the bins (8 copies per block), so that warps of one
//     block never wait for one another's atomics on the same bin;
//   - as many blocks as stay resident, each looping over its share of the input; the few values
//     before the first 16-byte boundary and after the last whole chunk are counted one by one.
// With 65,536 bins (unsigned short values) one copy of 32-bit counters, 256 KiB, exceeds what a
// block may have. The bins are then split into slices that fit (two of 32,768 on an H100); each
// block counts the values of one slice only. Blocks b and b + 1 count different slices of the
// same part of the input at the same time, so the input's second reading mostly hits L2.
#include "histogram.h"
#include "launch_grid.h"

#include <cstdint>

namespace {

constexpr int kChunkBytes = 16;     // one uint4 load
constexpr int kChunksInFlight = 4;  // loads a thread issues before it counts

// How the bins are shared out: `slices` blocks in a row count the same values, each its own
// `slice_bins` bins; each block has `copies` copies of its slice (one per warp, in turn).
struct Layout {
    int threads;
    int slices;
    int slice_bins;
    int copies;
    std::size_t shared_bytes() const { return static_cast<std::size_t>(copies) * slice_bins * sizeof(unsigned int); }
};

// The part of the bins this block counts: `size` counters in shared memory for the values
// first, first + 1, ..., first + size - 1. Bytes have one slice, all 256 bins: no test needed.
template <class Value>
struct Slice {
    unsigned int* bins;
    unsigned int first;
    unsigned int size;
    __device__ void add(unsigned int value, unsigned int amount) const {
        if constexpr (sizeof(Value) == 1) {
            atomicAdd(&bins[value], amount);
        } else {
            const unsigned int bin = value - first;  // wraps to a large number below the slice
            if (bin < size) atomicAdd(&bins[bin], amount);
        }
    }
};

// A run of equal values seen by one thread, in whole chunks: counted in registers, added when
// the value changes.
struct Run {
    unsigned int value = 0;
    unsigned int length = 0;
};

// True when the 16 bytes hold one value repeated: rotating a word by one value's width leaves
// it unchanged exactly when all the values in it are equal.
template <class Value>
__device__ bool all_equal(const uint4& chunk) {
    constexpr int kBits = 8 * sizeof(Value);
    return chunk.x == chunk.y && chunk.y == chunk.z && chunk.z == chunk.w &&
           __funnelshift_l(chunk.x, chunk.x, kBits) == chunk.x;
}

template <class Value>
__device__ void count_chunk(const uint4& chunk, Run& run, const Slice<Value>& slice) {
    constexpr int kBits = 8 * sizeof(Value);
    constexpr unsigned int kMask = (1u << kBits) - 1u;
    constexpr int kPerWord = 32 / kBits;
    if (all_equal<Value>(chunk)) {
        const unsigned int value = chunk.x & kMask;
        if (value != run.value) {
            if (run.length != 0) slice.add(run.value, run.length);
            run = {value, 0};
        }
        run.length += kChunkBytes / sizeof(Value);
        return;
    }
    const unsigned int words[4] = {chunk.x, chunk.y, chunk.z, chunk.w};
#pragma unroll
    for (int w = 0; w < 4; ++w)
#pragma unroll
        for (int k = 0; k < kPerWord; ++k) slice.add((words[w] >> (kBits * k)) & kMask, 1u);
}

template <class Value>
__global__ void reference_kernel(const Value* values, long long count, unsigned int* bins, Layout layout) {
    extern __shared__ unsigned int copies[];
    constexpr int kPerChunk = kChunkBytes / sizeof(Value);
    const int copy_words = layout.copies * layout.slice_bins;
    for (int i = threadIdx.x; i < copy_words; i += blockDim.x) copies[i] = 0;
    __syncthreads();

    const Slice<Value> slice{copies + (threadIdx.x / warpSize) % layout.copies * layout.slice_bins,
                             static_cast<unsigned int>(blockIdx.x % layout.slices) * layout.slice_bins,
                             static_cast<unsigned int>(layout.slice_bins)};
    const long long parts = gridDim.x / layout.slices;
    const long long thread = blockIdx.x / layout.slices * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long threads = parts * blockDim.x;

    // Values before the first 16-byte boundary and after the last whole chunk: one by one.
    const auto address = reinterpret_cast<std::uintptr_t>(values);
    const long long head =
        min(count, static_cast<long long>((kChunkBytes - address % kChunkBytes) % kChunkBytes / sizeof(Value)));
    const long long chunks = (count - head) / kPerChunk;
    const long long tail = head + chunks * kPerChunk;
    for (long long i = thread; i < head + (count - tail); i += threads)
        slice.add(values[i < head ? i : tail + (i - head)], 1u);

    const uint4* chunk = reinterpret_cast<const uint4*>(values + head);
    Run run;
    long long c = thread;
    for (; c + (kChunksInFlight - 1) * threads < chunks; c += kChunksInFlight * threads) {
        uint4 loaded[kChunksInFlight];
#pragma unroll
        for (int k = 0; k < kChunksInFlight; ++k) loaded[k] = chunk[c + k * threads];
#pragma unroll
        for (int k = 0; k < kChunksInFlight; ++k) count_chunk<Value>(loaded[k], run, slice);
    }
    for (; c < chunks; c += threads) count_chunk<Value>(chunk[c], run, slice);
    if (run.length != 0) slice.add(run.value, run.length);
    __syncthreads();

    for (int bin = threadIdx.x; bin < layout.slice_bins; bin += blockDim.x) {
        unsigned int counted = 0;
        for (int copy = 0; copy < layout.copies; ++copy) counted += copies[copy * layout.slice_bins + bin];
        if (counted != 0) atomicAdd(&bins[slice.first + bin], counted);
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
