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
//     from the sources present at the start, and over 2K steps nothing farther than 2K cells.
//
// The grid is cut into TX x TY tiles. A launch computes K steps with temporal blocking (the tile
// plus 2K cells of border, as in the multi-step version) for every tile on its list; every other
// tile keeps its thickness. The list holds every tile that debris can reach during the launch:
// the first launch's, the tiles with a source within K cells (of the tile, or of the edge or
// corner it shares with a neighbour); every later launch's, the tiles with a source within 2K
// cells at the start of the launch before (2K <= TX, TY, so the eight neighbours cover the reach).
//
// So each launch writes the list of the next one, and early: as soon as a block has loaded its
// tile, a few of its threads add the tile and the neighbours its sources can reach within 2K
// cells (a flag per tile keeps each tile listed once), while the others start the steps. No
// block scans the grid, so a thousand dry tiles cost nothing. The thickness lives in two buffers
// that swap roles at every launch; a tile computed in one launch and not in the next is copied
// from the newer buffer to the other, after which both hold its values.
//
// The launch is persistent: one block per resident slot on the GPU, each block taking every
// blocks-th tile of the list. A block has one thread per cell of the region (tile plus border):
// a cell's altitude, thickness and outflows stay in its thread's registers, and shared memory
// holds only what the neighbours read. A step is then two barriers: outflows, then mass balance.
// The minimisation is cell_outflows_by_rank: the serial result, with the averages of its rounds
// computed side by side instead of one after the other.
//
// On an H100 (16 x 16 tiles, K = 4) about two thirds of a launch are the K steps of the busiest
// tile; the rest is latency: reading the list, loading the region, the gap between launches
// (the lesson page has the measured phases).
//
#include "sciddicat_gpu.h"

#include "wb/workbook.h"

#include <algorithm>

namespace {

constexpr double kDry = sciddicat::kEpsilon / 2;  // at or below this thickness a cell has no outflow
// Where a tile's sources are: anywhere in it; within reach (K or 2K cells, see source_bits) of its
// north, south, west or east edge.
constexpr unsigned kWet = 1, kNearNorth = 2, kNearSouth = 4, kNearWest = 8, kNearEast = 16;
constexpr int kListSlots = 4;  // lists in use at once: see TileLists

using sciddicat::in_active_domain;

// The work lists, in one device buffer. Launch n (counted from the run's start) computes the
// tiles of list n % 4, copies the tiles of list (n - 1) % 4 that list n % 4 does not hold, and
// builds list (n + 1) % 4; it also empties what launch n + 1 and n + 2 will fill: the flags of
// list (n - 1) % 4 once read, and the count of list (n + 2) % 4. No list is written by the
// launch that reads it.
struct TileLists {
    int* count;        // [kListSlots]
    int* tiles;        // [kListSlots][capacity]: tile indices, in no particular order
    unsigned* listed;  // [kListSlots][capacity]: 1 where the tile is in the list
    int capacity;      // tiles of the grid, for the smallest tile shape

