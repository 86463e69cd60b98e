// Lesson 15: the reference version (see histogram.h). Read it after the exercise: it builds on
// the answers of TODO 2 and 4 (it counts with vector_runs.cuh, the answer of TODO 4).
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
// With 65,536 bins (unsigned short values) the bins are split into slices that fit in shared
// memory, each block counting the values of one slice (bin_slices.cuh). Version 05 is this
// version with one copy of the bins per block, counted by your TODO 4.
#include "bin_slices.cuh"
#include "histogram.h"
#include "vector_runs.cuh"

namespace {

constexpr int kCopiesOfByteBins = 8;  // one copy of the 256 bins per warp of 256 threads

template <class Value>
__global__ void reference_kernel(const Value* values, long long count, unsigned int* bins, Layout layout) {
    extern __shared__ unsigned int copies[];
    const int copy_words = layout.copies * layout.slice_bins;
    for (int i = threadIdx.x; i < copy_words; i += blockDim.x) copies[i] = 0;
    __syncthreads();

    const int copy = (threadIdx.x / warpSize) % layout.copies;  // this warp's copy
    const Slice<Value> slice = block_slice<Value>(copies + copy * layout.slice_bins, layout);
    count_share(values, count, share_thread(layout), share_threads(layout), slice);
    __syncthreads();

    for (int bin = threadIdx.x; bin < layout.slice_bins; bin += blockDim.x) {
        unsigned int counted = 0;
        for (int c = 0; c < layout.copies; ++c) counted += copies[c * layout.slice_bins + bin];
        if (counted != 0) atomicAdd(&bins[slice.first + bin], counted);
    }
}

}  // namespace

template <class Value>
void histogram_reference(const Value* d_values, long long count, unsigned int* d_bins) {
    launch_sliced(reference_kernel<Value>, "reference_kernel", layout_for<Value>(kCopiesOfByteBins), d_values, count,
                  d_bins, values_per_chunk<Value>());
}

template void histogram_reference(const unsigned char*, long long, unsigned int*);
template void histogram_reference(const unsigned short*, long long, unsigned int*);
