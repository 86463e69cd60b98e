// Lesson 03 driver of the program "occupancy" (shared by the exercise and the solution; you do
// not edit this file).
//   --check  compares your occupancy_of() with NVIDIA's occupancy calculator (cuda_occupancy.h,
//            part of the CUDA toolkit) for an H100 or H200 over many block sizes, register counts and
//            shared-memory sizes (no GPU needed); on a GPU, also with the runtime's
//            cudaOccupancyMaxActiveBlocksPerMultiprocessor for kernels compiled here.
//   --bench  times a memory-bound kernel with the number of resident blocks per SM set by the
//            dynamic shared memory each block asks for: how occupancy hides memory latency.
// The benchmark's kernel is kernels/memory_bound_scale.cu; the check's kernels of different
// register counts are harness/register_probes.cu.
#include "occupancy.h"

#include "harness/register_probes.h"
#include "kernels/memory_bound_scale.h"
#include "wb/roofs.h"
#include "wb/workbook.h"
#include "wb/lesson_name.h"

#include <cuda_occupancy.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const char* const kProgram = wb::program_name();

// An H100's or H200's numbers, both of compute capability 9.0 with 132 SMs (CUDA C++ Programming
// Guide, table of compute capabilities, 9.0).
cudaOccDeviceProp hopper_properties() {
    cudaOccDeviceProp p;
    p.computeMajor = 9;
    p.computeMinor = 0;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiprocessor = 2048;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerMultiprocessor = 228 * 1024;
    p.numSms = 132;
    p.sharedMemPerBlockOptin = 227 * 1024;
    p.reservedSharedMemPerBlock = 1024;
    return p;
}

// The allocation units are not device properties; these are the ones of compute capability
// 8.0 and later (and the calculator's own).
SmLimits limits_of(const cudaOccDeviceProp& p, int max_blocks) {
    SmLimits sm;
    sm.max_threads = p.maxThreadsPerMultiprocessor;
    sm.max_blocks = max_blocks;
    sm.registers = p.regsPerMultiprocessor;
    sm.register_unit = 256;
    sm.register_partitions = 4;
    sm.shared_bytes = static_cast<long>(p.sharedMemPerMultiprocessor);
    sm.shared_reserved_per_block = static_cast<long>(p.reservedSharedMemPerBlock);
    sm.shared_unit = 128;
    return sm;
}

// NVIDIA's calculator for a kernel using `use`, with the shared memory as dynamic memory the
// kernel opted in to (so that more than 48 KiB per block is allowed, as on a real launch).
int calculator_blocks(const cudaOccDeviceProp& p, const KernelUse& use) {
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = p.maxThreadsPerBlock;
    attributes.numRegs = use.registers_per_thread;
    attributes.sharedSizeBytes = 0;
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attributes.maxDynamicSharedSizeBytes = p.sharedMemPerBlockOptin;
    cudaOccDeviceState state;
    cudaOccResult result;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &p, &attributes, &state, use.threads_per_block,
                                                static_cast<size_t>(use.shared_bytes)) != CUDA_OCC_SUCCESS) {
        std::printf("  the occupancy calculator refused threads %d, registers %d, shared %ld\n", use.threads_per_block,
                    use.registers_per_thread, use.shared_bytes);
        return -1;
    }
    return result.activeBlocksPerMultiprocessor;
}

void print_case(const char* prefix, const KernelUse& use, int yours, int expected) {
    std::printf("  %s%4d threads, %3d registers, %6ld B shared: %2d blocks (expected %d)\n", prefix,
                use.threads_per_block, use.registers_per_thread, use.shared_bytes, yours, expected);
}