    __device__ int* list(int slot) const { return tiles + static_cast<long>(slot) * capacity; }
    __device__ unsigned* flags(int slot) const { return listed + static_cast<long>(slot) * capacity; }
};

// The buffer's layout: the counts, padded to 16 bytes, then the tile lists, then the flags.
TileLists lists_in(void* buffer, int capacity) {
    int* count = static_cast<int*>(buffer);
    int* tiles = count + 4;
    unsigned* listed = reinterpret_cast<unsigned*>(tiles + static_cast<long>(kListSlots) * capacity);
    return {count, tiles, listed, capacity};
}
std::size_t lists_bytes(int capacity) { return (4 + 2 * static_cast<std::size_t>(kListSlots) * capacity) * sizeof(int); }

// Bits of a source at (y, x) inside a tile_x x tile_y tile, for a reach of k cells.
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

// Called by nine threads of a block once it knows where the sources of `tile` are: thread c = 0..8
// looks at the neighbour (c / 3 - 1, c % 3 - 1), the tile itself for c = 4, and lists it for the
// next launch if those sources can reach it: near the shared edge, or near both edges of a shared
// corner. The first thread to flag a tile appends it.
__device__ void list_reached(int c, int tile, unsigned bits, int tiles_x, int tiles_y, const TileLists& lists,
                             int next) {
    const int dy = c / 3 - 1, dx = c % 3 - 1;
    const unsigned needed = kWet | (dy < 0 ? kNearNorth : dy > 0 ? kNearSouth : 0) |
                            (dx < 0 ? kNearWest : dx > 0 ? kNearEast : 0);
    const int y = tile / tiles_x + dy, x = tile % tiles_x + dx;
    if ((bits & needed) != needed || y < 0 || y >= tiles_y || x < 0 || x >= tiles_x) return;
    const int reached = y * tiles_x + x;
    if (atomicOr(&lists.flags(next)[reached], 1u) == 0) lists.list(next)[atomicAdd(&lists.count[next], 1)] = reached;
}

// Shared memory of one tile's region, one thread per cell: each cell's altitude + thickness
// (what its neighbours' minimisations read) and its four outflows (what their mass balance reads).
// Rows are one value longer than the region, so that a warp walking down a column touches every
// bank once (a row of 8-byte values spans the 32 banks).
template <int TX, int TY, int K>
struct Region {
    static constexpr int kHalo = 2 * K, kX = TX + 2 * kHalo, kY = TY + 2 * kHalo, kCells = kX * kY;
    static constexpr int kPitch = kX + 1, kSlots = kY * kPitch;
    static constexpr std::size_t kBytes = 5 * sizeof(double) * kSlots;
    static_assert(kX % 2 == 0 && kY % 2 == 0, "rings of cells need an even region");
};

// A cell of the region: row, column, and distance from the region's edge (its ring).
struct RegionCell {
    int y, x, ring;
};

// Thread c's cell in a W x H region. Cells go from the centre out, ring by ring, and along rows
// within a ring (its top row, the two ends of each row between, its bottom row). Each step
// leaves fewer cells exact, all of them farther in, so the cells still computing are always the
// first threads, and warps stop computing whole instead of keeping a few lanes busy in every row.
template <int W, int H>
__device__ RegionCell region_cell(int c) {
    int ring = 0;
    while (c < (W - 2 * ring - 2) * (H - 2 * ring - 2)) ++ring;  // the cells inside this ring come first
    const int place = c - (W - 2 * ring - 2) * (H - 2 * ring - 2);
    const int width = W - 2 * ring, middle_rows = H - 2 * ring - 2;
    if (place < width) return {ring, ring + place, ring};
    const int after_top = place - width;
    if (after_top < 2 * middle_rows) return {ring + 1 + after_top / 2, after_top % 2 ? W - 1 - ring : ring, ring};
    return {H - 1 - ring, ring + after_top - 2 * middle_rows, ring};
}

// Runs `steps` (<= K) steps on one tile and writes its thickness; first lists the tiles its
// sources can reach in the next launch. One thread per cell of the region, `cell` being the
// thread's; a cell's own altitude, thickness and outflows stay in its thread's registers. After
// step s the values are exact at 2(s + 1) cells or more from the region's edge, so the tile
// itself is exact after K steps.
template <int TX, int TY, int K>
__device__ void compute_tile(int tile, RegionCell cell, int tiles_x, int tiles_y, const double* sz,
                             const double* sh_in, double* sh_out, int rows, int cols, int steps,
                             const TileLists& lists, int next, double* smem, unsigned* shared_bits) {
    using R = Region<TX, TY, K>;
    double* level = smem;  // altitude + thickness
    double* north = level + R::kSlots;
    double* west = north + R::kSlots;
    double* east = west + R::kSlots;
    double* south = east + R::kSlots;
    const int c = cell.y * R::kPitch + cell.x;  // in shared memory
    const int i = (tile / tiles_x) * TY - R::kHalo + cell.y, j = (tile % tiles_x) * TX - R::kHalo + cell.x;
    const bool in_grid = i >= 0 && i < rows && j >= 0 && j < cols;
    const bool updated = in_active_domain(i, j, rows, cols);
    const long k = static_cast<long>(i) * cols + j;
    const double z = in_grid ? sz[k] : 0.0;
    double h = in_grid ? sh_in[k] : 0.0;
    level[c] = z + h;
    const int y = cell.y - R::kHalo, x = cell.x - R::kHalo;  // in the tile: the first TX * TY threads
    const bool in_tile = y >= 0 && y < TY && x >= 0 && x < TX && in_grid;
    unsigned bits = in_tile && h > kDry && updated ? source_bits(y, x, TX, TY, 2 * K) : 0u;
    bits = block_or(bits, shared_bits);  // its barriers also publish `level`
    // The last nine threads hold cells of the region's outer ring, which never compute: they wait
    // for the atomics of the listing while the others compute.
    const int lister = threadIdx.x - (R::kCells - 9);
    if (lister >= 0) list_reached(lister, tile, bits, tiles_x, tiles_y, lists, next);

    for (int s = 0; s < steps; ++s) {
        double flow[4] = {0.0, 0.0, 0.0, 0.0};  // a dry cell has no outflow (see the top of the file)
        if (updated && h > kDry && cell.ring >= 1 + 2 * s) {
            const double u[4] = {level[c - R::kPitch], level[c - 1], level[c + 1], level[c + R::kPitch]};
            sciddicat::cell_outflows_by_rank(h, z, u, flow);
        }
        north[c] = flow[0], west[c] = flow[1], east[c] = flow[2], south[c] = flow[3];
        __syncthreads();
        if (updated && cell.ring >= 2 + 2 * s) {  // the serial version's order of operations
            double v = h;
            v += south[c - R::kPitch] - flow[0];
            v += east[c - 1] - flow[1];
            v += west[c + 1] - flow[2];
            v += north[c + R::kPitch] - flow[3];
            h = v;
            level[c] = z + h;
        }
        __syncthreads();
    }

    if (in_tile) sh_out[k] = h;  // exact now
}

// A tile computed in the previous launch and not in this one: its newest thickness goes to the
// other buffer too.
template <int TX, int TY, int THREADS>
__device__ void copy_tile(int tile, int tiles_x, const double* sh_in, double* sh_out, int rows, int cols) {
    for (int c = threadIdx.x; c < TX * TY; c += THREADS) {
        const int i = (tile / tiles_x) * TY + c / TX, j = (tile % tiles_x) * TX + c % TX;
        if (i < rows && j < cols) sh_out[static_cast<long>(i) * cols + j] = sh_in[static_cast<long>(i) * cols + j];
    }
}

// Launches may follow each other with programmatic dependent launch (sm_90 and later, see
// launch_active): once every block of this launch has started, the next launch may start too,
// its blocks taking the SMs that blocks with no tile have already left, and waiting here until
// this launch has finished and its writes are visible. The next launch's start-up (and what a
// block computes before this call) then overlaps this one's work. Without it, this returns at once.
__device__ void wait_for_previous_launch() {
#if __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
#endif
}

template <int TX, int TY, int K, int THREADS = Region<TX, TY, K>::kCells>
__global__ void __launch_bounds__(THREADS) active_tiles_kernel(const double* sz, const double* sh_in, double* sh_out,
                                                               TileLists lists, int slot, int rows, int cols,
                                                               int tiles_x, int tiles_y, int steps) {
    static_assert(2 * K <= TX && 2 * K <= TY, "the eight neighbouring tiles must cover the 2K-cell reach of the debris");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "one thread per cell of the region, whole warps");
    __shared__ unsigned shared_bits;
    extern __shared__ double smem[];
    const int previous = (slot + kListSlots - 1) % kListSlots, next = (slot + 1) % kListSlots;
    const RegionCell cell = region_cell<Region<TX, TY, K>::kX, Region<TX, TY, K>::kY>(threadIdx.x);  // needs no data
    wait_for_previous_launch();
    if (blockIdx.x == 0 && threadIdx.x == 0) lists.count[(slot + 2) % kListSlots] = 0;  // filled by the next launch

