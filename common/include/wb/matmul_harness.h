/// @file matmul_harness.h
/// @brief What every matrix-product lesson shares: shapes, random problems with a long double
/// reference, the check, device buffers, size validation and the cuBLAS ceiling.
///
/// Shapes follow the course's convention C (rows x cols) = A (rows x inner) * B (inner x cols),
/// all row-major; on the command line `--sizes N` means N x N x N and `--sizes NxMxP` means
/// A is N x M and B is M x P.
#pragma once

#include "wb/args.h"
#include "wb/ceil_div.h"
#include "wb/compare.h"
#include "wb/csv.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/device_buffer.h"
#include "wb/lesson.h"
#include "wb/timer.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb {

/// Shape of C (rows x cols) = A (rows x inner) * B (inner x cols).
struct MatmulShape {
    long rows = 0;   ///< rows of A and C (n)
    long inner = 0;  ///< columns of A, rows of B (m): the length of each dot product
    long cols = 0;   ///< columns of B and C (p)
    /// e.g. "61x37x53" (rows x inner x cols).
    std::string str() const;
    /// True when rows == inner == cols.
    bool square() const { return rows == inner && inner == cols; }
    /// 2 * rows * inner * cols: the floating-point operations of the product.
    double flops() const { return 2.0 * static_cast<double>(rows) * inner * cols; }
    /// GFLOP/s of the product done in `ms` milliseconds (1 GFLOP = 1e9 operations).
    double gflops(double ms) const { return flops() / (ms * 1e-3) / 1e9; }
};

/// N x N x N shapes of the given orders (the default --sizes of a square lesson).
std::vector<MatmulShape> square_shapes(const std::vector<long>& orders);

/// The shapes of --sizes (or `fallback` when it is absent). With `square_only`, an item must be
/// N (or NxNxN); otherwise N or NxMxP. Sizes whose matrices would overflow the address space
/// are a usage error (exit 2), reported before any memory is touched.
std::vector<MatmulShape> matmul_shapes(const Options& options, const std::vector<MatmulShape>& fallback,
                                       bool square_only);

/// The tile widths of --block (or `fallback` when it is absent) for a kernel compiled for
/// square tiles of the widths in `compiled`: each item must be one of them, as "16" or "16x16";
/// any other is a usage error that names the compiled widths.
std::vector<int> square_tiles(const Options& options, const std::vector<int>& fallback,
                              const std::vector<int>& compiled);

/// Bytes of A, B and C together for elements of `element_size` bytes; exits with a usage error
/// when the sum overflows.
std::size_t matmul_bytes(const MatmulShape& shape, std::size_t element_size);

/// Exits with a clear message (exit 2) when the grid exceeds the device's grid limits.
void require_grid_fits(const DeviceInfo& info, dim3 grid);

/// Number of blocks of `block` threads that cover `count` elements.
inline unsigned blocks_for(long count, int block) { return static_cast<unsigned>(ceil_div<long>(count, block)); }

/// Rounds `count` up to a multiple of `multiple`.
inline long round_up(long count, long multiple) { return ceil_div(count, multiple) * multiple; }

/// `shape` with each side rounded up to a multiple of `multiple` (the matrices padded to whole tiles).
inline MatmulShape padded_shape(const MatmulShape& shape, long multiple) {
    return {round_up(shape.rows, multiple), round_up(shape.inner, multiple), round_up(shape.cols, multiple)};
}

/// "float" or "double".
template <class T>
const char* precision_name();

/// A product to check or time: random inputs in [-1, 1) and, when asked for, the exact
/// product (long double sums) and each element's scale sum_k |a_ik * b_kj|.
template <class T>
struct MatmulProblem {
    MatmulShape shape;             ///< the shape
    std::vector<T> a;              ///< rows x inner, row-major
    std::vector<T> b;              ///< inner x cols, row-major
    std::vector<double> expected;  ///< rows x cols, empty until compute_reference()
    std::vector<double> scale;     ///< rows x cols, sum of |a_ik * b_kj|
};

/// Random inputs (seed for A, seed + 1 for B).
template <class T>
MatmulProblem<T> random_problem(const MatmulShape& shape, std::uint64_t seed);

/// Inputs that are whole numbers in [-2, 2] (seed for A, seed + 1 for B): the same arithmetic
/// as random_problem, but far fewer bits change from one operand to the next, so the
/// arithmetic units draw less power (lesson 07's benchmark shows what that does to the clock).
template <class T>
MatmulProblem<T> small_integer_problem(const MatmulShape& shape, std::uint64_t seed);

/// The closed form of the course notebook: a[i][j] = j and b[i][j] = j, so every product is a
/// small integer and the expected C is exact.
template <class T>
MatmulProblem<T> closed_form_problem(const MatmulShape& shape);

/// Fills problem.expected and problem.scale on the CPU in long double.
template <class T>
void compute_reference(MatmulProblem<T>& problem);

/// Compares `got` (rows x cols) with the reference using the rounding bound of an
/// `inner`-term sum in precision T (wb::summation_tolerance), prints one line starting with
/// `label`, and returns true when every element is within it.
template <class T>
bool check_product(const MatmulProblem<T>& problem, const std::vector<T>& got, const std::string& label);