// Every combination below, on an H100's or H200's limits, against the calculator. Some block sizes are not
// multiples of 32 and small enough that the 32-blocks-per-SM cap does not hide a partial warp
// counted as no warp (97, 100, 300 and 700 threads take 4, 4, 10 and 22 warps, not 3, 3, 9 and
// 21; 97 threads also catch a rounding that is one short). A kernel may use no registers at all
// (0: no limit from them). 76801 bytes of shared memory plus the reserved 1024 are one byte over a
// multiple of the 128-byte unit: rounding them down instead of up gives 3 blocks instead of 2.
bool check_against_calculator() {
    const cudaOccDeviceProp p = hopper_properties();
    const SmLimits sm = limits_of(p, 32);
    long cases = 0, wrong = 0;
    for (const int threads :
         {32, 48, 64, 96, 97, 100, 128, 160, 192, 256, 300, 320, 384, 512, 640, 700, 768, 896, 1024})
        for (const int registers :
             {0, 16, 24, 32, 33, 38, 40, 48, 56, 64, 72, 80, 90, 96, 100, 128, 130, 168, 200, 255})
            for (const long shared :
                 {0L, 100L, 4000L, 12288L, 16384L, 32276L, 40000L, 49152L, 65536L, 76801L, 100000L, 150000L, 232448L}) {
                const KernelUse use{threads, registers, shared};
                const int expected = calculator_blocks(p, use);
                const wb::RunningExercise running("occupancy_of");
                const int yours = occupancy_of(sm, use).blocks;
                ++cases;
                if (yours != expected && wrong++ == 0) print_case("first wrong case: ", use, yours, expected);
            }
    std::printf("  H100 and H200 limits, against cuda_occupancy.h: %ld of %ld cases wrong\n", wrong, cases);
    return wrong == 0;
}

bool check_on_gpu(const wb::DeviceInfo& device) {
    cudaDeviceProp props{};
    WB_CUDA_CHECK(cudaGetDeviceProperties(&props, 0));
    int max_blocks = 0;
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&max_blocks, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
    const SmLimits sm = limits_of(cudaOccDeviceProp(props), max_blocks);
    long cases = 0, wrong = 0;
    for (const NamedKernel& kernel : register_probe_kernels()) {
        cudaFuncAttributes attributes{};
        WB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel.function));
        std::printf("  %s on %s: %d registers per thread; blocks per SM for 256 threads: ", kernel.name,
                    device.name.c_str(), attributes.numRegs);
        for (const int threads : {32, 96, 128, 256, 384, 512, 1024}) {
            if (threads > attributes.maxThreadsPerBlock) continue;
            for (const long shared : {0L, 3000L, 20000L, 48000L}) {
                int expected = 0;
                WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected, kernel.function, threads,
                                                                            static_cast<size_t>(shared)));
                const KernelUse use{threads, attributes.numRegs,
                                    shared + static_cast<long>(attributes.sharedSizeBytes)};
                const wb::RunningExercise running("occupancy_of");
                const Occupancy yours = occupancy_of(sm, use);
                if (threads == 256 && shared == 0)
                    std::printf("%d (%s), %.0f%% of the SM's threads\n", yours.blocks, yours.limited_by,
                                100.0 * yours.blocks * threads / sm.max_threads);
                ++cases;
                if (yours.blocks != expected && wrong++ == 0)
                    print_case("first wrong case: ", use, yours.blocks, expected);
            }
        }
    }
    std::printf("  %s, against cudaOccupancyMaxActiveBlocksPerMultiprocessor: %ld of %ld cases wrong\n",
                device.name.c_str(), wrong, cases);
    return wrong == 0;
}

int run_check(const wb::Options& options) {
    if (!options.sizes.empty()) wb::usage_error("--sizes: the check takes no sizes (the benchmark does)");
    std::printf("%s, occupancy: resident blocks per SM from threads, registers and shared memory\n",
                wb::lesson_heading());
    wb::CheckTally tally(kProgram);
    tally.record(check_against_calculator());
    std::string why_not;
    if (wb::gpu_available(&why_not)) {
        tally.record(check_on_gpu(wb::require_gpu()));
    } else {
        std::printf("  (no GPU here: the comparison with the runtime on a real GPU is skipped)\n");
    }
    return tally.finish("your occupancy matches NVIDIA's calculator in every case");
}

