// Lesson 06, going further: several steps per launch, and only where the debris is.
//
// On tessina fewer than 2% of the cells ever hold debris, yet every other version computes the
// outflows of all 300 000 cells at every step. Two facts let a kernel skip the dry land and
// still give the serial result to the last bit:
//
//  1. A cell whose thickness is at most p_epsilon / 2 has no outflow at all: the minimisation
//     eliminates every cell (the average it reaches stays p_epsilon / (2 * count) below the
//     highest candidate, far more than any rounding), so its four outflows are exactly 0.
//     Such a cell is "dry"; a cell above that thickness is a "source".
//  2. Debris moves one cell per step, so over K steps nothing changes farther than K cells
//     from the sources present at the start.
//
// The grid is cut into TX x TY tiles. Each tile has a state byte per launch: whether it holds
// a source, whether a source lies within K cells of each of its four edges, and whether its two
// thickness buffers differ ("dirty"). A launch computes K steps with temporal blocking (the tile
// plus 2K cells of border in shared memory, as in the multi-step version) for every tile that
// debris can reach during the launch: a tile holding a source, or next to a tile with a source
// near the shared edge or corner (K <= TX, TY, so the eight neighbours cover the reach). A dirty
// tile that debris cannot reach is copied from one buffer to the other; every other tile is left
// alone, since both buffers already hold its values. Inside a computed tile the loops run over
// the bounding box of the sources only.
//
// The launch is persistent: one block per resident slot on the GPU, each block finding its
// share of the tiles to compute, so that a thousand dry tiles cost no block scheduling.
#include "sciddicat_gpu.h"

#include "wb/workbook.h"

#include <cub/block/block_scan.cuh>

#include <algorithm>

namespace {

constexpr double kDry = sciddicat::kEpsilon / 2;  // at or below this thickness a cell has no outflow
// Bits of a tile's state: a source in the tile; a source within K cells of its north, south,
// west or east edge; its two thickness buffers differ.
constexpr unsigned char kWet = 1, kNearNorth = 2, kNearSouth = 4, kNearWest = 8, kNearEast = 16, kDirty = 32;
constexpr int kCachedTiles = 8192;                // tile states held in shared memory per block

using sciddicat::in_active_domain;

// State bits of a source at (y, x) inside a tile_x x tile_y tile, for launches of k steps.
__device__ unsigned source_bits(int y, int x, int tile_x, int tile_y, int k) {
    return kWet | (y < k ? kNearNorth : 0) | (y >= tile_y - k ? kNearSouth : 0) | (x < k ? kNearWest : 0) |
           (x >= tile_x - k ? kNearEast : 0);
}

// ORs each thread's bits over the block (every thread gets the result).
__device__ unsigned block_or(unsigned bits, unsigned* shared_bits) {
    if (threadIdx.x == 0 && threadIdx.y == 0) *shared_bits = 0;
    __syncthreads();
    bits = __reduce_or_sync(0xffffffffu, bits);
    if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0 && bits) atomicOr(shared_bits, bits);
    __syncthreads();
    return *shared_bits;
}

enum class TileWork { none, copy, compute };

// Debris can reach a tile during the launch when it holds a source, or a neighbour holds one
// near the shared edge (for a diagonal neighbour: near both edges of the shared corner).
__device__ TileWork work_for(const unsigned char* state, int tile, int tiles_x, int tiles_y) {
    const int ty = tile / tiles_x, tx = tile % tiles_x;
    auto near = [&](int dy, int dx, unsigned bits) {
        const int y = ty + dy, x = tx + dx;
        return y >= 0 && y < tiles_y && x >= 0 && x < tiles_x && (state[y * tiles_x + x] & bits) == bits;
    };
    const bool reached = (state[tile] & kWet) || near(-1, 0, kNearSouth) || near(1, 0, kNearNorth) ||
                         near(0, -1, kNearEast) || near(0, 1, kNearWest) || near(-1, -1, kNearSouth | kNearEast) ||
                         near(-1, 1, kNearSouth | kNearWest) || near(1, -1, kNearNorth | kNearEast) ||
                         near(1, 1, kNearNorth | kNearWest);
    if (reached) return TileWork::compute;
    return (state[tile] & kDirty) ? TileWork::copy : TileWork::none;
}

