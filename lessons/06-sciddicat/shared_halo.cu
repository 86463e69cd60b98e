// Lesson 06 exercise, part 2: shared memory with a halo. Each block copies its tile plus a
// one-cell border (the halo) into shared memory, so that no neighbour is read from global memory.
// Check your work with:  scripts/check 06-sciddicat   (rebuilds, then runs the check)
#include "sciddicat_gpu.h"

#include "sciddicat/cell_passes.h"
#include "wb/workbook.h"

namespace {

__device__ inline bool active(int i, int j, int rows, int cols) {
    return i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1;
}

// Copies grid cell (i, j) into slot (y, x) of a shared tile `width` slots wide; cells outside the
// grid read as 0 (they are never the neighbour of an active cell).
__device__ inline void load(double* tile, int width, int y, int x, const double* grid, int i, int j, int rows,
                            int cols) {
    const bool inside = i >= 0 && i < rows && j >= 0 && j < cols;
    tile[y * width + x] = inside ? grid[static_cast<long>(i) * cols + j] : 0.0;
}

// Loads the block's tile of `grid` with its halo: each thread copies its own cell (i, j) into
// slot (y, x) = (threadIdx.y + 1, threadIdx.x + 1), and the ring of cells around the block goes
// into the halo slots (row 0 and row blockDim.y + 1, column 0 and column blockDim.x + 1). Both
// kernels below load every tile they use with it.
__device__ inline void load_with_halo(double* tile, int width, int y, int x, const double* grid, int i, int j, int rows,
                                      int cols) {
    load(tile, width, y, x, grid, i, j, rows, cols);  // every thread: its own cell
    // >>> TODO 3: the threads on the tile's edges also load the halo cell just outside it
    //   Contract: when every thread of the block has returned from this function, the whole
    //   (blockDim.y + 2) x (blockDim.x + 2) tile holds the block's cells and the ring of cells
    //   around them (0 where the ring leaves the grid). The corners of the ring are not needed:
    //   the neighbourhood has no diagonals. Which threads sit next to each side of the ring?
    // <<< TODO 3
}

__global__ void reset_flows_kernel(double* sf, int rows, int cols) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (!active(i, j, rows, cols)) return;
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) sf[layer * n + static_cast<long>(i) * cols + j] = 0.0;
}

// Shared layout: Sz tile then Sh tile, each (blockDim.y + 2) x (blockDim.x + 2); the block's
// own cells sit at (ty + 1, tx + 1).
__global__ void flows_halo_kernel(const double* sz, const double* sh, double* sf, int rows, int cols) {
    extern __shared__ double tiles[];
    const int width = blockDim.x + 2;
    double* z = tiles;
    double* h = tiles + width * (blockDim.y + 2);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * blockDim.y + ty;
    const int j = blockIdx.x * blockDim.x + tx;
    const int y = ty + 1, x = tx + 1;

    // Every thread loads its own cell (even threads outside the grid: they load 0), and the
    // threads on the tile's edges the halo.
    load_with_halo(z, width, y, x, sz, i, j, rows, cols);
    load_with_halo(h, width, y, x, sh, i, j, rows, cols);
    __syncthreads();  // the whole tile is loaded before anyone reads a neighbour

    if (!active(i, j, rows, cols)) return;
    const int c = y * width + x;
    const double u[4] = {z[c - width] + h[c - width], z[c - 1] + h[c - 1], z[c + 1] + h[c + 1],
                         z[c + width] + h[c + width]};
    double flow[4];
    sciddicat::cell_outflows(h[c], z[c], u, flow);
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) sf[layer * n + static_cast<long>(i) * cols + j] = flow[layer];
}

// The same pattern for the four outflow layers: tile plus halo of each layer in shared memory.
__global__ void width_update_halo_kernel(double* sh, const double* sf, int rows, int cols) {
    extern __shared__ double tiles[];
    const int width = blockDim.x + 2;
    const int layer_slots = width * (blockDim.y + 2);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * blockDim.y + ty;
    const int j = blockIdx.x * blockDim.x + tx;
    const int y = ty + 1, x = tx + 1;
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) {
        double* tile = tiles + layer * layer_slots;
        load_with_halo(tile, width, y, x, sf + layer * n, i, j, rows, cols);
    }
    __syncthreads();

    if (!active(i, j, rows, cols)) return;
    const double* north = tiles;
    const double* west = tiles + layer_slots;
    const double* east = tiles + 2 * layer_slots;
    const double* south = tiles + 3 * layer_slots;
    const int c = y * width + x;
    const long k = static_cast<long>(i) * cols + j;
    sh[k] = sciddicat::cell_mass_balance(sh[k], north, west, east, south, c, width);
}

}  // namespace

std::size_t shared_halo_bytes(dim3 block) { return 4 * sizeof(double) * (block.x + 2) * (block.y + 2); }

void shared_halo_step(const sciddicat::DeviceGrid& g, dim3 block) {
    const dim3 grid((g.cols + block.x - 1) / block.x, (g.rows + block.y - 1) / block.y);
    const std::size_t flows_bytes = 2 * sizeof(double) * (block.x + 2) * (block.y + 2);
    reset_flows_kernel<<<grid, block>>>(g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("reset_flows_kernel (shared-halo)");
    flows_halo_kernel<<<grid, block, flows_bytes>>>(g.sz, g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("flows_halo_kernel");
    width_update_halo_kernel<<<grid, block, shared_halo_bytes(block)>>>(g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("width_update_halo_kernel");
}
