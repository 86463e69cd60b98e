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
// alone, since both buffers already hold its values.
//
// The launch is persistent: one block per resident slot on the GPU, each block finding its
// share of the tiles to compute, so that a thousand dry tiles cost no block scheduling. A block
// has one thread per cell of the region (tile plus border): a cell's altitude, thickness and
// outflows stay in its thread's registers, and shared memory holds only what the neighbours
// read. A step is then two barriers: outflows, then mass balance.
//
// What a launch costs in the busiest block (clock64() per phase on an H100, 16 x 16 tiles, K = 4):
// about half goes to the K steps, whose minimisations are the bulk (a dense region has some 900
// sources in its first step, and an SM completes fewer than 0.4 minimisations per cycle, each a
// chain of about 1000 dependent cycles); a quarter goes to finding the tiles to compute, which
// every block does for the whole grid. The minimisation is cell_outflows_by_mask: the same
// result as the serial version's in fewer instructions.
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
constexpr int kListedTiles = 1024;                // tiles one block can take in one launch
constexpr int kCopyUnit = 1 << 16;  // tile numbering counts computes and copies in one int: copies
                                    // in units of this, so a grid holds fewer tiles than this

using sciddicat::in_active_domain;

// State bits of a source at (y, x) inside a tile_x x tile_y tile, for launches of k steps.
__device__ unsigned source_bits(int y, int x, int tile_x, int tile_y, int k) {
    return kWet | (y < k ? kNearNorth : 0) | (y >= tile_y - k ? kNearSouth : 0) | (x < k ? kNearWest : 0) |
           (x >= tile_x - k ? kNearEast : 0);
}

