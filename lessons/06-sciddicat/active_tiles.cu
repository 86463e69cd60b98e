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
// plus 2K cells of border, as in the multi-step version) for every tile the debris has reached;
// every other tile keeps its thickness. A tile is reached for the first launch when a source
// lies within K cells of it (of the tile, or of the edge or corner it shares with a neighbour),
// and for launch n + 1 when a source lies within 2K cells of it at the start of launch n
// (2K <= TX, TY, so the eight neighbours cover the reach). So each launch finds the tiles of the
// next one, and early: as soon as a block has loaded its tile, a few of its threads look at the
// tile and its eight neighbours while the others start the steps. No block scans the grid, so a
// thousand dry tiles cost nothing.
//
// A reached tile takes the next free slot and keeps it: it is computed at every later launch,
// by the same block (slot s goes to block s % blocks). Three things follow. A block knows its
// tile, and reads the altitude of its region, before the previous launch has finished. Nothing
// is listed per launch or cleared afterwards. And the two thickness buffers, which swap roles at
// every launch, agree on every tile not computed: such a tile has never been computed, and both
// hold its initial values. (A tile whose debris has all left keeps being computed: on a
// landslide that stays where it stops, rarely, and the result is exact either way.)
//
// The launch is persistent: as many blocks as fit on the GPU at once (one per SM for every shape
// here on an H100), each computing the tiles of its slots, one per region (tile plus border); small
// regions come several to a block, up to 1024 threads. A region has one thread per cell: a cell's
// altitude, thickness and outflows stay in its thread's registers, and shared memory holds only
// what the neighbours read. A step is then two barriers: outflows, then mass balance. The
// minimisation is cell_outflows_by_rank: the serial result, with the averages of its rounds
// computed side by side instead of one after the other.
//
// On an H100 most of a launch is the K steps of a tile; the rest is latency: loading the
// region, the gap between launches (the lesson page has the measured phases).
//
#include "sciddicat_gpu.h"

#include "wb/workbook.h"

#include <algorithm>