// Bounding box (region coordinates, inclusive) of the sources seen so far in this launch. It
// only grows, so cells outside it have had zero outflows throughout the launch.
struct SourceBox {
    int y0, y1, x0, x1;
};

// Merges one thread's box into the block's: warp reduction first, then one atomic per warp.
__device__ void merge_box(SourceBox* box, int y0, int y1, int x0, int x1) {
    y0 = __reduce_min_sync(0xffffffffu, y0);
    x0 = __reduce_min_sync(0xffffffffu, x0);
    y1 = __reduce_max_sync(0xffffffffu, y1);
    x1 = __reduce_max_sync(0xffffffffu, x1);
    if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0 && y1 >= 0) {
        atomicMin(&box->y0, y0);
        atomicMax(&box->y1, y1);
        atomicMin(&box->x0, x0);
        atomicMax(&box->x1, x1);
    }
}

// Shared memory of one tile's region: altitude, thickness, the four outflow layers and the list
// of this step's sources.
template <int TX, int TY, int K>
struct Region {
    static constexpr int kHalo = 2 * K, kX = TX + 2 * kHalo, kY = TY + 2 * kHalo, kCells = kX * kY;
    static constexpr std::size_t kBytes = (6 * sizeof(double) + sizeof(int)) * kCells;
};

