// Lesson 03 driver of the program "banks" (shared by the exercise and the solution; you do not
// edit this file).
//   --check  counts, on the CPU, the shared-memory wavefronts your tile's pitch costs a warp
//            (rows and columns, floats and doubles), then runs your transpose on poisoned
//            outputs for several shapes, both pitches and both types, against the CPU.
//   --bench  times a plain copy (the ceiling), a transpose without shared memory, and yours
//            with the unpadded pitch and with your pitch, for floats and doubles.
// The transpose without shared memory is kernels/transpose_naive.cu.
#include "transpose.h"

#include "kernels/transpose_naive.h"
#include "wb/roofs.h"
#include "wb/workbook.h"
#include "wb/lesson_name.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace {

const char* const kProgram = wb::program_name();

// ---- the bank model -------------------------------------------------------------------------
// Shared memory has 32 banks of 4 bytes: the 4-byte word at byte address a is in bank
// (a / 4) % 32. A warp's request is served in wavefronts of at most 128 bytes: 4-byte accesses
// by the whole warp at once, 8-byte accesses half a warp at a time. Within one wavefront group,
// two threads on different words of the same bank wait for each other; the request costs, per
// group, as many wavefronts as the busiest bank has different words.
int wavefronts(const std::vector<long>& byte_addresses, int word_bytes) {
    const int group = 128 / word_bytes;  // threads served together: 32 for floats, 16 for doubles
    int total = 0;
    for (std::size_t first = 0; first < byte_addresses.size(); first += group) {
        std::vector<std::set<long>> words_in_bank(32);
        for (std::size_t t = first; t < std::min(byte_addresses.size(), first + group); ++t)
            for (int part = 0; part < word_bytes; part += 4) {
                const long word = (byte_addresses[t] + part) / 4;
                words_in_bank[word % 32].insert(word);
            }
        std::size_t busiest = 1;
        for (const auto& words : words_in_bank) busiest = std::max(busiest, words.size());
        total += static_cast<int>(busiest);
    }
    return total;
}

// The worst wavefront count over the tile's rows (along_row) or columns, for one element type.
int worst_wavefronts(int pitch, int word_bytes, bool along_row) {
    int worst = 0;
    for (int fixed = 0; fixed < kTile; ++fixed) {
        std::vector<long> addresses;
        for (int lane = 0; lane < 32; ++lane) {
            const long element =
                along_row ? static_cast<long>(fixed) * pitch + lane : static_cast<long>(lane) * pitch + fixed;
            addresses.push_back(element * word_bytes);
        }
        worst = std::max(worst, wavefronts(addresses, word_bytes));
    }
    return worst;
}

bool check_pitch() {
    const int pitch = transpose_tile_pitch();
    if (pitch < kTile || pitch > 4 * kTile) {
        std::printf("  pitch %d: a tile row needs at least %d elements (and more than %d is waste)\n", pitch, kTile,
                    4 * kTile);
        return false;
    }
    bool ok = true;
    for (const int word_bytes : {4, 8}) {
        const char* type = word_bytes == 4 ? "float" : "double";
        const int ideal = word_bytes / 4;  // 32 accesses of word_bytes: 128 bytes per wavefront
        for (const bool along_row : {true, false}) {
            const int cost = worst_wavefronts(pitch, word_bytes, along_row);
            std::printf("  pitch %d, %-6s a warp on a tile %s: %2d wavefront(s) (ideal %d)%s\n", pitch, type,
                        along_row ? "row   " : "column", cost, ideal, cost == ideal ? "" : ": a bank conflict, FAILED");
            ok = ok && cost == ideal;
        }
    }
    return ok;
}

