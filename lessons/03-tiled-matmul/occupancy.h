// Lesson 03, program "occupancy": how many blocks of a kernel one multiprocessor holds at once.
#pragma once

// What one streaming multiprocessor (SM) offers. The numbers of an H100 (compute capability
// 9.0) are in the comments; the driver reads the running GPU's from the CUDA runtime.
struct SmLimits {
    int max_threads = 0;                 // resident threads per SM (2048)
    int max_blocks = 0;                  // resident blocks per SM (32)
    int registers = 0;                   // 32-bit registers per SM (65536)
    int register_unit = 0;               // registers are given to a warp in multiples of this (256)
    int register_partitions = 0;         // the register file is split evenly among this many
                                         // schedulers, and a warp's registers sit in one of them (4)
    long shared_bytes = 0;               // shared memory per SM (233472 = 228 KiB)
    long shared_reserved_per_block = 0;  // taken by the system from every block (1024)
    int shared_unit = 0;                 // shared memory is given in multiples of this (128)
};

// What one block of a kernel asks for.
struct KernelUse {
    int threads_per_block = 0;     // blockDim.x * blockDim.y * blockDim.z
    int registers_per_thread = 0;  // from the compiler (nvcc -Xptxas -v, cudaFuncGetAttributes)
    long shared_bytes = 0;         // static __shared__ arrays plus the launch's dynamic size
};

// The four limits, each the number of blocks that fit on one SM if it were the only limit.
int blocks_by_threads(const SmLimits& sm, const KernelUse& use);
int blocks_by_registers(const SmLimits& sm, const KernelUse& use);
int blocks_by_shared_memory(const SmLimits& sm, const KernelUse& use);

// The blocks that fit at once (the smallest of the limits above and sm.max_blocks), and the
// name of the limit that decides it.
struct Occupancy {
    int blocks = 0;
    const char* limited_by = "";
};
Occupancy occupancy_of(const SmLimits& sm, const KernelUse& use);
