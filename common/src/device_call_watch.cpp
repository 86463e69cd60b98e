// The records behind wb/device_call_watch.h. The exercise's calls may come from several host
// threads (streams lessons), so every record is taken under one lock.
#include "wb/device_call_watch.h"

#include "wb/ceil_div.h"
#include "wb/cuda_check.h"
#include "wb/lesson.h"

#include <cstdio>
#include <map>
#include <mutex>

namespace wb {
namespace {

struct Allocation {
    std::size_t bytes;
    unsigned long long serial;  // the order in which allocations were made
};

struct Records {
    std::mutex lock;
    bool compiled_in = false;
    unsigned long long allocations_made = 0;
    std::map<const void*, Allocation> held;
    std::vector<RecordedLaunch> launches;
    std::vector<detail::BarrierCounter> barrier_counters;
};

Records& records() {
    static Records instance;
    return instance;
}

// Every file's barrier count summed, each set to zero and left counting.
unsigned long long take_barrier_counts() {
    std::vector<detail::BarrierCounter> counters;
    {
        Records& r = records();
        std::lock_guard<std::mutex> guard(r.lock);
        counters = r.barrier_counters;
    }
    unsigned long long total = 0;
    for (detail::BarrierCounter counter : counters) {
        unsigned long long count = 0;
        WB_CUDA_CHECK(counter(&count));
        total += count;
    }
    return total;
}

}  // namespace

namespace detail {

void watch_compiled_in() {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    r.compiled_in = true;
}

bool poisoning_allocations() { return checking(); }

void note_allocation(const void* pointer, std::size_t bytes) {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    r.held[pointer] = Allocation{bytes, r.allocations_made++};
}

void note_free(const void* pointer) {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    r.held.erase(pointer);
}

void note_launch(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes) {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    r.launches.push_back(RecordedLaunch{kernel, grid, block, shared_bytes});
}

void note_barrier_counter(BarrierCounter counter) {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    r.barrier_counters.push_back(counter);
}

}  // namespace detail

DeviceCallWatch::DeviceCallWatch() {
    {
        Records& r = records();
        std::lock_guard<std::mutex> guard(r.lock);
        first_launch_ = r.launches.size();
        first_allocation_ = r.allocations_made;
        counts_barriers_ = checking() && !r.barrier_counters.empty();
    }
    if (counts_barriers_) take_barrier_counts();  // from zero, counting on
}

bool DeviceCallWatch::counts_barriers() const { return counts_barriers_; }

unsigned long long DeviceCallWatch::barriers_passed() const {
    if (counts_barriers_) barriers_ += take_barrier_counts();
    return barriers_;
}

bool DeviceCallWatch::available() const {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    return r.compiled_in;
}

std::vector<RecordedLaunch> DeviceCallWatch::launches() const {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    return std::vector<RecordedLaunch>(r.launches.begin() + static_cast<long>(first_launch_), r.launches.end());
}

UnfreedAllocations DeviceCallWatch::unfreed() const {
    Records& r = records();
    std::lock_guard<std::mutex> guard(r.lock);
    UnfreedAllocations unfreed;
    for (const auto& held : r.held)
        if (held.second.serial >= first_allocation_) {
            ++unfreed.count;
            unfreed.bytes += held.second.bytes;
        }
    return unfreed;
}

bool all_freed(const DeviceCallWatch& watch, const std::string& what, const std::string& label) {
    const UnfreedAllocations unfreed = watch.unfreed();
    if (unfreed.count == 0) return true;
    std::printf("  %s: %s returned with %zu of its device allocations (%zu bytes) not freed: a cudaFree is "
                "missing, and every call leaks that much device memory\n",
                label.c_str(), what.c_str(), unfreed.count, unfreed.bytes);
    return false;
}

namespace {

// The one launch since `watch` began, or null after printing why there is not exactly one.
const RecordedLaunch* only_launch(const std::vector<RecordedLaunch>& launches, const char* kernel,
                                  const std::string& label) {
    if (launches.size() == 1) return &launches.front();
    std::printf("  %s: %zu kernel launches where one launch of %s was expected\n", label.c_str(), launches.size(),
                kernel);
    return nullptr;
}

std::string shape(dim3 d) { return std::to_string(d.x) + " x " + std::to_string(d.y) + " x " + std::to_string(d.z); }

}  // namespace

bool launched_smallest_grid(const DeviceCallWatch& watch, const char* kernel,
                            const std::function<dim3(dim3 block)>& smallest_grid, const std::string& data,
                            const std::string& label) {
    if (!watch.available()) return true;  // built without the watch: nothing to compare
    const std::vector<RecordedLaunch> launches = watch.launches();
    const RecordedLaunch* launch = only_launch(launches, kernel, label);
    if (!launch) return false;
    const dim3 want = smallest_grid(launch->block);
    const dim3 got = launch->grid;
    if (got.x == want.x && got.y == want.y && got.z == want.z) return true;
    const bool short_of = got.x < want.x || got.y < want.y || got.z < want.z;
    std::printf("  %s: %s launched a grid of %s blocks of %s threads for %s; %s blocks cover them, rounded up and "
                "no further: %s\n",
                label.c_str(), kernel, shape(got).c_str(), shape(launch->block).c_str(), data.c_str(),
                shape(want).c_str(), short_of ? "some of the data gets no thread" : "the extra blocks only cost time");
    return false;
}

bool launched_largest_block(const DeviceCallWatch& watch, const char* kernel, const DeviceInfo& device,
                            const std::string& label) {
    if (!watch.available()) return true;
    const std::vector<RecordedLaunch> launches = watch.launches();
    const RecordedLaunch* launch = only_launch(launches, kernel, label);
    if (!launch) return false;
    const dim3 block = launch->block;
    const long long threads = 1LL * block.x * block.y * block.z;
    if (threads == device.max_threads_per_block && block.x % device.warp_size == 0) return true;
    std::printf("  %s: %s launched blocks of %s = %lld threads; the largest block this GPU allows has %d, with a "
                "multiple of %d (whole warps) along x\n",
                label.c_str(), kernel, shape(block).c_str(), threads, device.max_threads_per_block, device.warp_size);
    return false;
}

bool passed_barriers(const DeviceCallWatch& watch, const char* kernel, unsigned long long per_block,
                     const std::string& why, const std::string& label) {
    if (!watch.counts_barriers()) return true;  // built without counting, or not a check
    const std::vector<RecordedLaunch> launches = watch.launches();
    const RecordedLaunch* launch = only_launch(launches, kernel, label);
    if (!launch) return false;
    const unsigned long long blocks = 1ULL * launch->grid.x * launch->grid.y * launch->grid.z;
    const unsigned long long passed = watch.barriers_passed();
    if (passed == blocks * per_block) return true;
    const bool more = passed > blocks * per_block;
    std::printf("  %s: the %llu blocks of %s passed %llu barriers (%.1f per block) where %llu per block are "
                "needed (%s): %s\n",
                label.c_str(), blocks, kernel, passed, blocks ? static_cast<double>(passed) / blocks : 0.0, per_block,
                why.c_str(),
                more ? "a loop makes more steps than the data needs; the extra ones only add zeros and cost time"
                     : "a barrier is missing or skipped, or the loop stops before the data ends");
    return false;
}

bool launched_no_idle_blocks(const DeviceCallWatch& watch, const char* kernel, long long items,
                             const std::string& label) {
    if (!watch.available()) return true;
    const std::vector<RecordedLaunch> launches = watch.launches();
    const RecordedLaunch* launch = only_launch(launches, kernel, label);
    if (!launch) return false;
    const long long threads = 1LL * launch->block.x * launch->block.y * launch->block.z;
    const long long blocks = 1LL * launch->grid.x * launch->grid.y * launch->grid.z;
    const long long useful = threads ? ceil_div(items, threads) : 0;
    if (blocks <= useful) return true;
    std::printf("  %s: %s launched %lld blocks of %lld threads for %lld work items; blocks beyond ceil(%lld / %lld) "
                "= %lld have no item to work on and only cost time\n",
                label.c_str(), kernel, blocks, threads, items, items, threads, useful);
    return false;
}

}  // namespace wb
