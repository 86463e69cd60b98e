// Lesson 13 exercise, part 1 (with TODO 1 in wgmma_group.cuh and TODOs 4 and 5 in
// 03_warp_specialized.cu): the two waits of a ring of stages, which kernel 03 and the persistent
// kernels 04 to 06 all use.
// Each stage has two mbarriers, and each completes one phase per use of the stage: `full` when
// the use's bytes have landed (the producer arms it with the byte count), `empty` when every
// consumer warp has finished reading it. Use number `use` (0, 1, 2, ...) of a stage is phase
// `use` of both, and a wait names a phase by its parity (PTX: mbarrier.try_wait.parity).
// Check your work with:  scripts/check 13-hopper-tensor-cores   (rebuilds, then runs the check)
// The lesson page has the idea and the hints.
#pragma once

#include "hopper.cuh"

#include <cstdint>

// The producer, before it fills a stage for use `use`: waits until the consumers have released
// the stage's previous use.
__device__ inline void wait_until_released(uint64_t* empty, uint32_t use) {
    // >>> TODO 2: wait until the consumers have emptied this stage (for use 0: at once)
    // Wait on `empty` with wait_for_phase(barrier, parity). Which phase of it means "the
    // consumers released this stage's previous use"? And for use 0, when nobody has used the
    // stage yet, which parity makes the wait pass at once?
    (void)empty;
    (void)use;
    // <<< TODO 2
}

// A consumer, before it reads a stage for use `use`: waits until that use's bytes have landed.
__device__ inline void wait_until_landed(uint64_t* full, uint32_t use) {
    // >>> TODO 3: wait until the producer's bytes for this use have landed in the stage
    // The stage's `full` barrier completes one phase per use of the stage.
    (void)full;
    (void)use;
    // <<< TODO 3
}