// Runs `steps` (<= K) steps on one tile and writes its thickness and state. Whole block.
template <int TX, int TY, int K>
__device__ void compute_tile(int tile, int tiles_x, const double* sz, const double* sh_in, double* sh_out,
                             unsigned char* state_out, int rows, int cols, int steps, double* smem, SourceBox* box,
                             unsigned* shared_bits, int* source_count) {
    using R = Region<TX, TY, K>;
    double* z = smem;
    double* h = z + R::kCells;
    double* f = h + R::kCells;  // north, west, east, south layers of kCells each
    int* sources = reinterpret_cast<int*>(f + 4 * R::kCells);
    const int thread = threadIdx.y * TX + threadIdx.x;
    const int row0 = (tile / tiles_x) * TY - R::kHalo, col0 = (tile % tiles_x) * TX - R::kHalo;

    if (thread == 0) {
        *box = SourceBox{R::kY, -1, R::kX, -1};
        *source_count = 0;
    }
    __syncthreads();
    int y0 = R::kY, y1 = -1, x0 = R::kX, x1 = -1;
    for (int c = thread; c < R::kCells; c += TX * TY) {
        const int ly = c / R::kX, lx = c % R::kX, i = row0 + ly, j = col0 + lx;
        const bool inside = i >= 0 && i < rows && j >= 0 && j < cols;
        const long k = static_cast<long>(i) * cols + j;
        z[c] = inside ? sz[k] : 0.0;
        h[c] = inside ? sh_in[k] : 0.0;
        for (int n = 0; n < 4; ++n) f[n * R::kCells + c] = 0.0;
        if (h[c] > kDry && in_active_domain(i, j, rows, cols)) {
            y0 = min(y0, ly), y1 = max(y1, ly), x0 = min(x0, lx), x1 = max(x1, lx);
        }
    }
    merge_box(box, y0, y1, x0, x1);
    __syncthreads();

    for (int s = 0; s < steps; ++s) {
        // Outflows of the sources' box, inside the part of the region still exact after s steps:
        // dry cells get zero outflows and the sources go to a list, so that each thread then has
        // about one minimisation to do (it is a long chain of dependent operations).
        const int mf = 1 + 2 * s;
        const SourceBox b = *box;
        const int fy0 = max(b.y0, mf), fy1 = min(b.y1, R::kY - 1 - mf);
        const int fx0 = max(b.x0, mf), fx1 = min(b.x1, R::kX - 1 - mf);
        const int fw = fx1 - fx0 + 1, fcells = fw > 0 && fy1 >= fy0 ? fw * (fy1 - fy0 + 1) : 0;
        for (int t = thread; t < fcells; t += TX * TY) {
            const int ly = fy0 + t / fw, lx = fx0 + t % fw, c = ly * R::kX + lx;
            if (h[c] > kDry && in_active_domain(row0 + ly, col0 + lx, rows, cols)) {
                sources[atomicAdd(source_count, 1)] = c;
            } else {
                for (int n = 0; n < 4; ++n) f[n * R::kCells + c] = 0.0;
            }
        }
        __syncthreads();
        const int count = *source_count;
        for (int t = thread; t < count; t += TX * TY) {
            const int c = sources[t];
            const double u[4] = {z[c - R::kX] + h[c - R::kX], z[c - 1] + h[c - 1], z[c + 1] + h[c + 1],
                                 z[c + R::kX] + h[c + R::kX]};
            double flow[4];
            sciddicat::cell_outflows(h[c], z[c], u, flow);
            for (int n = 0; n < 4; ++n) f[n * R::kCells + c] = flow[n];
        }
        __syncthreads();
        if (thread == 0) *source_count = 0;  // read by everybody before the barrier above
        // Mass balance of the box grown by one cell (the cells that can receive debris).
        const int mu = 2 + 2 * s;
        const int uy0 = max(b.y0 - 1, mu), uy1 = min(b.y1 + 1, R::kY - 1 - mu);
        const int ux0 = max(b.x0 - 1, mu), ux1 = min(b.x1 + 1, R::kX - 1 - mu);
        const int uw = ux1 - ux0 + 1, ucells = uw > 0 && uy1 >= uy0 ? uw * (uy1 - uy0 + 1) : 0;
        y0 = R::kY, y1 = -1, x0 = R::kX, x1 = -1;
        for (int t = thread; t < ucells; t += TX * TY) {
            const int ly = uy0 + t / uw, lx = ux0 + t % uw, c = ly * R::kX + lx;
            if (!in_active_domain(row0 + ly, col0 + lx, rows, cols)) continue;
            const double* north = f;
            const double* west = f + R::kCells;
            const double* east = f + 2 * R::kCells;
            const double* south = f + 3 * R::kCells;
            double v = h[c];
            v += south[c - R::kX] - north[c];
            v += east[c - 1] - west[c];
            v += west[c + 1] - east[c];
            v += north[c + R::kX] - south[c];
            h[c] = v;
            if (v > kDry) y0 = min(y0, ly), y1 = max(y1, ly), x0 = min(x0, lx), x1 = max(x1, lx);
        }
        merge_box(box, y0, y1, x0, x1);
        __syncthreads();
    }

    // The tile itself is exact now: write it, and where it still holds sources.
    const int ly = R::kHalo + threadIdx.y, lx = R::kHalo + threadIdx.x;
    const int i = row0 + ly, j = col0 + lx;
    unsigned bits = 0;
    if (i < rows && j < cols) {
        const double v = h[ly * R::kX + lx];
        sh_out[static_cast<long>(i) * cols + j] = v;
        if (v > kDry && in_active_domain(i, j, rows, cols)) bits = source_bits(threadIdx.y, threadIdx.x, TX, TY, K);
    }
    bits = block_or(bits, shared_bits);
    if (thread == 0) state_out[tile] = kDirty | bits;
}

// A tile debris cannot reach: its thickness does not change, so the newer buffer is copied.
template <int TX, int TY>
__device__ void copy_tile(int tile, int tiles_x, const double* sh_in, double* sh_out, unsigned char* state_out,
                          int rows, int cols) {
    const int i = (tile / tiles_x) * TY + threadIdx.y, j = (tile % tiles_x) * TX + threadIdx.x;
    if (i < rows && j < cols) sh_out[static_cast<long>(i) * cols + j] = sh_in[static_cast<long>(i) * cols + j];
    if (threadIdx.x == 0 && threadIdx.y == 0) state_out[tile] = 0;
}

