// Lesson 15: four histograms of the same values (see histogram.h), each one idea further.
//   TODO 1       global bins: one atomicAdd in device memory per value
//   TODO 2a-2c   private bins: each block counts in shared memory and adds its counts once
//   TODO 3       warp aggregation: the lanes that hold the same value add their count once
//   TODO 4a-4c   (in vector_runs.cuh) version 05: 16-byte loads, and runs of equal values added once
#include "bin_slices.cuh"
#include "histogram.h"
#include "launch_grid.h"
#include "vector_runs.cuh"

namespace {

constexpr int kThreads = 256;  // threads per block: whole warps, as version 3 needs
constexpr unsigned int kWholeWarp = 0xffffffffu;

template <class Value>
__global__ void global_kernel(const Value* values, long long count, unsigned int* bins) {
    // >>> TODO 1: every value counted once in its bin, whatever the number of threads launched
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count; i += stride)
        atomicAdd(&bins[values[i]], 1u);
    // <<< TODO 1
}

// The block's own copy of the bins, in shared memory: zero before any thread of the block counts.
__device__ void zero_private_bins(unsigned int* private_bins, int bins) {
    // >>> TODO 2a: every private bin of the block is zero before any thread counts into it
    for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) private_bins[bin] = 0;
    __syncthreads();
    // <<< TODO 2a
}

// Adds the block's counts to the device bins once every thread of the block has counted.
__device__ void merge_private_bins(const unsigned int* private_bins, int bins, unsigned int* device_bins) {
    // >>> TODO 2b: the block's final private counts added into the device bins
    __syncthreads();
    for (int bin = threadIdx.x; bin < bins; bin += blockDim.x) {
        const unsigned int counted = private_bins[bin];
        if (counted != 0) atomicAdd(&device_bins[bin], counted);
    }
    // <<< TODO 2b
}

template <class Value>
__global__ void privatized_kernel(const Value* values, long long count, unsigned int* bins) {
    extern __shared__ unsigned int private_bins[];
    zero_private_bins(private_bins, bin_count<Value>());
    // >>> TODO 2c: every value counted once in the block's private bins, whatever the grid
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count; i += stride)
        atomicAdd(&private_bins[values[i]], 1u);
    // <<< TODO 2c
    merge_private_bins(private_bins, bin_count<Value>(), bins);
}

// Adds one to counters[value] for every lane in `lanes` (the lanes of the warp that hold a value;
// each of them calls this with its own value).
__device__ void add_warp_aggregated(unsigned int* counters, unsigned int value, unsigned int lanes) {
    // >>> TODO 3: one update per distinct value in the warp, adding how many of its lanes hold it
    const unsigned int same = __match_any_sync(lanes, value);
    const int leader = __ffs(same) - 1;
    if (static_cast<int>(threadIdx.x % warpSize) == leader)
        atomicAdd(&counters[value], static_cast<unsigned int>(__popc(same)));
    // <<< TODO 3
}

// Counts in the block's private bins (in device bins when `use_private` is false), one warp
// update per distinct value among the warp's 32 values.
template <class Value>
__global__ void warp_aggregated_kernel(const Value* values, long long count, unsigned int* bins, bool use_private) {
    extern __shared__ unsigned int private_bins[];
    unsigned int* counters = use_private ? private_bins : bins;
    if (use_private) zero_private_bins(private_bins, bin_count<Value>());
    // The warp takes 32 consecutive values per step, its lanes together (as __match_any_sync
    // needs), also in the last step, where the lanes past the end hold no value.
    const int lane = threadIdx.x % warpSize;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x - lane; first < count;
         first += stride) {
        const long long i = first + lane;
        const unsigned int lanes = __ballot_sync(kWholeWarp, i < count);
        if (i < count) add_warp_aggregated(counters, values[i], lanes);
    }
    if (use_private) merge_private_bins(private_bins, bin_count<Value>(), bins);
}

// Version 5: version 2's private bins (zero_private_bins, merge_private_bins), one copy per block,
// counted by count_share (vector_runs.cuh: 16-byte loads, runs added once). With 65,536 bins the
// block counts one slice of them (bin_slices.cuh).
template <class Value>
__global__ void vector_runs_kernel(const Value* values, long long count, unsigned int* bins, Layout layout) {
    extern __shared__ unsigned int private_bins[];
    zero_private_bins(private_bins, layout.slice_bins);
    const Slice<Value> slice = block_slice<Value>(private_bins, layout);
    count_share(values, count, share_thread(layout), share_threads(layout), slice);
    merge_private_bins(private_bins, layout.slice_bins, bins + slice.first);
}