// ORs each thread's bits over the block (every thread gets the result). One-dimensional blocks.
__device__ unsigned block_or(unsigned bits, unsigned* shared_bits) {
    if (threadIdx.x == 0) *shared_bits = 0;
    __syncthreads();
    bits = __reduce_or_sync(0xffffffffu, bits);
    if (threadIdx.x % 32 == 0 && bits) atomicOr(shared_bits, bits);
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

// Shared memory of one tile's region, one thread per cell: each cell's altitude + thickness
// (what its neighbours' minimisations read) and its four outflows (what their mass balance reads).
template <int TX, int TY, int K>
struct Region {
    static constexpr int kHalo = 2 * K, kX = TX + 2 * kHalo, kY = TY + 2 * kHalo, kCells = kX * kY;
    static constexpr std::size_t kBytes = 5 * sizeof(double) * kCells;
};

// Runs `steps` (<= K) steps on one tile and writes its thickness and state. One thread per cell
// of the region; a cell's own altitude, thickness and outflows stay in its thread's registers.
// After step s the values are exact at 2(s + 1) cells or more from the region's edge, so the
// tile itself is exact after K steps.
template <int TX, int TY, int K>
__device__ void compute_tile(int tile, int tiles_x, const double* sz, const double* sh_in, double* sh_out,
                             unsigned char* state_out, int rows, int cols, int steps, double* smem,
                             unsigned* shared_bits) {
    using R = Region<TX, TY, K>;
    double* level = smem;  // altitude + thickness
    double* north = level + R::kCells;
    double* west = north + R::kCells;
    double* east = west + R::kCells;
    double* south = east + R::kCells;
    const int c = threadIdx.x, ly = c / R::kX, lx = c % R::kX;
    const int i = (tile / tiles_x) * TY - R::kHalo + ly, j = (tile % tiles_x) * TX - R::kHalo + lx;
    const int edge_distance = min(min(ly, R::kY - 1 - ly), min(lx, R::kX - 1 - lx));
    const bool in_grid = i >= 0 && i < rows && j >= 0 && j < cols;
    const bool updated = in_active_domain(i, j, rows, cols);
    const long k = static_cast<long>(i) * cols + j;
    const double z = in_grid ? sz[k] : 0.0;
    double h = in_grid ? sh_in[k] : 0.0;
    level[c] = z + h;
    __syncthreads();

    for (int s = 0; s < steps; ++s) {
        double flow[4] = {0.0, 0.0, 0.0, 0.0};  // a dry cell has no outflow (see the top of the file)
        if (updated && h > kDry && edge_distance >= 1 + 2 * s) {
            const double u[4] = {level[c - R::kX], level[c - 1], level[c + 1], level[c + R::kX]};
            sciddicat::cell_outflows_by_mask(h, z, u, flow);
        }
        north[c] = flow[0], west[c] = flow[1], east[c] = flow[2], south[c] = flow[3];
        __syncthreads();
        if (updated && edge_distance >= 2 + 2 * s) {  // the serial version's order of operations
            double v = h;
            v += south[c - R::kX] - flow[0];
            v += east[c - 1] - flow[1];
            v += west[c + 1] - flow[2];
            v += north[c + R::kX] - flow[3];
            h = v;
            level[c] = z + h;
        }
        __syncthreads();
    }

    // The tile itself is exact now: write it, and where it still holds sources.
    const int y = ly - R::kHalo, x = lx - R::kHalo;
    unsigned bits = 0;
    if (y >= 0 && y < TY && x >= 0 && x < TX && in_grid) {
        sh_out[k] = h;
        if (h > kDry && updated) bits = source_bits(y, x, TX, TY, K);
    }
    bits = block_or(bits, shared_bits);
    if (c == 0) state_out[tile] = kDirty | bits;
}

// A tile debris cannot reach: its thickness does not change, so the newer buffer is copied.
template <int TX, int TY, int THREADS>
__device__ void copy_tile(int tile, int tiles_x, const double* sh_in, double* sh_out, unsigned char* state_out,
                          int rows, int cols) {
    for (int c = threadIdx.x; c < TX * TY; c += THREADS) {
        const int i = (tile / tiles_x) * TY + c / TX, j = (tile % tiles_x) * TX + c % TX;
        if (i < rows && j < cols) sh_out[static_cast<long>(i) * cols + j] = sh_in[static_cast<long>(i) * cols + j];
    }
    if (threadIdx.x == 0) state_out[tile] = 0;
}

template <int TX, int TY, int K, int THREADS = Region<TX, TY, K>::kCells>
__global__ void __launch_bounds__(THREADS) active_tiles_kernel(const double* sz, const double* sh_in, double* sh_out,
                                                               const unsigned char* state_in, unsigned char* state_out,
                                                               int rows, int cols, int tiles_x, int tiles_y, int steps) {
    static_assert(K <= TX && K <= TY, "the eight neighbouring tiles must cover the K-cell reach of the debris");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "one thread per cell of the region, whole warps");
    using Scan = cub::BlockScan<int, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename Scan::TempStorage scan_storage;
    __shared__ unsigned char cached[kCachedTiles];
    __shared__ int my_tiles[kListedTiles];  // at most tiles / blocks + 1 of each kind
    __shared__ int my_count;
    __shared__ unsigned shared_bits;
    extern __shared__ double smem[];

    const int tiles = tiles_x * tiles_y;
    const int thread = threadIdx.x;
    const unsigned char* state = state_in;
    if (tiles <= kCachedTiles) {
        for (int t = thread; t < tiles; t += THREADS) cached[t] = state_in[t];
        __syncthreads();
        state = cached;
    }
    // Tiles with work are numbered in order; this block takes numbers blockIdx.x, blockIdx.x +
    // gridDim.x, ... for computing, and the same numbers counted from the last block for copying
    // (few tiles need a copy: with both lists shorter than the grid, no block does both). Each
    // thread looks at a run of consecutive tiles; one scan numbers them all. Block 0 records the
    // state of the tiles left alone.
    const int run = (tiles + THREADS - 1) / THREADS, first = thread * run, last = min(tiles, first + run);
    int counts = 0;
    for (int tile = first; tile < last; ++tile) {
        const TileWork work = work_for(state, tile, tiles_x, tiles_y);
        counts += work == TileWork::compute ? 1 : work == TileWork::copy ? kCopyUnit : 0;
        if (work == TileWork::none && blockIdx.x == 0) state_out[tile] = 0;
    }
    if (thread == 0) my_count = 0;
    int numbers = 0;
    Scan(scan_storage).ExclusiveSum(counts, numbers);
    int compute_number = numbers % kCopyUnit, copy_number = numbers / kCopyUnit;
    const int blocks = gridDim.x, me = blockIdx.x;
    for (int tile = first; tile < last && counts != 0; ++tile) {
        const TileWork work = work_for(state, tile, tiles_x, tiles_y);  // again: cheaper than a per-thread array
        if (work == TileWork::compute && compute_number++ % blocks == me) my_tiles[atomicAdd(&my_count, 1)] = tile;
        if (work == TileWork::copy && copy_number++ % blocks == blocks - 1 - me)
            my_tiles[atomicAdd(&my_count, 1)] = -1 - tile;  // negative: copy
    }
    __syncthreads();
    for (int m = 0; m < my_count; ++m) {
        if (my_tiles[m] < 0)
            copy_tile<TX, TY, THREADS>(-1 - my_tiles[m], tiles_x, sh_in, sh_out, state_out, rows, cols);
        else
            compute_tile<TX, TY, K>(my_tiles[m], tiles_x, sz, sh_in, sh_out, state_out, rows, cols, steps, smem,
                                    &shared_bits);
    }
}

