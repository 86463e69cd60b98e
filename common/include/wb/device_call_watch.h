/// @file device_call_watch.h
/// @brief What an exercise did on the device: its allocations still held and its kernel launches.
///
/// A lesson whose exercise allocates device memory or launches kernels compiles its files with
/// wb/watched_device_calls.h included first (workbook_watch_device_calls in Workbook.cmake).
/// Every cudaMalloc and cudaMallocPitch there is then filled with NaN bytes and recorded, every
/// cudaFree recorded, and every <<<grid, block>>> launch recorded with its shape. A driver opens a
/// DeviceCallWatch before it calls the exercise and asks it afterwards: were all allocations
/// freed, and did each launch use as many blocks as the data needs, no more and no fewer?
#pragma once

#include "wb/device.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace wb {

/// One kernel launch as the exercise wrote it.
struct RecordedLaunch {
    const void* kernel = nullptr;  ///< the kernel's host-side handle (compare with a kernel's address)
    dim3 grid;                     ///< blocks of the launch
    dim3 block;                    ///< threads of each block
    std::size_t shared_bytes = 0;  ///< dynamic shared memory per block
};

/// Allocations not freed yet: how many, and the bytes they hold.
struct UnfreedAllocations {
    std::size_t count = 0;  ///< allocations
    std::size_t bytes = 0;  ///< their bytes
};

/// The exercise's device calls from this object's construction on.
class DeviceCallWatch {
public:
    DeviceCallWatch();
    /// False when no file of this program was compiled with wb/watched_device_calls.h.
    bool available() const;
    /// The launches made since construction, oldest first.
    std::vector<RecordedLaunch> launches() const;
    /// Allocations made since construction and not freed yet.
    UnfreedAllocations unfreed() const;
    /// Whether barriers are counted: a file of this program was compiled with WB_COUNT_BARRIERS
    /// and a check runs (wb::checking).
    bool counts_barriers() const;
    /// The barriers passed since construction, counted once per block (0 unless counts_barriers;
    /// call it after the kernels finished).
    unsigned long long barriers_passed() const;

private:
    std::size_t first_launch_;
    unsigned long long first_allocation_;
    bool counts_barriers_;
    mutable unsigned long long barriers_ = 0;  // counted so far (each question takes the files' counts)
};

/// Prints a line naming the leak and returns false when allocations made since `watch` began are
/// still held; `what` names the exercise's function (for example "matmul_on_gpu").
bool all_freed(const DeviceCallWatch& watch, const std::string& what, const std::string& label);

/// Prints a line and returns false unless exactly one launch was recorded since `watch` began and
/// its grid is `smallest_grid(block)` for the block it used: the grid that covers the data,
/// rounded up and no further. `kernel` and `data` (what the grid covers, as "1000 x 1000
/// elements") name them in the message.
bool launched_smallest_grid(const DeviceCallWatch& watch, const char* kernel,
                            const std::function<dim3(dim3 block)>& smallest_grid, const std::string& data,
                            const std::string& label);

/// For a grid-stride kernel: prints a line and returns false unless exactly one launch was
/// recorded since `watch` began and no block of it is without work, that is, it launched at most
/// ceil(items / threads per block) blocks for `items` work items.
bool launched_no_idle_blocks(const DeviceCallWatch& watch, const char* kernel, long long items,
                             const std::string& label);

/// Prints a line and returns false unless exactly one launch was recorded since `watch` began and
/// its block is as large as `device` allows, with whole warps along x (so that a warp's threads
/// sit in one row of the block).
bool launched_largest_block(const DeviceCallWatch& watch, const char* kernel, const DeviceInfo& device,
                            const std::string& label);

/// Prints a line and returns false unless exactly one launch was recorded since `watch` began and
/// its blocks passed `per_block` barriers each (`why` says how many the data needs, as "2 per
/// phase, ceil(37 / 8) = 5 phases"). True when barriers are not counted.
bool passed_barriers(const DeviceCallWatch& watch, const char* kernel, unsigned long long per_block,
                     const std::string& why, const std::string& label);

/// The watch's records (called by wb/watched_device_calls.h only).
namespace detail {
/// Whether new allocations are filled with NaN bytes: while a check runs (wb::checking), so that
/// a benchmark times what the exercise does and nothing more.
bool poisoning_allocations();
/// Marks the program as watched (a file compiled with wb/watched_device_calls.h is in it).
void watch_compiled_in();
/// Records an allocation of `bytes` at `pointer`.
void note_allocation(const void* pointer, std::size_t bytes);
/// Records that the allocation at `pointer` was freed.
void note_free(const void* pointer);
/// Records a launch of `kernel` with its shape.
void note_launch(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes);
/// One file's barrier counter: reads its count into *count, sets it to zero, turns counting on.
using BarrierCounter = cudaError_t (*)(unsigned long long* count);
/// Registers a file's barrier counter.
void note_barrier_counter(BarrierCounter counter);
}  // namespace detail

}  // namespace wb