namespace {

constexpr double kDry = sciddicat::kEpsilon / 2;  // at or below this thickness a cell has no outflow
// Where a tile's sources are: anywhere in it; within reach (K or 2K cells, see source_bits) of its
// north, south, west or east edge.
constexpr unsigned kWet = 1, kNearNorth = 2, kNearSouth = 4, kNearWest = 8, kNearEast = 16;

using sciddicat::in_active_domain;

// The tiles debris can reach, in one device buffer. A reached tile takes the next free slot and
// keeps it to the end of the run; the block that computes a slot is the same at every launch, so
// it can read its tile before the previous launch has finished.
struct TileSlots {
    int* taken;        // slots given so far
    unsigned* placed;  // [capacity]: 1 where the tile has a slot
    int* tile;         // [capacity]: the tile of each slot, -1 while the slot is free
    int capacity;      // tiles of the grid, for the smallest tile shape
};

// The buffer's layout: the count, padded to 16 bytes, the flags, then the slots.
TileSlots slots_in(void* buffer, int capacity) {
    int* taken = static_cast<int*>(buffer);
    unsigned* placed = reinterpret_cast<unsigned*>(taken + 4);
    int* tile = reinterpret_cast<int*>(placed + capacity);
    return {taken, placed, tile, capacity};
}
std::size_t slots_bytes(int capacity) { return (4 + 2 * static_cast<std::size_t>(capacity)) * sizeof(int); }

// Bits of a source at (y, x) inside a tile_x x tile_y tile, for a reach of k cells.
__device__ unsigned source_bits(int y, int x, int tile_x, int tile_y, int k) {
    return kWet | (y < k ? kNearNorth : 0) | (y >= tile_y - k ? kNearSouth : 0) | (x < k ? kNearWest : 0) |
           (x >= tile_x - k ? kNearEast : 0);
}

// Called by nine threads once they know where the sources of `tile` are: thread c = 0..8 looks at
// the neighbour (c / 3 - 1, c % 3 - 1), the tile itself for c = 4, and gives it a slot if those
// sources can reach it (near the shared edge, or near both edges of a shared corner) and it has
// none yet. The first thread to flag a tile gives it the slot.
__device__ void place_reached(int c, int tile, unsigned bits, int tiles_x, int tiles_y, const TileSlots& slots) {
    const int dy = c / 3 - 1, dx = c % 3 - 1;
    const unsigned needed = kWet | (dy < 0 ? kNearNorth : dy > 0 ? kNearSouth : 0) |
                            (dx < 0 ? kNearWest : dx > 0 ? kNearEast : 0);
    const int y = tile / tiles_x + dy, x = tile % tiles_x + dx;
    if ((bits & needed) != needed || y < 0 || y >= tiles_y || x < 0 || x >= tiles_x) return;
    const int reached = y * tiles_x + x;
    if (atomicOr(&slots.placed[reached], 1u) == 0) slots.tile[atomicAdd(slots.taken, 1)] = reached;
}

// Shared memory of one tile's region, one thread per cell: each cell's altitude + thickness
// (what its neighbours' minimisations read) and its four outflows (what their mass balance reads).
// Rows are one value longer than the region, so that a warp walking down a column touches every
// bank once (a row of 8-byte values spans the 32 banks). A block holds as many regions as fit in
// 1024 threads: small tiles then fill one block per SM too.
template <int TX, int TY, int K>
struct Region {
    static constexpr int kHalo = 2 * K, kX = TX + 2 * kHalo, kY = TY + 2 * kHalo, kCells = kX * kY;
    static constexpr int kPitch = kX + 1, kPadded = kY * kPitch;  // values per array
    static constexpr int kPerBlock = 1024 / kCells, kThreads = kPerBlock * kCells;
    static constexpr std::size_t kBytes = 5 * sizeof(double) * kPadded, kBlockBytes = kPerBlock * kBytes;
    static_assert(kX % 2 == 0 && kY % 2 == 0, "rings of cells need an even region");
    static_assert(kCells % 32 == 0 && kPerBlock >= 1, "whole warps per region, at most 1024 threads");
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

// What a thread reads from global memory for its cell of a tile's region.
struct LoadedCell {
    int i, j;      // the cell in the grid
    bool in_grid;  // false outside the grid, and for every cell when the region has no tile
    double z, h;   // altitude and thickness (0 outside)
};

// The cell's place and altitude. The altitude never changes: it may be read before the previous
// launch has finished.
template <int TX, int TY, int K>
__device__ LoadedCell locate_cell(int tile, RegionCell cell, int tiles_x, const double* sz, int rows, int cols) {
    using R = Region<TX, TY, K>;
    LoadedCell v;
    v.i = (tile / tiles_x) * TY - R::kHalo + cell.y;
    v.j = (tile % tiles_x) * TX - R::kHalo + cell.x;
    v.in_grid = tile >= 0 && v.i >= 0 && v.i < rows && v.j >= 0 && v.j < cols;
    v.z = v.in_grid ? sz[static_cast<long>(v.i) * cols + v.j] : 0.0;
    v.h = 0.0;
    return v;
}

// The cell's thickness, written by the previous launch.
__device__ void read_thickness(LoadedCell& v, const double* sh_in, int cols) {
    if (v.in_grid) v.h = sh_in[static_cast<long>(v.i) * cols + v.j];
}

// Both at once, where nothing is left to read before the wait.
template <int TX, int TY, int K>
__device__ LoadedCell load_cell(int tile, RegionCell cell, int tiles_x, const double* sz, const double* sh_in,
                                int rows, int cols) {
    LoadedCell v = locate_cell<TX, TY, K>(tile, cell, tiles_x, sz, rows, cols);
    read_thickness(v, sh_in, cols);
    return v;
}

// Runs `steps` (<= K) steps on the block's tiles, one per region (`tile` < 0: the region has
// none), and writes their thickness; first gives slots to the tiles their sources can reach in
// the next launch. One thread per cell of a region, `cell` being the thread's; a cell's own
// altitude, thickness and outflows stay in its thread's registers. After step s the values are
// exact at 2(s + 1) cells or more from the region's edge, so the tile itself is exact after K
// steps. Returns false, having computed nothing, when no region of the block has a tile.
template <int TX, int TY, int K>
__device__ bool compute_tiles(int tile, RegionCell cell, const LoadedCell& loaded, int tiles_x, int tiles_y,
                              double* sh_out, int rows, int cols, int steps, const TileSlots& slots, double* smem,
                              unsigned* shared_bits) {
    using R = Region<TX, TY, K>;
    double* level = smem;  // altitude + thickness
    double* north = level + R::kPadded;
    double* west = north + R::kPadded;
    double* east = west + R::kPadded;
    double* south = east + R::kPadded;
    const int c = cell.y * R::kPitch + cell.x;  // in shared memory
    const bool updated = loaded.in_grid && in_active_domain(loaded.i, loaded.j, rows, cols);
    const double z = loaded.z;
    double h = loaded.h;
    level[c] = z + h;
    const int y = cell.y - R::kHalo, x = cell.x - R::kHalo;  // in the tile: the first TX * TY threads
    const bool in_tile = y >= 0 && y < TY && x >= 0 && x < TX && loaded.in_grid;
    unsigned bits = in_tile && h > kDry && updated ? source_bits(y, x, TX, TY, 2 * K) : 0u;

    // Each region's bits, ORed over its warps (a warp never spans two regions); the barriers also
    // publish `level`.
    const int region = threadIdx.x / R::kCells;
    if (threadIdx.x % R::kCells == 0) shared_bits[region] = 0;
    __syncthreads();
    bits = __reduce_or_sync(0xffffffffu, bits);
    if (threadIdx.x % 32 == 0 && bits) atomicOr(&shared_bits[region], bits);
    if (!__syncthreads_or(tile >= 0)) return false;
    bits = shared_bits[region];
    // The last nine threads of a region hold cells of its outer ring, which never compute: they
    // wait for the atomics of the slots while the others compute.
    const int placer = threadIdx.x % R::kCells - (R::kCells - 9);
    if (placer >= 0) place_reached(placer, tile, bits, tiles_x, tiles_y, slots);

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

    if (in_tile) sh_out[static_cast<long>(loaded.i) * cols + loaded.j] = h;  // exact now
    return true;
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

// The slot of a region in round r of a block: the first gridDim.x slots go one to each block,
// the next ones to the blocks' second regions, and so on, so that the tiles reached first (the
// densest, where the debris starts) are spread over as many SMs as possible.
template <int REGIONS_PER_BLOCK>
__device__ int slot_of(int round, int region) {
    return (round * REGIONS_PER_BLOCK + region) * static_cast<int>(gridDim.x) + static_cast<int>(blockIdx.x);
}

template <int TX, int TY, int K>
__global__ void __launch_bounds__(Region<TX, TY, K>::kThreads)
    active_tiles_kernel(const double* sz, const double* sh_in, double* sh_out, TileSlots slots, int rows, int cols,
                        int tiles_x, int tiles_y, int steps) {
    using R = Region<TX, TY, K>;
    static_assert(2 * K <= TX && 2 * K <= TY, "the eight neighbouring tiles must cover the 2K-cell reach of the debris");
    __shared__ unsigned shared_bits[R::kPerBlock];
    extern __shared__ double smem[];
    const int region = threadIdx.x / R::kCells;
    const RegionCell cell = region_cell<R::kX, R::kY>(threadIdx.x % R::kCells);  // needs no data
    double* region_smem = smem + region * (R::kBytes / sizeof(double));

    // Round 0. A slot never changes its tile once given, so the tile can be read before the
    // previous launch has finished; a slot given during that launch may still read as free.
    int slot = slot_of<R::kPerBlock>(0, region);
    int tile = slot < slots.capacity ? slots.tile[slot] : -1;
    LoadedCell loaded = locate_cell<TX, TY, K>(tile, cell, tiles_x, sz, rows, cols);
    wait_for_previous_launch();
    const int taken = *slots.taken;
    read_thickness(loaded, sh_in, cols);  // in flight with `taken`
    if (tile < 0 && slot < taken) {  // given during the previous launch
        tile = slots.tile[slot];
        loaded = load_cell<TX, TY, K>(tile, cell, tiles_x, sz, sh_in, rows, cols);
    }
    for (int round = 1;; ++round) {
        if (!compute_tiles<TX, TY, K>(tile, cell, loaded, tiles_x, tiles_y, sh_out, rows, cols, steps, slots,
                                      region_smem, shared_bits))
            return;
        // More tiles than the launch has regions: the block's next slots.
        if (slot_of<R::kPerBlock>(round, 0) >= taken) return;
        slot = slot_of<R::kPerBlock>(round, region);
        tile = slot < taken ? slots.tile[slot] : -1;
        loaded = load_cell<TX, TY, K>(tile, cell, tiles_x, sz, sh_in, rows, cols);
    }
}

// The first slots: the tiles the initial sources can reach. One block per tile, one thread per cell.
__global__ void first_slots_kernel(const double* sh, TileSlots slots, int rows, int cols, int tiles_x, int tiles_y,
                                   int tile_x, int tile_y, int k) {
    __shared__ unsigned shared_bits;
    const int y = threadIdx.x / tile_x, x = threadIdx.x % tile_x;
    const int i = (blockIdx.x / tiles_x) * tile_y + y, j = (blockIdx.x % tiles_x) * tile_x + x;
    unsigned bits = 0;
    if (i < rows && j < cols && in_active_domain(i, j, rows, cols) && sh[static_cast<long>(i) * cols + j] > kDry)
        bits = source_bits(y, x, tile_x, tile_y, k);
    if (threadIdx.x == 0) shared_bits = 0;
    __syncthreads();
    if (bits) atomicOr(&shared_bits, bits);
    __syncthreads();
    if (threadIdx.x < 9) place_reached(threadIdx.x, blockIdx.x, shared_bits, tiles_x, tiles_y, slots);
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
                                           static_cast<int>(R::kBlockBytes)));
        int device = 0, sms = 0;
        WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit.per_sm, active_tiles_kernel<TX, TY, K>,
                                                                    R::kThreads, R::kBlockBytes));
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
void launch_active(const GpuGrid& g, const TileSlots& slots, const double* in, double* out, int steps,
                   cudaStream_t stream) {
    using R = Region<TX, TY, K>;
    const Residency fit = residency<TX, TY, K>();
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(fit.blocks);
    config.blockDim = dim3(R::kThreads);
    config.dynamicSmemBytes = R::kBlockBytes;
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
                                     slots, g.rows, g.cols, tiles_along(g.cols, TX), tiles_along(g.rows, TY),
                                     steps));
    WB_CHECK_LAUNCH("active_tiles_kernel");
}

