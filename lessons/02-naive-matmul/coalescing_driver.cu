// Lesson 02 driver of the program "coalescing" (shared by the exercise and the solution; not yours to edit).
//   --check  runs your scale_rows_kernel on poisoned outputs for several shapes and blocks and
//            compares every element with the CPU; then (unless --no-speed) times it against the
//            given strided kernel, which maps a warp onto a column, in the same process.
//   --bench  times your kernel for blocks from 32 to 1 threads wide, the strided kernel, and two
//            kernels that branch per thread or per warp (divergence), against the copy bandwidth
//            and cuBLAS DGEMM measured in the same run.
// The given kernels are in kernels/: scale_rows_strided.cu and divergence.cu.
#include "coalescing.h"
#include "kernels/coalescing_contrasts.h"

#include "wb/ceilings.h"
#include "wb/workbook.h"
#include "wb/lesson_name.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* const kProgram = wb::program_name();

// ---- check ----------------------------------------------------------------------------------
struct Matrix {
    int rows = 0, cols = 0;
    std::vector<double> in, row_scale, expected;
};

Matrix random_matrix(const wb::RowsCols& shape, std::uint64_t seed) {
    Matrix m;
    m.rows = static_cast<int>(shape.rows);
    m.cols = static_cast<int>(shape.cols);
    m.in.resize(static_cast<std::size_t>(shape.rows * shape.cols));
    m.row_scale.resize(m.rows);
    wb::fill_random(m.in, seed);
    wb::fill_random(m.row_scale, seed + 1);
    m.expected.resize(m.in.size());
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c) {
            const std::size_t e = static_cast<std::size_t>(r) * m.cols + c;
            m.expected[e] = m.in[e] * m.row_scale[r];
        }
    return m;
}

bool check_shape(const Matrix& m, dim3 block) {
    wb::DeviceBuffer<double> d_in(m.in), d_scale(m.row_scale), d_out(m.in.size());
    d_out.poison();
    launch_scale_rows(d_in.get(), d_scale.get(), d_out.get(), m.rows, m.cols, block);
    WB_WAIT_FOR_KERNEL("scale_rows_kernel");
    // One multiplication per element: the bits must be equal.
    const wb::CompareReport report = wb::compare(d_out.to_host().data(), m.expected.data(),
                                                 static_cast<long>(m.expected.size()), wb::Tolerance{0.0, 0.0});
    std::printf("  %d x %d, block %ux%u: ", m.rows, m.cols, block.x, block.y);
    wb::print_report(report, "out", m.cols);
    return report.ok();
}

// The speed check's case, which the benchmark times too (the page quotes its ratio): your kernel
// and the strided one, 4096 x 4096, 32 x 8 blocks, median of 9 launches of each after two warm-ups.
constexpr int kSpeedRows = 4096, kSpeedCols = 4096;
const dim3 kSpeedBlock(32, 8);

struct SpeedTimes {
    wb::TimingStats yours, strided;
};

SpeedTimes time_speed_case(std::uint64_t seed) {
    wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), kSpeedRows, kSpeedCols),
                              "the speed check's matrices");
    const Matrix m = random_matrix({kSpeedRows, kSpeedCols}, seed);
    wb::DeviceBuffer<double> d_in(m.in), d_scale(m.row_scale), d_out(m.in.size());
    const double *in = d_in.get(), *scale = d_scale.get();
    return {
        wb::measure_gpu(2, 9, [&] { launch_scale_rows(in, scale, d_out.get(), kSpeedRows, kSpeedCols, kSpeedBlock); }),
        wb::measure_gpu(
            2, 9, [&] { launch_scale_rows_strided(in, scale, d_out.get(), kSpeedRows, kSpeedCols, kSpeedBlock); })};
}

// The margin is wide: on an H100 the ratio is far above it, and only a kernel whose warp reads a
// column (or worse) falls below.
bool check_speed(const wb::DeviceInfo& device, std::uint64_t seed) {
    const double minimum_ratio = 2.0;
    const SpeedTimes times = time_speed_case(seed);
    const double yours = times.yours.median_ms, strided = times.strided.median_ms;
    const double bytes = 2.0 * kSpeedRows * kSpeedCols * sizeof(double);
    const double ratio = strided / yours;
    std::printf("  speed, %d x %d on %s, block 32x8: yours %.0f GB/s, the strided kernel %.0f GB/s: %.1fx\n",
                kSpeedRows, kSpeedCols, device.name.c_str(), wb::gb_per_s(bytes, yours), wb::gb_per_s(bytes, strided),
                ratio);
    if (ratio >= minimum_ratio) return true;
    std::printf("  FAILED: your kernel is right but only %.1fx faster than the strided one (at least %.0fx expected).\n"
                "  Which threads of a warp are neighbours, and which of their addresses are?\n",
                ratio, minimum_ratio);
    return false;
}