// ---- the transpose on the GPU ---------------------------------------------------------------
template <typename T>
std::vector<T> transposed_on_cpu(const std::vector<T>& in, int rows, int cols) {
    std::vector<T> out(in.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out[static_cast<std::size_t>(c) * rows + r] = in[static_cast<std::size_t>(r) * cols + c];
    return out;
}

template <typename T>
bool check_transpose(const wb::RowsCols& shape, bool padded, std::uint64_t seed) {
    const int rows = static_cast<int>(shape.rows), cols = static_cast<int>(shape.cols);
    std::vector<T> in(static_cast<std::size_t>(shape.rows * shape.cols));
    wb::fill_random(in, seed);
    const std::vector<T> expected = transposed_on_cpu(in, rows, cols);
    wb::DeviceBuffer<T> d_in(in), d_out(in.size());
    d_out.poison();
    launch_transpose(d_in.get(), d_out.get(), rows, cols, padded);
    WB_WAIT_FOR_KERNEL("transpose_kernel");
    const wb::CompareReport report = wb::compare(d_out.to_host().data(), expected.data(),
                                                 static_cast<long>(expected.size()), wb::Tolerance{0.0, 0.0});
    std::printf("  %-6s %5d x %-5d pitch %2d: ", sizeof(T) == 4 ? "float" : "double", rows, cols,
                padded ? transpose_tile_pitch() : kTile);
    wb::print_report(report, "out", rows);  // out is cols x rows
    return report.ok();
}

int run_check(const wb::Options& options) {
    const auto shapes =
        wb::rows_by_cols(options, {{1, 1}, {33, 31}, {1000, 7}, {515, 4099}, {2048, 2048}}, "matrix", "515x4099");
    std::printf("%s, banks: a transpose through a shared-memory tile (seed %llu)\n", wb::lesson_heading(),
                static_cast<unsigned long long>(options.seed));
    wb::CheckTally tally(kProgram);
    // The bank count needs no GPU: a conflicting pitch is a wrong answer on any machine.
    tally.record(check_pitch());
    if (tally.failed() && !wb::gpu_available()) return tally.finish("");
    const wb::DeviceInfo device = wb::require_gpu();
    std::printf("  on %s\n", device.name.c_str());
    for (const wb::RowsCols& shape : shapes) {
        wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), shape.rows, shape.cols), "the matrices");
        const std::uint64_t seed = options.seed + shape.rows * 31 + shape.cols;
        for (const bool padded : {false, true}) {
            tally.record(check_transpose<float>(shape, padded, seed));
            tally.record(check_transpose<double>(shape, padded, seed));
        }
    }
    return tally.finish("every element is in its place, and a tile column costs no bank conflict");
}

// ---- bench ----------------------------------------------------------------------------------

template <typename T>
void bench_type(wb::BenchRows& rows, int n, int repeats, std::uint64_t seed) {
    std::vector<T> in(static_cast<std::size_t>(n) * n);
    wb::fill_random(in, seed);
    wb::DeviceBuffer<T> d_in(in), d_out(in.size());
    const double bytes = 2.0 * in.size() * sizeof(T);  // read once, written once
    rows.shared().precision = sizeof(T) == 4 ? "float" : "double";
    rows.shared().flops = 0.0;  // a transpose only moves data
    rows.shared().dram_bytes = bytes;
    const wb::TimingStats naive =
        wb::measure_gpu(2, repeats, [&] { launch_transpose_naive(d_in.get(), d_out.get(), n, n); });
    rows.write("naive", "32x8", naive, wb::gb_per_s(bytes, naive.median_ms));
    for (const bool padded : {false, true}) {
        const wb::TimingStats t =
            wb::measure_gpu(2, repeats, [&] { launch_transpose(d_in.get(), d_out.get(), n, n, padded); });
        const int pitch = padded ? transpose_tile_pitch() : kTile;
        rows.write("tiled-pitch" + std::to_string(pitch), "32x8", t, wb::gb_per_s(bytes, t.median_ms));
    }
}

int run_bench(const wb::Options& options, wb::BenchContext& bench) {
    const auto orders = wb::square_orders(options, {8192}, 30000, kProgram);
    if (orders.size() != 1) wb::usage_error("--sizes: give one matrix order for the benchmark");
    const int n = orders[0];
    if (n % kTile != 0 || n < 256) wb::usage_error("--sizes: the benchmark takes a multiple of 32, at least 256");
    const int repeats = options.repeat;
    const wb::DeviceInfo device = wb::require_gpu();
    wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), n, n), "the matrices");
    std::printf("%s banks benchmark on %s: %d x %d, kernels alone (no transfers), CUDA events, median of %d\n",
                wb::lesson_heading(), device.name.c_str(), n, n, repeats);
    wb::CsvWriter& csv = bench.open_csv(device.name);
    wb::BenchRow shared;
    shared.lesson = kProgram;
    shared.shape = std::to_string(n) + "x" + std::to_string(n);
    shared.n = n;
    shared.rate_unit = "GB/s";
    shared.device = device.name;
    shared.ceiling = "copy";
    shared.ceiling_rate = wb::measured_roofs().copy_gbs;  // the device copy of this run's roofs
    wb::BenchRows rows(csv, shared);
    bench_type<float>(rows, n, repeats, options.seed);
    bench_type<double>(rows, n, repeats, options.seed);
    csv.finish();  // says "CSV written to FILE", or why it could not be written (exit 2)
    return wb::kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
    wb::LessonInfo info{kProgram,
                        "a transpose through a shared-memory tile, with and without bank conflicts",
                        "matrix shapes RxC for the check, one order N for the benchmark",
                        {}};
    info.default_repeats = 10;
    info.sizes_most_in_check = 30000;
    info.accepts_block = false;
    info.no_block_reason = "moves 32 x 32 tiles with 32 x 8 threads (kTile, kRowsPerPass)";
    return wb::lesson_main(argc, argv, info, run_check, run_bench);
}