// The instantiated kernels: tile, steps per launch, threads per block (the cells of its regions).
using Launcher = void (*)(const GpuGrid&, const TileSlots&, const double*, double*, int, cudaStream_t);
template <int TX, int TY, int K>
int regions_at_once() {
    return residency<TX, TY, K>().blocks * Region<TX, TY, K>::kPerBlock;
}
struct Instance {
    MultistepShape shape;
    Launcher launch;
    int (*regions)();
};
template <int TX, int TY, int K>
constexpr Instance instance() {
    return {{TX, TY, K, Region<TX, TY, K>::kThreads}, launch_active<TX, TY, K>, regions_at_once<TX, TY, K>};
}

const Instance kInstances[] = {instance<20, 8, 3>(), instance<16, 12, 3>(), instance<12, 8, 3>(),
                               instance<16, 8, 2>(),  instance<8, 8, 2>(),   instance<16, 16, 4>()};

// The kernel of a shape from active_tile_shapes().
const Instance& instance_for(const MultistepShape& shape) {
    for (const Instance& instance : kInstances) {
        const MultistepShape& m = instance.shape;
        if (m.tile_x == shape.tile_x && m.tile_y == shape.tile_y && m.k == shape.k && m.threads == shape.threads)
            return instance;
    }
    wb::usage_error("active tiles: no kernel for this tile, K and block size");
}