int run_check(const wb::Options& options) {
    const auto shapes =
        wb::rows_by_cols(options, {{1, 1}, {7, 1000}, {1000, 7}, {515, 4099}, {2048, 2048}}, "matrix", "515x4099");
    std::vector<dim3> blocks = {dim3(32, 8), dim3(16, 16), dim3(8, 4)};
    if (!options.blocks.empty()) {
        blocks.clear();
        for (const wb::Block2& b : options.blocks) blocks.emplace_back(b.x, b.y);
    }
    const wb::DeviceInfo device = wb::require_gpu();
    for (const dim3& block : blocks) wb::require_block_fits(device, block);
    std::printf("%s, coalescing: out = in * row_scale[row] on %s (seed %llu)\n", wb::lesson_heading(),
                device.name.c_str(), static_cast<unsigned long long>(options.seed));
    wb::CheckTally tally(kProgram);
    for (const wb::RowsCols& shape : shapes) {
        wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), shape.rows, shape.cols), "the matrices");
        const Matrix m = random_matrix(shape, options.seed + shape.rows * 31 + shape.cols);
        for (const dim3& block : blocks) tally.record(check_shape(m, block));
    }
    // Speed only counts for a right answer, and never under compute-sanitizer (--no-speed).
    if (!tally.failed() && !options.has("no-speed")) tally.record(check_speed(device, options.seed));
    return tally.finish("every element is right, and a warp reads neighbouring addresses");
}

// ---- bench ----------------------------------------------------------------------------------
// 32-byte sectors one warp's 32 loads of `in` touch, for a block `width` threads wide (at most
// 32) over aligned rows: 32/width rows of `width` doubles each.
int sectors_per_request(int width) {
    const int rows_per_warp = 32 / width;
    const int sectors_per_row = (width * 8 + 31) / 32;
    return rows_per_warp * sectors_per_row;
}

// The fields shared by rows of scale_rows on n_rows x n_cols; returns the bytes a launch moves.
double set_scale_rows_fields(wb::BenchRows& rows, int n_rows, int n_cols) {
    const double bytes = 2.0 * n_rows * n_cols * sizeof(double);
    rows.shared().shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    rows.shared().n = n_cols;
    rows.shared().rate_unit = "GB/s";
    rows.shared().flops = static_cast<double>(n_rows) * n_cols;  // one multiplication per element
    rows.shared().dram_bytes = bytes + 8.0 * n_rows;             // in read, out written, row_scale read
    return bytes;
}

void bench_coalescing(wb::BenchRows& rows, int n_rows, int n_cols, int repeats, std::uint64_t seed) {
    const Matrix m = random_matrix({n_rows, n_cols}, seed);
    wb::DeviceBuffer<double> d_in(m.in), d_scale(m.row_scale), d_out(m.in.size());
    const double bytes = set_scale_rows_fields(rows, n_rows, n_cols);
    std::printf("  threads along x -> 32-byte sectors per warp load (model, aligned rows):\n");
    for (const dim3 block : {dim3(32, 8), dim3(16, 16), dim3(8, 32), dim3(4, 64), dim3(2, 128), dim3(1, 256)}) {
        const wb::TimingStats t = wb::measure_gpu(
            2, repeats, [&] { launch_scale_rows(d_in.get(), d_scale.get(), d_out.get(), n_rows, n_cols, block); });
        const std::string label = std::to_string(block.x) + "x" + std::to_string(block.y);
        std::printf("    block %-6s x = %2u threads: %2d sectors per load\n", label.c_str(), block.x,
                    sectors_per_request(block.x));
        rows.write("coalesced", label, t, wb::gb_per_s(bytes, t.median_ms));
    }
    const dim3 strided_block(32, 8);
    const wb::TimingStats t = wb::measure_gpu(2, repeats, [&] {
        launch_scale_rows_strided(d_in.get(), d_scale.get(), d_out.get(), n_rows, n_cols, strided_block);
    });
    rows.write("strided", "32x8", t, wb::gb_per_s(bytes, t.median_ms));
}