    // Every read from global memory costs a round trip of several hundred cycles: the counts and
    // this block's first tile are read together (the tile may lie past the end of the list, unused).
    const int computes = lists.count[slot], computed_before = lists.count[previous];
    const int first_tile = blockIdx.x < lists.capacity ? lists.list(slot)[blockIdx.x] : 0;
    for (int m = blockIdx.x; m < computes; m += gridDim.x)
        compute_tile<TX, TY, K>(m == blockIdx.x ? first_tile : lists.list(slot)[m], cell, tiles_x, tiles_y, sz,
                                sh_in, sh_out, rows, cols, steps, lists, next, smem, &shared_bits);

    // The previous launch's tiles, given to the blocks from the last one down, which are the
    // ones least likely to have computed a tile.
    for (int m = gridDim.x - 1 - blockIdx.x; m < computed_before; m += gridDim.x) {
        const int tile = lists.list(previous)[m];
        if (!lists.flags(slot)[tile]) copy_tile<TX, TY, THREADS>(tile, tiles_x, sh_in, sh_out, rows, cols);
        if (threadIdx.x == 0) lists.flags(previous)[tile] = 0;  // no launch reads it before it is refilled
    }
}

// The first list: the tiles the initial sources can reach. One block per tile, one thread per cell.
__global__ void first_list_kernel(const double* sh, TileLists lists, int rows, int cols, int tiles_x, int tiles_y,
                                  int tile_x, int tile_y, int k) {
    __shared__ unsigned shared_bits;
    const int y = threadIdx.x / tile_x, x = threadIdx.x % tile_x;
    const int i = (blockIdx.x / tiles_x) * tile_y + y, j = (blockIdx.x % tiles_x) * tile_x + x;
    unsigned bits = 0;
    if (i < rows && j < cols && in_active_domain(i, j, rows, cols) && sh[static_cast<long>(i) * cols + j] > kDry)
        bits = source_bits(y, x, tile_x, tile_y, k);
    bits = block_or(bits, &shared_bits);
    if (threadIdx.x < 9) list_reached(threadIdx.x, blockIdx.x, bits, tiles_x, tiles_y, lists, 0);
}