// Slots: the tiles of the grid for the shape with the most tiles.
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

std::size_t active_tile_state_bytes(int rows, int cols) { return slots_bytes(most_tiles(rows, cols)); }

void active_tiles_prepare(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, cudaStream_t stream) {
    const std::size_t n = static_cast<std::size_t>(g.rows) * g.cols;
    // Tiles never computed are read from either buffer: both must hold the initial thickness.
    WB_CUDA_CHECK(cudaMemcpyAsync(g.sh_next, g.sh, n * sizeof(double), cudaMemcpyDeviceToDevice, stream));
    const int capacity = most_tiles(g.rows, g.cols);
    const TileSlots slots = slots_in(s.slots, capacity);
    WB_CUDA_CHECK(cudaMemsetAsync(s.slots, 0, slots_bytes(capacity), stream));  // no tile placed
    WB_CUDA_CHECK(cudaMemsetAsync(slots.tile, 0xff, capacity * sizeof(int), stream));  // every slot free (-1)
    const int tiles_x = tiles_along(g.cols, shape.tile_x), tiles_y = tiles_along(g.rows, shape.tile_y);
    first_slots_kernel<<<tiles_x * tiles_y, shape.tile_x * shape.tile_y, 0, stream>>>(
        g.sh, slots, g.rows, g.cols, tiles_x, tiles_y, shape.tile_x, shape.tile_y, shape.k);
    WB_CHECK_LAUNCH("first_slots_kernel");
}

void active_tiles_launch(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s, const double* in,
                         double* out, int steps, cudaStream_t stream) {
    instance_for(shape).launch(g, slots_in(s.slots, most_tiles(g.rows, g.cols)), in, out, steps, stream);
}

ActiveTileCounts active_tiles_counts(const GpuGrid& g, const MultistepShape& shape, const ActiveTileState& s) {
    ActiveTileCounts counts;
    WB_CUDA_CHECK(cudaMemcpy(&counts.reached, slots_in(s.slots, most_tiles(g.rows, g.cols)).taken, sizeof(int),
                             cudaMemcpyDeviceToHost));
    counts.regions = instance_for(shape).regions();
    return counts;
}
