// Lesson 06 exercise, part 1: the monolithic version. One step is three kernels over global
// memory, one thread per cell: reset the outflows, compute them, update the thickness.
// Check your work with:  scripts/check 06-sciddicat   (rebuilds, then runs the check)
#include "sciddicat_gpu.h"

#include "wb/workbook.h"

namespace {

// Index of cell (i, j) in a row-major rows x cols grid; layer n of Sf starts at n * rows * cols.
__device__ inline long cell(int i, int j, int cols) { return static_cast<long>(i) * cols + j; }

// The active domain: every cell but the outermost ring.
__device__ inline bool active(int i, int j, int rows, int cols) {
    return i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1;
}

__global__ void reset_flows_kernel(double* sf, int rows, int cols) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;  // rows on y, columns on x:
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  // neighbouring threads, neighbouring doubles
    if (!active(i, j, rows, cols)) return;
    const long n = static_cast<long>(rows) * cols;
    for (int layer = 0; layer < 4; ++layer) sf[layer * n + cell(i, j, cols)] = 0.0;
}

__global__ void flows_kernel(const double* sz, const double* sh, double* sf, int rows, int cols) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (!active(i, j, rows, cols)) return;
    // >>> TODO 1: the four outflows of cell (i, j), stored in the four layers of sf
    //   The minimisation of differences needs the cell's own thickness and altitude and, for
    //   each of its four neighbours (north, west, east, south), the height of the surface
    //   there; the model library runs it (sciddicat/model.h). Its four results go to the
    //   cell's place in each of the four layers of sf, one layer per direction.
    (void)sz;
    (void)sh;
    (void)sf;
    // <<< TODO 1
}

__global__ void width_update_kernel(double* sh, const double* sf, int rows, int cols) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (!active(i, j, rows, cols)) return;
    // >>> TODO 2: the mass balance of cell (i, j): inflows from the neighbours minus outflows
    //   The new thickness is the old one plus what each neighbour sends towards this cell
    //   minus what this cell sends towards it, taken neighbour by neighbour in the order
    //   north, west, east, south (the serial program's order: the results must match it to
    //   the last bit). Reading only Sf and the cell's own Sh makes the in-place update safe.
    (void)sh;
    (void)sf;
    // <<< TODO 2
}

}  // namespace

void monolithic_step(const sciddicat::DeviceGrid& g, dim3 block) {
    const dim3 grid((g.cols + block.x - 1) / block.x, (g.rows + block.y - 1) / block.y);
    reset_flows_kernel<<<grid, block>>>(g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("reset_flows_kernel");
    flows_kernel<<<grid, block>>>(g.sz, g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("flows_kernel");
    width_update_kernel<<<grid, block>>>(g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("width_update_kernel");
}