int tiles_along(int cells, int tile) { return (cells + tile - 1) / tile; }

// How many blocks of a shape fit on the GPU at once, and on each SM.
struct Residency {
    int blocks = 0;
    int per_sm = 0;
};

template <int TX, int TY, int K>
Residency residency() {
    static Residency fit;
    if (fit.blocks == 0) {
        using R = Region<TX, TY, K>;
        WB_CUDA_CHECK(cudaFuncSetAttribute(active_tiles_kernel<TX, TY, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(R::kBytes)));
        int device = 0, sms = 0;
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit.per_sm, active_tiles_kernel<TX, TY, K>,
                                                                    R::kCells, R::kBytes));
        WB_CUDA_CHECK(cudaGetDevice(&device));
        WB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        if (fit.per_sm < 1) wb::usage_error("active tiles: the kernel does not fit on this GPU");
        fit.blocks = fit.per_sm * sms;
    }
    return fit;
}

bool programmatic_launch_supported() {
    static int major = 0;
    if (major == 0) {
        int device = 0;
        WB_CUDA_CHECK(cudaGetDevice(&device));
        WB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    }
    return major >= 9;
}

template <int TX, int TY, int K>
void launch_active(const GpuGrid& g, const TileLists& lists, const double* in, double* out, int steps, int slot,
                   cudaStream_t stream) {
    using R = Region<TX, TY, K>;
    const Residency fit = residency<TX, TY, K>();
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(fit.blocks);
    config.blockDim = dim3(R::kCells);
    config.dynamicSmemBytes = R::kBytes;
    config.stream = stream;
    // Overlapping launches pays where one block fills an SM. With several per SM, the next
    // launch's early blocks crowd onto the SMs that emptied first, and the blocks with tiles end
    // up sharing SMs: slower on an H100 (the lesson page has the figures).
    cudaLaunchAttribute overlap = {};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    if (programmatic_launch_supported() && fit.per_sm == 1) {
        config.attrs = &overlap;
        config.numAttrs = 1;
    }
    WB_CUDA_CHECK(cudaLaunchKernelEx(&config, active_tiles_kernel<TX, TY, K>, g.sz, static_cast<const double*>(in), out,
                                     lists, slot, g.rows, g.cols, tiles_along(g.cols, TX), tiles_along(g.rows, TY),
                                     steps));
    WB_CHECK_LAUNCH("active_tiles_kernel");
}