// Initial tile states: where the sources are; both buffers equal (not dirty). One block per
// tile, one thread per cell.
__global__ void initial_state_kernel(const double* sh, unsigned char* state, int rows, int cols, int tiles_x,
                                     int tile_x, int tile_y, int k) {
    __shared__ unsigned shared_bits;
    const int y = threadIdx.x / tile_x, x = threadIdx.x % tile_x;
    const int i = (blockIdx.x / tiles_x) * tile_y + y, j = (blockIdx.x % tiles_x) * tile_x + x;
    unsigned bits = 0;
    if (i < rows && j < cols && in_active_domain(i, j, rows, cols) && sh[static_cast<long>(i) * cols + j] > kDry)
        bits = source_bits(y, x, tile_x, tile_y, k);
    bits = block_or(bits, &shared_bits);
    if (threadIdx.x == 0) state[blockIdx.x] = static_cast<unsigned char>(bits);
}

int tiles_along(int cells, int tile) { return (cells + tile - 1) / tile; }

template <int TX, int TY, int K>
int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        using R = Region<TX, TY, K>;
        WB_CUDA_CHECK(cudaFuncSetAttribute(active_tiles_kernel<TX, TY, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(R::kBytes)));
        int per_sm = 0, device = 0, sms = 0;
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, active_tiles_kernel<TX, TY, K>, R::kCells,
                                                                    R::kBytes));
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
    using R = Region<TX, TY, K>;
    const int blocks = resident_blocks<TX, TY, K>();
    if (tiles_x * tiles_y >= kCopyUnit || 2 * (tiles_x * tiles_y / blocks + 1) > kListedTiles)
        wb::usage_error("active tiles: grid too large for this GPU");
    const bool from_first = in == g.sh;  // state buffers alternate with the thickness buffers
    const unsigned char* state_in = from_first ? s.state[0] : s.state[1];
    unsigned char* state_out = from_first ? s.state[1] : s.state[0];
    active_tiles_kernel<TX, TY, K><<<blocks, R::kCells, R::kBytes, stream>>>(
        g.sz, in, out, state_in, state_out, g.rows, g.cols, tiles_x, tiles_y, steps);
    WB_CHECK_LAUNCH("active_tiles_kernel");
}

// The instantiated kernels: tile, steps per launch, threads per block (the region's cells).
using Launcher = void (*)(const GpuGrid&, const ActiveTileState&, const double*, double*, int, cudaStream_t);
struct Instance {
    MultistepShape shape;
    Launcher launch;
};
template <int TX, int TY, int K>
constexpr Instance instance() {
    return {{TX, TY, K, Region<TX, TY, K>::kCells}, launch_active<TX, TY, K>};
}
const Instance kInstances[] = {instance<16, 16, 4>(), instance<16, 8, 4>(), instance<8, 8, 4>(), instance<8, 8, 6>(),
                               instance<16, 16, 2>(), instance<24, 24, 2>(), instance<8, 8, 2>()};

}  // namespace

std::vector<MultistepShape> active_tile_shapes() {
    std::vector<MultistepShape> shapes;
    for (const Instance& instance : kInstances) shapes.push_back(instance.shape);
    return shapes;
}

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
    initial_state_kernel<<<tiles, shape.tile_x * shape.tile_y, 0, stream>>>(g.sh, s.state[0], g.rows, g.cols, tiles_x,
                                                                           shape.tile_x, shape.tile_y, shape.k);
    WB_CHECK_LAUNCH("initial_state_kernel");
}

void active_tiles_launch(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, const double* in,
                         double* out, int steps, cudaStream_t stream) {
    for (const Instance& instance : kInstances) {
        const MultistepShape& m = instance.shape;
        if (m.tile_x == shape.tile_x && m.tile_y == shape.tile_y && m.k == shape.k && m.threads == shape.threads) {
            instance.launch(g, s, in, out, steps, stream);
            return;
        }
    }
    wb::usage_error("active tiles: no kernel for this tile, K and block size");
}
