// Lesson 03 exercise, program "occupancy": the number of blocks one SM holds, from the
// kernel's threads, registers and shared memory.
// Check your work with:  scripts/check 03-tiled-matmul.occupancy   (rebuilds, then runs the check)
// The lesson page's section "Occupancy" has the steps and the hints.
#include "occupancy.h"

#include <climits>

// Threads are handed out in whole warps of 32.
int blocks_by_threads(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 1: how many blocks fit in the SM's threads?
    // A block of 48 threads occupies two warps. How many threads does that leave to the others?
    (void)sm;
    (void)use;
    return 0;
    // <<< TODO 1
}

int blocks_by_registers(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 2: how many blocks fit in the register file?
    // Registers go to whole warps, rounded up to sm.register_unit, and each warp takes them from
    // one of sm.register_partitions equal parts of the file: count the warps that fit in one
    // part, then in the SM, then the blocks. A kernel may use no registers at all.
    (void)sm;
    (void)use;
    return 0;
    // <<< TODO 2
}

int blocks_by_shared_memory(const SmLimits& sm, const KernelUse& use) {
    // >>> TODO 3: how many blocks fit in the SM's shared memory?
    // Every block also holds sm.shared_reserved_per_block bytes, and the sum is rounded up to
    // sm.shared_unit. What does a block that declares no shared memory at all hold?
    (void)sm;
    (void)use;
    return 0;
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
