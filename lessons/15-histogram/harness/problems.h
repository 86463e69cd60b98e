/// @file problems.h
/// @brief Lesson 15 harness: the inputs (uniform, text-like, a share of equal values), the CPU
/// reference histogram, and running one version on the device, checked or timed.
#pragma once

#include "wb/steady_timing.h"
#include "wb/workbook.h"

#include <cstdint>
#include <string>
#include <vector>

/// What the check measures of a version's cost once it counts right (check_costs).
enum class CostCase {
    none,
    private_bins,    ///< the fixed cost of its copy of the 256 bins per block (check_private_bins_cost)
    loads_and_runs,  ///< version 05: its adds on equal bytes and its rate against CUB's (check_loads_and_runs)
};

/// How a version is launched, for each value type (histogram.h).
struct Launch {
    void (*bytes)(const unsigned char*, long long, unsigned int*);    ///< 256 bins
    void (*shorts)(const unsigned short*, long long, unsigned int*);  ///< 65,536 bins
    const char* part;  ///< what the check names when the version is wrong ("TODO 1")
    CostCase cost;     ///< what the check measures of its cost once the version counts right
};

/// One input distribution. `equal_fraction` of the values are kEqualValue, the others uniform;
/// a negative fraction means text-like input instead (English letter frequencies for bytes, a
/// Zipf draw for 16-bit values). With `longest_run` above 1 each value drawn is repeated 1 to
/// longest_run times (runs that start and end anywhere in a 16-byte chunk).
struct InputCase {
    std::string name;       ///< the CSV's input column: uniform, equal-0.25, all-equal, text-like
    double equal_fraction;  ///< 0 .. 1, or -1 for text-like
    int longest_run = 1;    ///< values come in runs of 1 .. longest_run equal values
};

/// The value every "equal" element holds ('e').
constexpr unsigned int kEqualValue = 101;

/// uniform, equal-0.25, equal-0.5, equal-0.75, equal-0.9, all-equal, then text-like.
std::vector<InputCase> benchmark_inputs();

/// The values of one problem, on the host, with their bins counted on the CPU.
struct Problem {
    int value_bytes = 1;                 ///< 1 (256 bins) or 2 (65,536 bins)
    long long count = 0;                 ///< values
    InputCase input;                     ///< how they were drawn
    std::vector<unsigned char> raw;      ///< the values' bytes
    std::vector<unsigned int> expected;  ///< the CPU reference histogram
    int bins() const { return 1 << (8 * value_bytes); }
    double bytes() const { return static_cast<double>(count) * value_bytes; }
    std::string precision() const { return value_bytes == 1 ? "uint8" : "uint16"; }
};

/// Draws `count` values of `value_bytes` bytes (the same for a given seed) and counts them.
Problem make_problem(int value_bytes, long long count, const InputCase& input, std::uint64_t seed);

/// The values on the device, starting `offset_values` values after a 256-byte aligned address
/// (the versions' 16-byte loads must handle an unaligned start).
struct DeviceValues {
    wb::DeviceBuffer<unsigned char> buffer;
    std::size_t offset_bytes = 0;
    const void* values() const { return buffer.get() + offset_bytes; }
};

/// Uploads the problem's values (a clear error first when the device lacks the memory).
DeviceValues upload(const Problem& problem, int offset_values);

/// Runs the version once into `d_bins`, on the default stream; does not wait.
void run_version(const Launch& launch, const Problem& problem, const DeviceValues& values, unsigned int* d_bins);

/// Runs the version once into freshly allocated bins filled with 0xFF bytes, after filling the
/// GPU's shared memory with junk (so that private bins left unzeroed count from junk), waits
/// for it (a kernel still running after 20 s ends the check with a message), and compares the
/// bins with the CPU's. With `print`, one line: correct, or the first wrong bin, the number of
/// wrong bins and whether the bins sum to the number of values, naming the part at fault.
bool check_version(const std::string& name, const Launch& launch, const Problem& problem, const DeviceValues& values,
                   bool print);

/// The check's cases of cost, for the versions that count right: the private bins' fixed cost
/// (CostCase::private_bins), version 05's adds and rate (CostCase::loads_and_runs). Records each
/// case in `tally`; returns true when it checked any. Not under compute-sanitizer (which scales
/// the time limits and slows kernels unevenly).
bool check_costs(const std::vector<wb::Version<Launch>>& versions, const std::vector<bool>& version_correct,
                 wb::CheckTally& tally);

/// The fixed cost of a version with private bins (02 and 03 with 256 bins): zeroing them before
/// the block counts and merging them after. On 2048 equal bytes (8 blocks of 256 threads, one
/// value each) the time is little more than launching the grid, so the version is timed against
/// a kernel that only reads the values, with the same grid and shared memory (back-to-back runs,
/// CUDA events, the fastest of 15 batches; measured again up to twice before a failure). More
/// than kPrivateBinsCostLimit times that kernel's time fails: each block then does far more than
/// one pass over its bins (every thread zeroing all of them, say). Prints one line (two when it
/// fails).
bool check_private_bins_cost(const std::string& name, const Launch& launch);

/// Allowed time of a version with private bins over a kernel that only reads the values, in
/// check_private_bins_cost(). A correct version takes 1.0 to 1.1 times as long on an H100; with
/// every thread zeroing its bin and all those after it, or all 256, 2.1 times or more.
constexpr double kPrivateBinsCostLimit = 1.6;

/// Version 05's two ideas, once it counts right (prints a line for each, and one more for each
/// that fails, naming its TODO):
///  - runs: on kSpeedBytes equal bytes its counting (TODO 4, count_vector_runs_adds) may make
///    at most kMostAddsPerThread adds per thread: each thread's chunks form one run, added once;
///    one add per value or per chunk is far more (a count, not a time: the same on every GPU);
///  - loads: on kSpeedBytes uniform bytes, where a chunk of 16 equal bytes is rare and the loads
///    set the pace, it runs at least kMinRateOfCub times the rate of CUB's HistogramEven on the
///    same bytes, each timed in back-to-back runs with CUDA events, the fastest of 15 batches
///    (measured again up to twice before a failure).
/// Returns true when both pass; records both in `tally`.
bool check_loads_and_runs(const std::string& name, const Launch& launch, wb::CheckTally& tally);

/// Bytes of input of check_loads_and_runs(): 2^26, tens of microseconds a run on an H200.
constexpr long long kSpeedBytes = 1LL << 26;

/// Most adds per thread on equal bytes in check_loads_and_runs(): one for its run, and one to
/// spare (with 2^26 bytes and at most 2^19 threads, one add per 16-byte chunk is 8 a thread).
constexpr unsigned int kMostAddsPerThread = 2;

/// Least rate of version 05 against CUB's on uniform bytes, in check_loads_and_runs(). The
/// reference version, which counts with the same functions, runs at 1.10 times CUB's rate on
/// uniform bytes on an H100 and on an H200 (data/h100/, data/h200/); version 02, which loads one
/// byte at a time, at a third of it.
constexpr double kMinRateOfCub = 0.6;

/// The median, fastest and slowest of `repeats` samples, each a batch of back-to-back runs timed
/// with CUDA events after a warm-up batch, repeated while max/min exceeds 1.2 (three times at most).
wb::SteadyTiming time_version(const std::string& name, const std::string& label, const Launch& launch,
                              const Problem& problem, const DeviceValues& values, int repeats);