template <int TX, int TY, int K>
__global__ void __launch_bounds__(TX * TY) active_tiles_kernel(const double* sz, const double* sh_in, double* sh_out,
                                                               const unsigned char* state_in, unsigned char* state_out,
                                                               int rows, int cols, int tiles_x, int tiles_y, int steps) {
    static_assert(K <= TX && K <= TY, "the eight neighbouring tiles must cover the K-cell reach of the debris");
    using Scan = cub::BlockScan<int, TX, cub::BLOCK_SCAN_WARP_SCANS, TY>;
    __shared__ typename Scan::TempStorage scan_storage;
    __shared__ unsigned char cached[kCachedTiles];
    __shared__ int my_tiles[TX * TY];
    __shared__ int my_count;
    __shared__ SourceBox box;
    __shared__ unsigned shared_bits;
    __shared__ int source_count;
    extern __shared__ double smem[];

    const int tiles = tiles_x * tiles_y;
    const int thread = threadIdx.y * TX + threadIdx.x;
    const unsigned char* state = state_in;
    if (tiles <= kCachedTiles) {
        for (int t = thread; t < tiles; t += TX * TY) cached[t] = state_in[t];
        __syncthreads();
        state = cached;
    }
    // Tiles with work are numbered in order; this block takes numbers blockIdx.x, blockIdx.x +
    // gridDim.x, ... for computing, and the same numbers counted from the last block for copying
    // (few tiles need a copy: with both lists shorter than the grid, no block does both). Block 0
    // records the state of the tiles left alone.
    int computes = 0, copies = 0;
    const int blocks = gridDim.x, me = blockIdx.x;
    for (int base = 0; base < tiles; base += TX * TY) {
        const int tile = base + thread;
        const TileWork work = tile < tiles ? work_for(state, tile, tiles_x, tiles_y) : TileWork::none;
        if (tile < tiles && work == TileWork::none && me == 0) state_out[tile] = 0;
        int compute_number = 0, compute_count = 0, copy_number = 0, copy_count = 0;
        Scan(scan_storage).ExclusiveSum(work == TileWork::compute ? 1 : 0, compute_number, compute_count);
        __syncthreads();
        Scan(scan_storage).ExclusiveSum(work == TileWork::copy ? 1 : 0, copy_number, copy_count);
        if (thread == 0) my_count = 0;
        __syncthreads();
        if (work == TileWork::copy && (copies + copy_number) % blocks == blocks - 1 - me) {
            my_tiles[atomicAdd(&my_count, 1)] = -1 - tile;  // negative: copy
        }
        if (work == TileWork::compute && (computes + compute_number) % blocks == me)
            my_tiles[atomicAdd(&my_count, 1)] = tile;
        __syncthreads();
        for (int m = 0; m < my_count; ++m) {
            if (my_tiles[m] < 0)
                copy_tile<TX, TY>(-1 - my_tiles[m], tiles_x, sh_in, sh_out, state_out, rows, cols);
            else
                compute_tile<TX, TY, K>(my_tiles[m], tiles_x, sz, sh_in, sh_out, state_out, rows, cols, steps, smem,
                                        &box, &shared_bits, &source_count);
        }
        computes += compute_count;
        copies += copy_count;
        __syncthreads();  // my_tiles and scan_storage are reused by the next batch
    }
}

