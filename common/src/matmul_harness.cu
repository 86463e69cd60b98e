#include "wb/matmul_harness.h"

#include "wb/exit_codes.h"
#include "wb/random.h"
#include "wb/rates.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>

namespace wb {

std::string MatmulShape::str() const {
    return std::to_string(rows) + "x" + std::to_string(inner) + "x" + std::to_string(cols);
}

std::vector<MatmulShape> square_shapes(const std::vector<long>& orders) {
    std::vector<MatmulShape> shapes;
    for (long n : orders) shapes.push_back({n, n, n});
    return shapes;
}

std::vector<int> square_tiles(const Options& options, const std::vector<int>& fallback,
                              const std::vector<int>& compiled) {
    if (options.blocks.empty()) return fallback;
    std::string widths;  // "2, 4, 8, 16, 32"
    for (int width : compiled) widths += (widths.empty() ? "" : ", ") + std::to_string(width);
    std::vector<int> tiles;
    for (const Block2& block : options.blocks) {
        if (block.x != block.y || std::find(compiled.begin(), compiled.end(), block.x) == compiled.end())
            usage_error("--block: tile " + block.str() + " is not one of " + widths + " (square tiles only)");
        tiles.push_back(block.x);
    }
    return tiles;
}

std::vector<MatmulShape> matmul_shapes(const Options& options, const std::vector<MatmulShape>& fallback,
                                       bool square_only) {
    if (options.sizes.empty()) return fallback;
    std::vector<MatmulShape> shapes;
    for (const auto& dims : options.sizes) {
        MatmulShape shape;
        if (dims.size() == 1) {
            shape = {dims[0], dims[0], dims[0]};
        } else if (dims.size() == 3) {
            shape = {dims[0], dims[1], dims[2]};
        } else {
            usage_error("--sizes: give N (an N x N product) or NxMxP (A is N x M, B is M x P)");
        }
        if (square_only && !shape.square())
            usage_error("--sizes: " + shape.str() +
                        " is not square; this lesson multiplies N x N matrices "
                        "(non-square shapes come in the non-square matmul lesson)");
        // The kernels take int dimensions; index arithmetic is 64-bit, so only the sides are limited.
        if (shape.rows > 2147483647L || shape.inner > 2147483647L || shape.cols > 2147483647L)
            usage_error("--sizes: " + shape.str() + ": a side is larger than 2^31 - 1");
        matmul_bytes(shape, sizeof(double));  // exits when the sizes overflow
        shapes.push_back(shape);
    }
    return shapes;
}

std::size_t matmul_bytes(const MatmulShape& shape, std::size_t element_size) {
    const std::size_t a = checked_bytes(element_size, shape.rows, shape.inner);
    const std::size_t b = checked_bytes(element_size, shape.inner, shape.cols);
    const std::size_t c = checked_bytes(element_size, shape.rows, shape.cols);
    const std::size_t limit = static_cast<std::size_t>(-1);
    if (a > limit - b || a + b > limit - c)
        usage_error("--sizes: " + shape.str() + ": the three matrices overflow the addressable memory");
    return a + b + c;
}

void require_grid_fits(const DeviceInfo& info, dim3 grid) {
    if (static_cast<long>(grid.x) <= info.max_grid_dim[0] && static_cast<long>(grid.y) <= info.max_grid_dim[1] &&
        static_cast<long>(grid.z) <= info.max_grid_dim[2])
        return;
    std::fprintf(stderr, "error: grid %ux%ux%u exceeds the device's limit %dx%dx%d: use a larger block\n", grid.x,
                 grid.y, grid.z, info.max_grid_dim[0], info.max_grid_dim[1], info.max_grid_dim[2]);
    std::exit(kExitUsage);
}

template <>
const char* precision_name<float>() {
    return "float";
}
template <>
const char* precision_name<double>() {
    return "double";
}

// A problem of this shape with A and B allocated, their values still to be set.
template <class T>
MatmulProblem<T> sized_problem(const MatmulShape& shape) {
    MatmulProblem<T> problem;
    problem.shape = shape;
    problem.a.resize(static_cast<std::size_t>(shape.rows) * shape.inner);
    problem.b.resize(static_cast<std::size_t>(shape.inner) * shape.cols);
    return problem;
}

template <class T>
MatmulProblem<T> random_problem(const MatmulShape& shape, std::uint64_t seed) {
    MatmulProblem<T> problem = sized_problem<T>(shape);
    fill_random(problem.a, seed);
    fill_random(problem.b, seed + 1);
    return problem;
}

template <class T>
MatmulProblem<T> small_integer_problem(const MatmulShape& shape, std::uint64_t seed) {
    MatmulProblem<T> problem = sized_problem<T>(shape);
    fill_random_integers(problem.a, seed, -2, 2);
    fill_random_integers(problem.b, seed + 1, -2, 2);
    return problem;
}

template <class T>
MatmulProblem<T> closed_form_problem(const MatmulShape& shape) {
    MatmulProblem<T> problem = sized_problem<T>(shape);
    for (long i = 0; i < shape.rows; ++i)
        for (long j = 0; j < shape.inner; ++j) problem.a[i * shape.inner + j] = static_cast<T>(j);
    for (long i = 0; i < shape.inner; ++i)
        for (long j = 0; j < shape.cols; ++j) problem.b[i * shape.cols + j] = static_cast<T>(j);
    return problem;
}

template <class T>
void compute_reference(MatmulProblem<T>& problem) {
    const MatmulShape& s = problem.shape;
    const std::size_t count = static_cast<std::size_t>(s.rows) * s.cols;
    problem.expected.assign(count, 0.0);
    problem.scale.assign(count, 0.0);
    // i-k-j order (lesson 01): one row of long double sums and magnitudes at a time.
    std::vector<long double> sum(s.cols), magnitude(s.cols);
    for (long i = 0; i < s.rows; ++i) {
        std::fill(sum.begin(), sum.end(), 0.0L);
        std::fill(magnitude.begin(), magnitude.end(), 0.0L);
        for (long k = 0; k < s.inner; ++k) {
            const long double a_ik = problem.a[i * s.inner + k];
            const T* b_row = problem.b.data() + k * s.cols;
            for (long j = 0; j < s.cols; ++j) {
                const long double term = a_ik * static_cast<long double>(b_row[j]);
                sum[j] += term;
                magnitude[j] += term < 0 ? -term : term;
            }
        }
        for (long j = 0; j < s.cols; ++j) {
            problem.expected[i * s.cols + j] = static_cast<double>(sum[j]);
            problem.scale[i * s.cols + j] = static_cast<double>(magnitude[j]);
        }
    }
}

template <class T>
bool check_product(const MatmulProblem<T>& problem, const std::vector<T>& got, const std::string& label) {
    const MatmulShape& s = problem.shape;
    const long count = s.rows * s.cols;
    const CompareReport report =
        compare(got.data(), problem.expected.data(), count, summation_tolerance<T>(s.inner), problem.scale.data());
    std::printf("  %s: ", label.c_str());
    print_report(report, "C", s.cols);
    return report.ok();
}

template MatmulProblem<float> random_problem<float>(const MatmulShape&, std::uint64_t);
template MatmulProblem<double> random_problem<double>(const MatmulShape&, std::uint64_t);
template MatmulProblem<double> small_integer_problem<double>(const MatmulShape&, std::uint64_t);
template MatmulProblem<float> closed_form_problem<float>(const MatmulShape&);
template MatmulProblem<double> closed_form_problem<double>(const MatmulShape&);
template void compute_reference<float>(MatmulProblem<float>&);
template void compute_reference<double>(MatmulProblem<double>&);
template bool check_product<float>(const MatmulProblem<float>&, const std::vector<float>&, const std::string&);
template bool check_product<double>(const MatmulProblem<double>&, const std::vector<double>&, const std::string&);

}  // namespace wb