// The instantiated kernels: tile, steps per launch, threads per block (the region's cells).
using Launcher = void (*)(const GpuGrid&, const TileLists&, const double*, double*, int, int, cudaStream_t);
struct Instance {
    MultistepShape shape;
    Launcher launch;
};
template <int TX, int TY, int K>
constexpr Instance instance() {
    return {{TX, TY, K, Region<TX, TY, K>::kCells}, launch_active<TX, TY, K>};
}
const Instance kInstances[] = {instance<16, 16, 4>(), instance<16, 8, 4>(), instance<8, 8, 4>(),
                               instance<16, 16, 2>(), instance<24, 24, 2>(), instance<8, 8, 2>()};

// List capacity: the tiles of the grid for the shape with the most tiles.
int most_tiles(int rows, int cols) {
    int most = 0;
    for (const Instance& instance : kInstances)
        most = std::max(most, tiles_along(rows, instance.shape.tile_y) * tiles_along(cols, instance.shape.tile_x));
    return most;
}

}  // namespace

std::vector<MultistepShape> active_tile_shapes() {
    std::vector<MultistepShape> shapes;
    for (const Instance& instance : kInstances) shapes.push_back(instance.shape);
    return shapes;
}

std::size_t active_tile_state_bytes(int rows, int cols) { return lists_bytes(most_tiles(rows, cols)); }

void active_tiles_prepare(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(g.rows) * g.cols;
    // Tiles never computed are read from either buffer: both must hold the initial thickness.
    WB_CUDA_CHECK(cudaMemcpyAsync(g.sh_next, g.sh, n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
    const int capacity = most_tiles(g.rows, g.cols);
    WB_CUDA_CHECK(cudaMemsetAsync(s.lists, 0, lists_bytes(capacity), stream));  // empty lists, no flags
    const int tiles_x = tiles_along(g.cols, shape.tile_x), tiles_y = tiles_along(g.rows, shape.tile_y);
    first_list_kernel<<<tiles_x * tiles_y, shape.tile_x * shape.tile_y, 0, stream>>>(
        g.sh, lists_in(s.lists, capacity), g.rows, g.cols, tiles_x, tiles_y, shape.tile_x, shape.tile_y, shape.k);
    WB_CHECK_LAUNCH("first_list_kernel");
}

void active_tiles_launch(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, const double* in,
                         double* out, int steps, int launch, cudaStream_t stream) {
    const TileLists lists = lists_in(s.lists, most_tiles(g.rows, g.cols));
    for (const Instance& instance : kInstances) {
        const MultistepShape& m = instance.shape;
        if (m.tile_x == shape.tile_x && m.tile_y == shape.tile_y && m.k == shape.k && m.threads == shape.threads) {
            instance.launch(g, lists, in, out, steps, launch % kListSlots, stream);
            return;
        }
    }
    wb::usage_error("active tiles: no kernel for this tile, K and block size");
}