/// A square problem's A and B on the device, zero-padded to order round_up(n, multiple), and a
/// C of that order: for kernels that need n to be a multiple of their tile. The zeros add
/// nothing to any dot product, so the n x n corner of the padded C is A * B.
template <class T>
struct PaddedSquare {
    int order;          ///< n
    int padded;         ///< n rounded up to the multiple
    DeviceBuffer<T> a;  ///< A, zero-padded to padded x padded
    DeviceBuffer<T> b;  ///< B, zero-padded to padded x padded
    DeviceBuffer<T> c;  ///< the padded product; its n x n corner is A * B

    /// Uploads `problem`'s A and B into zeroed buffers of order round_up(n, multiple).
    PaddedSquare(const MatmulProblem<T>& problem, int multiple)
        : order(static_cast<int>(problem.shape.rows)),
          padded(static_cast<int>(round_up(order, multiple))),
          a(count()),
          b(count()),
          c(count()) {
        a.zero();
        b.zero();
        copy_in(a.get(), problem.a.data());
        copy_in(b.get(), problem.b.data());
    }
    /// Elements of each padded matrix.
    std::size_t count() const { return static_cast<std::size_t>(padded) * padded; }
    /// Copies the n x n corner of C into `host` (n x n).
    void copy_out(T* host) const {
        WB_CUDA_CHECK(cudaMemcpy2D(host, order * sizeof(T), c.get(), padded * sizeof(T), order * sizeof(T), order,
                                   cudaMemcpyDeviceToHost));
    }

private:
    void copy_in(T* device, const T* host) {
        WB_CUDA_CHECK(cudaMemcpy2D(device, padded * sizeof(T), host, order * sizeof(T), order * sizeof(T), order,
                                   cudaMemcpyHostToDevice));
    }
};

/// cuBLAS GEMM on the shape, measured in the same run as the lesson's kernels: the ceiling
/// every row of a matrix-product benchmark is compared with.
struct GemmCeiling {
    std::string name;     ///< "cublas-dgemm" or "cublas-sgemm"
    TimingStats time;     ///< kernel time, no transfers
    double gflops = 0.0;  ///< 2 rows inner cols / median time
};

/// Times cuBLAS on random inputs of `shape` (device buffers of its own) and writes no CSV row.
/// Defined in the workbook_ceilings library (it needs cuBLAS).
template <class T>
GemmCeiling measure_cublas(const MatmulShape& shape, std::uint64_t seed, int warmup, int repeats);

/// Fills problem.expected and problem.scale with cuBLAS on the GPU, for products too large for
/// the CPU reference: expected = A * B and scale = |A| * |B|, both rounded in precision T, so a
/// kernel is compared with the bound of two summations (summation_tolerance<T>(2 * inner)).
/// `d_a` and `d_b` hold problem.a and problem.b on the device; three more matrices of the
/// product's sizes are allocated meanwhile. Defined in the workbook_ceilings library.
template <class T>
void compute_reference_cublas(MatmulProblem<T>& problem, const T* d_a, const T* d_b);

/// The fields every benchmark row of a product at `shape` shares (for wb::BenchRows): lesson,
/// precision (as the CSV names it), shape, n = its rows, GFLOP/s, `ceiling` measured at that
/// shape, device, and the work for the roofline: 2 rows inner cols flops and `dram_bytes`, the
/// bytes of reading A and B and writing C once.
inline BenchRow gemm_bench_fields(const std::string& lesson, const std::string& precision, const MatmulShape& shape,
                                  const GemmCeiling& ceiling, const std::string& device, double dram_bytes) {
    BenchRow row;
    row.lesson = lesson;
    row.precision = precision;
    row.shape = shape.str();
    row.n = shape.rows;
    row.rate_unit = "GFLOP/s";
    row.ceiling = ceiling.name;
    row.ceiling_rate = ceiling.gflops;
    row.device = device;
    row.flops = shape.flops();
    row.dram_bytes = dram_bytes;
    return row;
}

/// The same for a product whose three matrices all hold T.
template <class T>
BenchRow gemm_bench_fields(const std::string& lesson, const MatmulShape& shape, const GemmCeiling& ceiling,
                           const std::string& device) {
    return gemm_bench_fields(lesson, precision_name<T>(), shape, ceiling, device,
                             static_cast<double>(matmul_bytes(shape, sizeof(T))));
}

/// Writes cuBLAS's own row. cuBLAS DGEMM runs on the FP64 tensor cores where the GPU has them
/// (it outruns the FMA roof), so its roof is theirs.
inline void write_cublas_row(BenchRows& rows, const GemmCeiling& ceiling) {
    BenchRow row = rows.shared();
    row.kernel = ceiling.name;
    row.time = ceiling.time;
    row.rate = ceiling.gflops;
    row.tensor_cores = row.precision == "double";
    rows.write(row);
}

/// How a product benchmark begins each shape: cuBLAS measured at `shape` (the ceiling, after two
/// warm-up runs), the rows' shared fields, `adjust` for fields of the lesson's own (a baseline),
/// then cuBLAS's row written. Returns the rows for the lesson's kernels at that shape.
template <class T>
BenchRows begin_gemm_shape(CsvWriter& csv, const std::string& lesson, const MatmulShape& shape, std::uint64_t seed,
                           int repeats, const std::string& device,
                           const std::function<void(const GemmCeiling&, BenchRow&)>& adjust = {}) {
    const GemmCeiling cublas = measure_cublas<T>(shape, seed, 2, repeats);
    BenchRows rows(csv, gemm_bench_fields<T>(lesson, shape, cublas, device));
    if (adjust) adjust(cublas, rows.shared());
    write_cublas_row(rows, cublas);
    return rows;
}

}  // namespace wb
