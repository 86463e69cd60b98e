// Lesson 04: what the check asks of approach 1's padded matrices beyond the product.
#include "harness/padded_checks.h"

#include "wb/workbook.h"

#include <cstdio>
#include <vector>

std::string case_name(const wb::MatmulShape& shape, int tile) {
    return shape.str() + " tile " + std::to_string(tile) + "x" + std::to_string(tile);
}

bool padded_is_usable(const PaddedProduct& d, const wb::MatmulShape& s, int tile) {
    const char* problem = nullptr;
    if (!d.a || !d.b || !d.c)
        problem = "upload_padded returned no device matrices (TODO 1-4)";
    else if (d.rows != wb::round_up(s.rows, tile) || d.inner != wb::round_up(s.inner, tile) ||
             d.cols != wb::round_up(s.cols, tile))
        problem = "the padded sizes must be n, m, p rounded up to the next multiples of the tile, no further (TODO 1)";
    else if (d.a_pitch < d.inner * sizeof(double) || d.b_pitch < d.cols * sizeof(double) ||
             d.c_pitch < d.cols * sizeof(double))
        problem = "a pitch is shorter than a padded row (TODO 2)";
    if (problem) std::printf("  padded %s: %s\n", case_name(s, tile).c_str(), problem);
    return problem == nullptr;
}

// The first element of a padded device matrix (rows x cols, `pitch` bytes a row) outside its real
// corner (real_rows x real_cols) that is not zero; false when there is one. The check's
// cudaMallocPitch fills new blocks with NaN (wb/watched_device_calls.h), so a missing
// zero-fill shows here by name, and in the product: padding enters the real corner's sums.
bool padding_is_zero(const double* device, std::size_t pitch, int rows, int cols, int real_rows, int real_cols,
                     const char* name) {
    std::vector<double> host(static_cast<std::size_t>(rows) * cols);
    WB_CUDA_CHECK(cudaMemcpy2D(host.data(), cols * sizeof(double), device, pitch, cols * sizeof(double), rows,
                               cudaMemcpyDeviceToHost));
    long wrong = 0, first = -1;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if ((r >= real_rows || c >= real_cols) && !(host[static_cast<std::size_t>(r) * cols + c] == 0.0)) {
                if (first < 0) first = static_cast<long>(r) * cols + c;
                ++wrong;
            }
    if (wrong)
        std::printf("  padded %s[%ld][%ld] = %g outside the real %d x %d corner: %ld padding elements are not zero "
                    "(TODO 3: zero-fill the padded matrices)\n",
                    name, first / cols, first % cols, host[first], real_rows, real_cols, wrong);
    return wrong == 0;
}

// After free_padded: every allocation made since `watch` began is freed, and the struct no longer
// points at freed memory (TODO 6).
bool freed_and_forgotten(const wb::DeviceCallWatch& watch, const PaddedProduct& d, const std::string& label) {
    const bool freed = wb::all_freed(watch, "upload_padded and free_padded", label);
    if (d.a || d.b || d.c) {
        std::printf("  %s: free_padded left pointers to freed memory in the struct (TODO 6: forget them too)\n",
                    label.c_str());
        return false;
    }
    return freed;
}