// The speed check's own case, as the check times it, so that the page can quote its ratio.
void bench_speed_case(wb::BenchRows& rows, std::uint64_t seed) {
    const SpeedTimes times = time_speed_case(seed);
    const double bytes = set_scale_rows_fields(rows, kSpeedRows, kSpeedCols);
    const std::string block = std::to_string(kSpeedBlock.x) + "x" + std::to_string(kSpeedBlock.y);
    rows.write("check-coalesced", block, times.yours, wb::gb_per_s(bytes, times.yours.median_ms));
    rows.write("check-strided", block, times.strided, wb::gb_per_s(bytes, times.strided.median_ms));
}

void bench_divergence(wb::BenchRows& rows, int repeats, std::uint64_t seed) {
    const long long count = 1LL << 24;
    const int work = 512;
    std::vector<double> x(count);
    wb::fill_random(x, seed);
    wb::DeviceBuffer<double> d_in(x), d_lane(count), d_warp(count);
    const int threads = 256;
    // count is a multiple of the block: branch_by_warp's pairs of warps are all whole.
    const int blocks = static_cast<int>((count + threads - 1) / threads);
    auto by_lane = [&] { launch_branch_by_lane(d_in.get(), d_lane.get(), count, work, blocks, threads); };
    auto by_warp = [&] { launch_branch_by_warp(d_in.get(), d_warp.get(), count, work, blocks, threads); };
    const wb::TimingStats lane = wb::measure_gpu(2, repeats, by_lane);
    const wb::TimingStats warp = wb::measure_gpu(2, repeats, by_warp);
    if (d_lane.to_host() != d_warp.to_host()) {
        std::printf("  branch_by_lane and branch_by_warp disagree: the benchmark itself is wrong\n");
        std::exit(wb::kExitCheckFailed);
    }
    const double flops = 2.0 * work * count;
    rows.shared().shape = std::to_string(count) + "/work" + std::to_string(work);
    rows.shared().n = count;
    rows.shared().rate_unit = "GFLOP/s";
    rows.shared().flops = flops;
    rows.shared().dram_bytes = 16.0 * count;  // in read, out written
    rows.shared().baseline = "branch-by-lane";
    rows.shared().baseline_ms = lane.median_ms;
    rows.write("branch-by-lane", "256", lane, flops / (lane.median_ms * 1e6));
    rows.write("branch-by-warp", "256", warp, flops / (warp.median_ms * 1e6));
}

int run_bench(const wb::Options& options, wb::BenchContext& bench) {
    const wb::RowsCols shape = wb::one_timed_shape(options, {8192, 8192}, "matrix", "matrix shape", 256, 40000);
    const int repeats = options.repeat;
    const wb::DeviceInfo device = wb::require_gpu();
    wb::require_device_memory(wb::checked_bytes(2 * sizeof(double), shape.rows, shape.cols), "the matrices");
    std::printf("%s coalescing benchmark on %s: kernels alone (no transfers), CUDA events, median of %d\n",
                wb::lesson_heading(), device.name.c_str(), repeats);
    const double copy_gbs = wb::measured_roofs().copy_gbs;  // the device copy of this run's roofs
    wb::CsvWriter& csv = bench.open_csv(device.name);
    wb::BenchRow shared;
    shared.lesson = kProgram;
    shared.precision = "double";
    shared.device = device.name;
    shared.ceiling = "copy";
    shared.ceiling_rate = copy_gbs;
    wb::BenchRows rows(csv, shared);
    bench_coalescing(rows, static_cast<int>(shape.rows), static_cast<int>(shape.cols), repeats, options.seed);
    bench_speed_case(rows, options.seed);

    // The divergence kernels are arithmetic: their ceiling is cuBLAS DGEMM's rate, same run.
    const int n = 4096;
    wb::DeviceBuffer<double> a(static_cast<std::size_t>(n) * n), b(static_cast<std::size_t>(n) * n),
        c(static_cast<std::size_t>(n) * n);
    a.zero();  // the values do not change the time
    b.zero();
    const wb::TimingStats dgemm = wb::time_cublas_gemm<double>(n, n, n, a.get(), b.get(), c.get(), 1, 5);
    rows.shared().ceiling = "cublas-dgemm";
    rows.shared().ceiling_rate = wb::gemm_gflops(n, n, n, dgemm.median_ms);
    bench_divergence(rows, repeats, options.seed);
    csv.finish();  // says "CSV written to FILE", or why it could not be written (exit 2)
    return wb::kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
    wb::LessonInfo info{kProgram,
                        "how a warp's threads read memory: coalesced, strided, divergent",
                        "matrix shapes RxC (rows x columns)",
                        {{"no-speed", "", "check the results only, not the speed (for compute-sanitizer)"}}};
    info.default_repeats = 10;
    info.sizes_most_in_check = 30000;
    return wb::lesson_main(argc, argv, info, run_check, run_bench);
}
