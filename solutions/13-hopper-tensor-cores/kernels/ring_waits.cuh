// Lesson 13, the two waits of a ring of stages (the answer to TODOs 2 and 3), which kernel 03
// and the persistent kernels 04 to 06 all use.
// Each stage has two mbarriers, and each completes one phase per use of the stage: `full` when
// the use's bytes have landed (the producer arms it with the byte count), `empty` when every
// consumer warp has finished reading it. Use number `use` (0, 1, 2, ...) of a stage is phase
// `use` of both, and a wait names a phase by its parity (PTX: mbarrier.try_wait.parity).
#pragma once

#include "hopper.cuh"

#include <cstdint>

// The producer, before it fills a stage for use `use`: waits until the consumers have released
// the stage's previous use.
__device__ inline void wait_until_released(uint64_t* empty, uint32_t use) {
    // >>> TODO 2: wait until the consumers have emptied this stage (for use 0: at once)
    // Phase `use - 1` of `empty` is the consumers' release of the stage's previous use. On a
    // fresh barrier the phase "before" phase 0, of parity 1, counts as completed.
    wait_for_phase(empty, (use % 2) ^ 1);
    // <<< TODO 2
}

// A consumer, before it reads a stage for use `use`: waits until that use's bytes have landed.
__device__ inline void wait_until_landed(uint64_t* full, uint32_t use) {
    // >>> TODO 3: wait until the producer's bytes for this use have landed in the stage
    wait_for_phase(full, use % 2);
    // <<< TODO 3
}