// For the check: version 5's counting of bytes (count_share) with its adds tallied instead of
// made (AddTally): out[0] the adds of all threads, out[1] the threads.
__global__ void vector_runs_adds_kernel(const unsigned char* values, long long count, unsigned int* out,
                                        Layout layout) {
    unsigned int adds = 0;
    count_share(values, count, share_thread(layout), share_threads(layout), AddTally{&adds});
    atomicAdd(&out[0], adds);
    if (blockIdx.x == 0 && threadIdx.x == 0) out[1] = static_cast<unsigned int>(share_threads(layout));
}

template <class Value>
void zero_bins(unsigned int* d_bins) {
    WB_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, bin_count<Value>() * sizeof(unsigned int)));
}

}  // namespace

template <class Value>
bool private_bins_fit() {
    return bin_count<Value>() * sizeof(unsigned int) <= shared_bytes_per_block();
}

template <class Value>
void histogram_global(const Value* d_values, long long count, unsigned int* d_bins) {
    zero_bins<Value>(d_bins);
    const int blocks = resident_grid(global_kernel<Value>, kThreads, 0, count);
    global_kernel<Value><<<blocks, kThreads>>>(d_values, count, d_bins);
    WB_CHECK_LAUNCH("global_kernel");
}

template <class Value>
void histogram_privatized(const Value* d_values, long long count, unsigned int* d_bins) {
    // 65,536 bins: a private copy (256 KiB) does not fit in a block's shared memory. Version 2
    // then is version 1; the reference version splits the bins instead (histogram.h).
    if (!private_bins_fit<Value>()) return histogram_global(d_values, count, d_bins);
    const std::size_t shared = bin_count<Value>() * sizeof(unsigned int);
    allow_shared_bytes(privatized_kernel<Value>, shared);
    zero_bins<Value>(d_bins);
    const int blocks = resident_grid(privatized_kernel<Value>, kThreads, shared, count);
    privatized_kernel<Value><<<blocks, kThreads, shared>>>(d_values, count, d_bins);
    WB_CHECK_LAUNCH("privatized_kernel");
}

template <class Value>
void histogram_warp_aggregated(const Value* d_values, long long count, unsigned int* d_bins) {
    const bool use_private = private_bins_fit<Value>();
    const std::size_t shared = use_private ? bin_count<Value>() * sizeof(unsigned int) : 0;
    allow_shared_bytes(warp_aggregated_kernel<Value>, shared);
    zero_bins<Value>(d_bins);
    const int blocks = resident_grid(warp_aggregated_kernel<Value>, kThreads, shared, count);
    warp_aggregated_kernel<Value><<<blocks, kThreads, shared>>>(d_values, count, d_bins, use_private);
    WB_CHECK_LAUNCH("warp_aggregated_kernel");
}

template <class Value>
void histogram_vector_runs(const Value* d_values, long long count, unsigned int* d_bins) {
    launch_sliced(vector_runs_kernel<Value>, "vector_runs_kernel", layout_for<Value>(1), d_values, count, d_bins,
                  values_per_chunk<Value>());
}

void count_vector_runs_adds(const unsigned char* d_values, long long count, unsigned int* d_out) {
    launch_sliced(vector_runs_adds_kernel, "vector_runs_adds_kernel", layout_for<unsigned char>(1), d_values, count,
                  d_out, values_per_chunk<unsigned char>());
}

template bool private_bins_fit<unsigned char>();
template bool private_bins_fit<unsigned short>();
template void histogram_global(const unsigned char*, long long, unsigned int*);
template void histogram_global(const unsigned short*, long long, unsigned int*);
template void histogram_privatized(const unsigned char*, long long, unsigned int*);
template void histogram_privatized(const unsigned short*, long long, unsigned int*);
template void histogram_warp_aggregated(const unsigned char*, long long, unsigned int*);
template void histogram_warp_aggregated(const unsigned short*, long long, unsigned int*);
template void histogram_vector_runs(const unsigned char*, long long, unsigned int*);
template void histogram_vector_runs(const unsigned short*, long long, unsigned int*);