// Initial tile states: where the sources are; both buffers equal (not dirty). One block per
// tile, one thread per cell (blockDim is the tile).
__global__ void initial_state_kernel(const double* sh, unsigned char* state, int rows, int cols, int tiles_x, int k) {
    __shared__ unsigned shared_bits;
    const int tile_x = blockDim.x, tile_y = blockDim.y;
    const int i = (blockIdx.x / tiles_x) * tile_y + threadIdx.y, j = (blockIdx.x % tiles_x) * tile_x + threadIdx.x;
    unsigned bits = 0;
    if (i < rows && j < cols && in_active_domain(i, j, rows, cols) && sh[static_cast<long>(i) * cols + j] > kDry)
        bits = source_bits(threadIdx.y, threadIdx.x, tile_x, tile_y, k);
    bits = block_or(bits, &shared_bits);
    if (threadIdx.x == 0 && threadIdx.y == 0) state[blockIdx.x] = static_cast<unsigned char>(bits);
}

int tiles_along(int cells, int tile) { return (cells + tile - 1) / tile; }

template <int TX, int TY, int K>
int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        WB_CUDA_CHECK(cudaFuncSetAttribute(active_tiles_kernel<TX, TY, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(Region<TX, TY, K>::kBytes)));
        int per_sm = 0, device = 0, sms = 0;
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, active_tiles_kernel<TX, TY, K>, TX * TY,
                                                                    Region<TX, TY, K>::kBytes));
        WB_CUDA_CHECK(cudaGetDevice(&device));
        WB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        if (per_sm < 1) wb::usage_error("active tiles: the kernel does not fit on this GPU");
        blocks = per_sm * sms;
    }
    return blocks;
}

template <int TX, int TY, int K>
void launch_active(const GpuGrid& g, const ActiveTileState& s, const double* in, double* out, int steps,
                   cudaStream_t stream) {
    const int tiles_x = tiles_along(g.cols, TX), tiles_y = tiles_along(g.rows, TY);
    const bool from_first = in == g.sh;  // state buffers alternate with the thickness buffers
    const unsigned char* state_in = from_first ? s.state[0] : s.state[1];
    unsigned char* state_out = from_first ? s.state[1] : s.state[0];
    active_tiles_kernel<TX, TY, K><<<resident_blocks<TX, TY, K>(), dim3(TX, TY), Region<TX, TY, K>::kBytes, stream>>>(
        g.sz, in, out, state_in, state_out, g.rows, g.cols, tiles_x, tiles_y, steps);
    WB_CHECK_LAUNCH("active_tiles_kernel");
}


}  // namespace

std::vector<MultistepShape> active_tile_shapes() { return {{32, 16, 8}, {32, 16, 4}, {32, 16, 2}, {16, 16, 4}}; }

std::size_t active_tile_state_bytes(int rows, int cols) {
    std::size_t most = 0;
    for (const MultistepShape& m : active_tile_shapes())
        most = std::max(most, static_cast<std::size_t>(tiles_along(rows, m.tile_y)) * tiles_along(cols, m.tile_x));
    return most;
}

void active_tiles_prepare(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(g.rows) * g.cols;
    // Tiles never computed are read from either buffer: both must hold the initial thickness.
    WB_CUDA_CHECK(cudaMemcpyAsync(g.sh_next, g.sh, n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
    const int tiles_x = tiles_along(g.cols, shape.tile_x), tiles = tiles_x * tiles_along(g.rows, shape.tile_y);
    initial_state_kernel<<<tiles, dim3(shape.tile_x, shape.tile_y), 0, stream>>>(g.sh, s.state[0], g.rows, g.cols,
                                                                                 tiles_x, shape.k);
    WB_CHECK_LAUNCH("initial_state_kernel");
}

void active_tiles_launch(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, const double* in,
                         double* out, int steps, cudaStream_t stream) {
    const int key = shape.tile_x * 10000 + shape.tile_y * 100 + shape.k;
    switch (key) {
        case 321608: launch_active<32, 16, 8>(g, s, in, out, steps, stream); break;
        case 321604: launch_active<32, 16, 4>(g, s, in, out, steps, stream); break;
        case 321602: launch_active<32, 16, 2>(g, s, in, out, steps, stream); break;
        case 161604: launch_active<16, 16, 4>(g, s, in, out, steps, stream); break;
        default: wb::usage_error("active tiles: no kernel for this tile and K");
    }
}