// ---- bench: occupancy and memory latency ---------------------------------------------------
int run_bench(const wb::Options& options, wb::BenchContext& bench) {
    long long count = 1LL << 27;  // 1 GiB of doubles in, 1 GiB out
    if (!options.sizes.empty()) {
        if (options.sizes.size() != 1 || options.sizes[0].size() != 1)
            wb::usage_error("--sizes: give the number of doubles as one number");
        count = options.sizes[0][0];
        if (count < (1 << 20)) wb::usage_error("--sizes: at least 1048576 doubles, to time anything");
    }
    const int repeats = options.repeat;
    const wb::DeviceInfo device = wb::require_gpu();
    wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), count), "x and y");
    cudaDeviceProp props{};
    WB_CUDA_CHECK(cudaGetDeviceProperties(&props, 0));
    int max_blocks = 0;
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&max_blocks, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
    const SmLimits sm = limits_of(cudaOccDeviceProp(props), max_blocks);
    WB_CUDA_CHECK(cudaFuncSetAttribute(scale_kernel_function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(props.sharedMemPerBlockOptin)));
    std::vector<double> x(count);
    wb::fill_random(x, options.seed);
    wb::DeviceBuffer<double> d_x(x), d_y(count);
    const double bytes = 2.0 * count * sizeof(double);
    std::printf("%s occupancy benchmark on %s: y = 3x over %lld doubles, kernel alone (no transfers), "
                "CUDA events, median of %d\n",
                wb::lesson_heading(), device.name.c_str(), count, repeats);
    wb::CsvWriter& csv = bench.open_csv(device.name);
    wb::BenchRow shared;
    shared.lesson = kProgram;
    shared.precision = "double";
    shared.shape = std::to_string(count);
    shared.rate_unit = "GB/s";
    shared.device = device.name;
    shared.ceiling = "copy";
    shared.ceiling_rate = wb::measured_roofs().copy_gbs;  // the device copy of this run's roofs
    shared.flops = static_cast<double>(count);            // one multiplication per element
    shared.dram_bytes = bytes;
    wb::BenchRows rows(csv, shared);
    const int threads = 256;
    const int warps_per_block = threads / 32;
    for (const int blocks_per_sm : {1, 2, 3, 4, 5, 6, 8}) {
        // The largest request that still lets `blocks_per_sm` blocks in (and so forbids one more).
        const long per_block = sm.shared_bytes / blocks_per_sm / sm.shared_unit * sm.shared_unit;
        const long dynamic = per_block - sm.shared_reserved_per_block;
        int resident = 0;
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, scale_kernel_function(), threads,
                                                                    static_cast<size_t>(dynamic)));
        const int grid = resident * wb::multiprocessor_count();  // one full wave, grid-stride loop
        const wb::TimingStats t = wb::measure_gpu(2, repeats, [&] {
            launch_scale(grid, threads, static_cast<size_t>(dynamic), d_x.get(), d_y.get(), count);
        });
        rows.shared().n = resident * warps_per_block;  // resident warps per SM: the chart's x
        std::printf("    %d block(s) of %d threads per SM (%ld bytes of shared memory each): %ld resident warps\n",
                    resident, threads, dynamic, rows.shared().n);
        rows.write("resident-warps", std::to_string(threads), t, wb::gb_per_s(bytes, t.median_ms));
    }
    csv.finish();  // says "CSV written to FILE", or why it could not be written (exit 2)
    return wb::kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
    wb::LessonInfo info{kProgram,
                        "blocks per SM from threads, registers and shared memory; latency hiding",
                        "the benchmark's number of doubles (the check takes no sizes)",
                        {}};
    info.default_repeats = 10;
    info.accepts_block = false;
    info.no_block_reason = "goes through its own block sizes";
    return wb::lesson_main(argc, argv, info, run_check, run_bench);
}
