// Lesson 06: the versions the learner does not write (grid-stride, shared memory without halo).
#include "sciddicat_gpu.h"

#include "wb/workbook.h"

namespace {

using sciddicat::in_active_domain;

// ---- Version 3: grid-stride loops (fewer threads than cells) ----

__global__ void reset_stride_kernel(double* sf, int rows, int cols) {
    const long n = static_cast<long>(rows) * cols;
    for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows; i += blockDim.y * gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += blockDim.x * gridDim.x) {
            if (!in_active_domain(i, j, rows, cols)) continue;
            for (int layer = 0; layer < 4; ++layer) sf[layer * n + static_cast<long>(i) * cols + j] = 0.0;
        }
}

__global__ void flows_stride_kernel(const double* sz, const double* sh, double* sf, int rows, int cols) {
    const long n = static_cast<long>(rows) * cols;
    for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows; i += blockDim.y * gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += blockDim.x * gridDim.x) {
            if (!in_active_domain(i, j, rows, cols)) continue;
            const long k = static_cast<long>(i) * cols + j;
            const double u[4] = {sz[k - cols] + sh[k - cols], sz[k - 1] + sh[k - 1], sz[k + 1] + sh[k + 1],
                                 sz[k + cols] + sh[k + cols]};
            double flow[4];
            sciddicat::cell_outflows(sh[k], sz[k], u, flow);
            for (int layer = 0; layer < 4; ++layer) sf[layer * n + k] = flow[layer];
        }
}

__global__ void width_stride_kernel(double* sh, const double* sf, int rows, int cols) {
    const long n = static_cast<long>(rows) * cols;
    for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows; i += blockDim.y * gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += blockDim.x * gridDim.x) {
            if (!in_active_domain(i, j, rows, cols)) continue;
            const long k = static_cast<long>(i) * cols + j;
            double h = sh[k];
            h += sf[3 * n + k - cols] - sf[k];
            h += sf[2 * n + k - 1] - sf[n + k];
            h += sf[n + k + 1] - sf[2 * n + k];
            h += sf[k + cols] - sf[3 * n + k];
            sh[k] = h;
        }
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

unsigned blocks_for(int cells, unsigned block, int iters) {
    const unsigned tiles = (cells + block - 1) / block;
    return (tiles + iters - 1) / iters;
}

}  // namespace

