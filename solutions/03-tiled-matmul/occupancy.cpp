// Lesson 03 reference solution, program "occupancy".
#include "occupancy.h"

#include <climits>

// Threads are handed out in whole warps of 32.
int blocks_by_threads(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 1: how many blocks fit in the SM's threads?
    const int warps_per_block = (use.threads_per_block + 31) / 32;  // a partial warp is a whole one
    return (sm.max_threads / 32) / warps_per_block;
    // <<< TODO 1
}

int blocks_by_registers(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 2: how many blocks fit in the register file?
    if (use.registers_per_thread == 0) return INT_MAX;
    const int warps_per_block = (use.threads_per_block + 31) / 32;
    const int registers_per_warp =
        (use.registers_per_thread * 32 + sm.register_unit - 1) / sm.register_unit * sm.register_unit;
    const int warps_per_partition = (sm.registers / sm.register_partitions) / registers_per_warp;
    return warps_per_partition * sm.register_partitions / warps_per_block;
    // <<< TODO 2
}

int blocks_by_shared_memory(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 3: how many blocks fit in the SM's shared memory?
    // Even a block without __shared__ arrays holds the reserved part.
    const long held = use.shared_bytes + sm.shared_reserved_per_block;
    const long per_block = (held + sm.shared_unit - 1) / sm.shared_unit * sm.shared_unit;
    return static_cast<int>(sm.shared_bytes / per_block);
    // <<< TODO 3
}

Occupancy occupancy_of(const SmLimits& sm, const KernelUse& use) {
    Occupancy result{sm.max_blocks, "blocks per SM"};
    const struct {
        int blocks;
        const char* name;
    } limits[] = {{blocks_by_threads(sm, use), "threads"},
                  {blocks_by_registers(sm, use), "registers"},
                  {blocks_by_shared_memory(sm, use), "shared memory"}};
    for (const auto& limit : limits)
        if (limit.blocks < result.blocks) result = Occupancy{limit.blocks, limit.name};
    return result;
}
