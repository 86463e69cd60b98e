// Lesson 06: the versions the learner does not write (grid-stride, shared memory without halo).
#include "sciddicat_gpu.h"

#include "sciddicat/cell_passes.h"

#include "wb/workbook.h"

namespace {

using sciddicat::in_active_domain;

// ---- Version 3: grid-stride loops (fewer threads than cells) ----
//
// Each thread starts at its own cell and strides by the size of the whole grid of threads, rows
// on y and columns on x, so that any grid covers every cell. What one cell does in each pass
// comes from the library (sciddicat/cell_passes.h): it is the monolithic version's work.

__device__ inline int first_row() { return blockIdx.y * blockDim.y + threadIdx.y; }
__device__ inline int first_col() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline int row_stride() { return blockDim.y * gridDim.y; }
__device__ inline int col_stride() { return blockDim.x * gridDim.x; }

__global__ void reset_stride_kernel(sciddicat::DeviceGrid g) {
    for (int i = first_row(); i < g.rows; i += row_stride())
        for (int j = first_col(); j < g.cols; j += col_stride())
            if (in_active_domain(i, j, g.rows, g.cols)) sciddicat::reset_cell_flows(g, i, j);
}

__global__ void flows_stride_kernel(sciddicat::DeviceGrid g) {
    for (int i = first_row(); i < g.rows; i += row_stride())
        for (int j = first_col(); j < g.cols; j += col_stride())
            if (in_active_domain(i, j, g.rows, g.cols)) sciddicat::compute_cell_flows(g, i, j);
}

__global__ void width_stride_kernel(sciddicat::DeviceGrid g) {
    for (int i = first_row(); i < g.rows; i += row_stride())
        for (int j = first_col(); j < g.cols; j += col_stride())
            if (in_active_domain(i, j, g.rows, g.cols)) sciddicat::update_cell_width(g, i, j);
}

// ---- Version 4: shared memory without halo ----

// Value of cell (i, j) of `grid`: from the shared tile when (i, j) belongs to the block, else
// from global memory.
__device__ inline double tile_or_global(const double* tile, const double* grid, int i, int j, int cols) {
    const int ty = i - static_cast<int>(blockIdx.y * blockDim.y);
    const int tx = j - static_cast<int>(blockIdx.x * blockDim.x);
    if (ty >= 0 && ty < static_cast<int>(blockDim.y) && tx >= 0 && tx < static_cast<int>(blockDim.x))
        return tile[ty * blockDim.x + tx];
    return grid[static_cast<long>(i) * cols + j];
}

__global__ void flows_no_halo_kernel(const double* sz, const double* sh, double* sf, int rows, int cols) {
    extern __shared__ double tiles[];
    const int slots = blockDim.x * blockDim.y;
    double* z = tiles;
    double* h = tiles + slots;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = threadIdx.y * blockDim.x + threadIdx.x;
    const bool inside = i < rows && j < cols;
    const long k = static_cast<long>(i) * cols + j;
    z[c] = inside ? sz[k] : 0.0;
    h[c] = inside ? sh[k] : 0.0;
    __syncthreads();
    if (!in_active_domain(i, j, rows, cols)) return;
    const double u[4] = {tile_or_global(z, sz, i - 1, j, cols) + tile_or_global(h, sh, i - 1, j, cols),
                         tile_or_global(z, sz, i, j - 1, cols) + tile_or_global(h, sh, i, j - 1, cols),
                         tile_or_global(z, sz, i, j + 1, cols) + tile_or_global(h, sh, i, j + 1, cols),
                         tile_or_global(z, sz, i + 1, j, cols) + tile_or_global(h, sh, i + 1, j, cols)};
    double flow[4];
    sciddicat::cell_outflows(h[c], z[c], u, flow);
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) sf[layer * n + k] = flow[layer];
}

__global__ void width_no_halo_kernel(double* sh, const double* sf, int rows, int cols) {
    extern __shared__ double tiles[];
    const int slots = blockDim.x * blockDim.y;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = threadIdx.y * blockDim.x + threadIdx.x;
    const long n = static_cast<long>(rows) * cols;
    const long k = static_cast<long>(i) * cols + j;
    const bool inside = i < rows && j < cols;
    for (int layer = 0; layer < 4; ++layer) tiles[layer * slots + c] = inside ? sf[layer * n + k] : 0.0;
    __syncthreads();
    if (!in_active_domain(i, j, rows, cols)) return;
    const double* north = tiles;
    const double* west = tiles + slots;
    const double* east = tiles + 2 * slots;
    const double* south = tiles + 3 * slots;
    double v = sh[k];
    v += tile_or_global(south, sf + 3 * n, i - 1, j, cols) - north[c];
    v += tile_or_global(east, sf + 2 * n, i, j - 1, cols) - west[c];
    v += tile_or_global(west, sf + n, i, j + 1, cols) - east[c];
    v += tile_or_global(north, sf, i + 1, j, cols) - south[c];
    sh[k] = v;
}

__global__ void reset_plain_kernel(double* sf, int rows, int cols) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (!in_active_domain(i, j, rows, cols)) return;
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) sf[layer * n + static_cast<long>(i) * cols + j] = 0.0;
}

// Blocks along one axis when each thread covers `cells_per_axis` cells along it.
unsigned blocks_for(int cells, unsigned block, int cells_per_axis) {
    const unsigned tiles = (cells + block - 1) / block;
    return (tiles + cells_per_axis - 1) / cells_per_axis;
}

}  // namespace

void grid_stride_step(const sciddicat::DeviceGrid& g, dim3 block, int cells_per_axis) {
    const dim3 grid(blocks_for(g.cols, block.x, cells_per_axis), blocks_for(g.rows, block.y, cells_per_axis));
    reset_stride_kernel<<<grid, block>>>(g);
    WB_CHECK_LAUNCH("reset_stride_kernel");
    flows_stride_kernel<<<grid, block>>>(g);
    WB_CHECK_LAUNCH("flows_stride_kernel");
    width_stride_kernel<<<grid, block>>>(g);
    WB_CHECK_LAUNCH("width_stride_kernel");
}

void shared_no_halo_step(const sciddicat::DeviceGrid& g, dim3 block) {
    const dim3 grid((g.cols + block.x - 1) / block.x, (g.rows + block.y - 1) / block.y);
    const std::size_t slots = static_cast<std::size_t>(block.x) * block.y;
    reset_plain_kernel<<<grid, block>>>(g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("reset_plain_kernel");
    flows_no_halo_kernel<<<grid, block, 2 * slots * sizeof(double)>>>(g.sz, g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("flows_no_halo_kernel");
    width_no_halo_kernel<<<grid, block, 4 * slots * sizeof(double)>>>(g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("width_no_halo_kernel");
}