void grid_stride_step(const GpuGrid& g, dim3 block, int iters) {
    const dim3 grid(blocks_for(g.cols, block.x, iters), blocks_for(g.rows, block.y, iters));
    reset_stride_kernel<<<grid, block>>>(g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("reset_stride_kernel");
    flows_stride_kernel<<<grid, block>>>(g.sz, g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("flows_stride_kernel");
    width_stride_kernel<<<grid, block>>>(g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("width_stride_kernel");
}

void shared_no_halo_step(const GpuGrid& g, dim3 block) {
    const dim3 grid((g.cols + block.x - 1) / block.x, (g.rows + block.y - 1) / block.y);
    const std::size_t slots = static_cast<std::size_t>(block.x) * block.y;
    reset_plain_kernel<<<grid, block>>>(g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("reset_plain_kernel");
    flows_no_halo_kernel<<<grid, block, 2 * slots * sizeof(double)>>>(g.sz, g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("flows_no_halo_kernel");
    width_no_halo_kernel<<<grid, block, 4 * slots * sizeof(double)>>>(g.sh, g.sf, g.rows, g.cols);
    WB_CHECK_LAUNCH("width_no_halo_kernel");
}

// ---- Going further: several steps per kernel (temporal blocking in shared memory) ----
//
// A block loads its TX x TY tile plus a border of 2K cells, then runs up to K steps entirely
// in shared memory: after step s only the cells at least 2(s+1) away from the region's edge
// are still exact, so the exact part shrinks by two cells per step and the tile itself is
// exact after K steps. Cells near the edge are computed redundantly by neighbouring blocks;
// in exchange there is one launch, one global read and one global write per K steps.

namespace {

template <int TX, int TY, int K>
__global__ void multistep_kernel(const double* sz, const double* sh_in, double* sh_out, int rows, int cols, int steps) {
    constexpr int kHalo = 2 * K, kRX = TX + 2 * kHalo, kRY = TY + 2 * kHalo, kCells = kRX * kRY;
    extern __shared__ double region[];
    double* z = region;
    double* h = z + kCells;
    double* f = h + kCells;  // four layers of kCells: north, west, east, south
    const int thread = threadIdx.y * TX + threadIdx.x;
    const int row0 = blockIdx.y * TY - kHalo, col0 = blockIdx.x * TX - kHalo;
    for (int t = thread; t < kCells; t += TX * TY) {
        const int i = row0 + t / kRX, j = col0 + t % kRX;
        const bool inside = i >= 0 && i < rows && j >= 0 && j < cols;
        z[t] = inside ? sz[static_cast<long>(i) * cols + j] : 0.0;
        h[t] = inside ? sh_in[static_cast<long>(i) * cols + j] : 0.0;
    }
    __syncthreads();
    for (int s = 0; s < steps; ++s) {
        const int mf = 1 + 2 * s, mu = 2 + 2 * s;  // margins of the exact flows and thicknesses
        const int fw = kRX - 2 * mf, fh = kRY - 2 * mf;
        for (int t = thread; t < fw * fh; t += TX * TY) {
            const int ly = mf + t / fw, lx = mf + t % fw, c = ly * kRX + lx;
            double flow[4] = {0.0, 0.0, 0.0, 0.0};
            if (in_active_domain(row0 + ly, col0 + lx, rows, cols)) {
                const double u[4] = {z[c - kRX] + h[c - kRX], z[c - 1] + h[c - 1], z[c + 1] + h[c + 1],
                                     z[c + kRX] + h[c + kRX]};
                sciddicat::cell_outflows(h[c], z[c], u, flow);
            }
            for (int n = 0; n < 4; ++n) f[n * kCells + c] = flow[n];
        }
        __syncthreads();
        const int uw = kRX - 2 * mu, uh = kRY - 2 * mu;
        for (int t = thread; t < uw * uh; t += TX * TY) {
            const int ly = mu + t / uw, lx = mu + t % uw, c = ly * kRX + lx;
            if (!in_active_domain(row0 + ly, col0 + lx, rows, cols)) continue;
            const double* north = f;
            const double* west = f + kCells;
            const double* east = f + 2 * kCells;
            const double* south = f + 3 * kCells;
            double v = h[c];
            v += south[c - kRX] - north[c];
            v += east[c - 1] - west[c];
            v += west[c + 1] - east[c];
            v += north[c + kRX] - south[c];
            h[c] = v;
        }
        __syncthreads();
    }
    const int i = blockIdx.y * TY + threadIdx.y, j = blockIdx.x * TX + threadIdx.x;
    if (i < rows && j < cols) sh_out[static_cast<long>(i) * cols + j] = h[(threadIdx.y + kHalo) * kRX + threadIdx.x + kHalo];
}

template <int TX, int TY, int K>
void launch_multistep(const GpuGrid& g, const double* in, double* out, int steps, cudaStream_t stream) {
    constexpr int kCells = (TX + 4 * K) * (TY + 4 * K);
    constexpr std::size_t kBytes = 6 * sizeof(double) * kCells;
    static bool configured = false;
    if (!configured) {  // more than 48 KiB of shared memory must be requested explicitly
        WB_CUDA_CHECK(cudaFuncSetAttribute(multistep_kernel<TX, TY, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kBytes)));
        configured = true;
    }
    const dim3 grid((g.cols + TX - 1) / TX, (g.rows + TY - 1) / TY);
    multistep_kernel<TX, TY, K><<<grid, dim3(TX, TY), kBytes, stream>>>(g.sz, in, out, g.rows, g.cols, steps);
    WB_CHECK_LAUNCH("multistep_kernel");
}

}  // namespace

std::vector<MultistepShape> multistep_shapes() { return {{32, 16, 2}, {32, 16, 4}, {64, 16, 4}, {32, 8, 8}}; }

void multistep_launch(const GpuGrid& g, const MultistepShape& shape, const double* in, double* out, int steps,
                      cudaStream_t stream) {
    const int key = shape.tile_x * 10000 + shape.tile_y * 100 + shape.k;
    switch (key) {
        case 321602: launch_multistep<32, 16, 2>(g, in, out, steps, stream); break;
        case 321604: launch_multistep<32, 16, 4>(g, in, out, steps, stream); break;
        case 641604: launch_multistep<64, 16, 4>(g, in, out, steps, stream); break;
        case 320808: launch_multistep<32, 8, 8>(g, in, out, steps, stream); break;
        default: wb::usage_error("multistep: no kernel for this tile and K");
    }
}
