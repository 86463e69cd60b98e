// Lesson 10 exercise: which tiles the debris can reach in the next launch. active_tiles.cu
// includes this file; the rest of the kernel is given.
// Check your work with:  scripts/check 10-sciddicat-active-tiles   (rebuilds, then runs the check)
// The lesson page has the idea, the contract of each function and the hints.
#pragma once

// Where a tile's sources are, as bits of one unsigned: anywhere in it (kWet); within reach of its
// north, south, west or east edge (the reach is K cells for the first launch, 2K afterwards).
constexpr unsigned kWet = 1, kNearNorth = 2, kNearSouth = 4, kNearWest = 8, kNearEast = 16;

// The tiles debris can reach, in one device buffer (see active_tiles.cu). A reached tile takes
// the next free slot and keeps it to the end of the run.
struct TileSlots {
    int* taken;        // slots given so far
    unsigned* placed;  // [capacity]: 1 where the tile has a slot
    int* tile;         // [capacity]: the tile of each slot, -1 while the slot is free
    int capacity;      // tiles of the grid, for the smallest tile shape
};

// The bits of a source at row y, column x of a tile_x x tile_y tile, for a reach of `reach` cells.
__device__ inline unsigned source_bits(int y, int x, int tile_x, int tile_y, int reach) {
    // >>> TODO 1: a source makes its tile wet, and is near every edge that lies within reach
    // Every source is wet (kWet). Add kNearNorth when debris starting at (y, x) can leave the
    // tile through its north edge within `reach` steps, moving one cell per step (row 0 is the
    // tile's north row); kNearSouth, kNearWest and kNearEast likewise for the other edges. A
    // source may be near two edges (a corner) or, in a small tile, near all four.
    (void)y;
    (void)x;
    (void)tile_x;
    (void)tile_y;
    (void)reach;
    return 0u;  // placeholder: no cell is ever a source, so no tile is ever computed
    // <<< TODO 1
}

// Called by nine threads once they know where the sources of `tile` are (`bits`, the OR of
// source_bits over its cells): thread c = 0..8 looks at the neighbour (c / 3 - 1, c % 3 - 1),
// the tile itself for c = 4, and gives it a slot if those sources can reach it and it has none
// yet.
__device__ inline void place_reached(int c, int tile, unsigned bits, int tiles_x, int tiles_y, const TileSlots& slots) {
    const int dy = c / 3 - 1, dx = c % 3 - 1;
    // >>> TODO 2: a neighbour is reached when the tile is wet and has sources near every edge the two share
    // `needed`: the bits that `bits` must all hold for the tile at (dy, dx) from this one to be
    // reached (dy < 0: a tile to the north; dx < 0: a tile to the west). The tile itself (dy = dx
    // = 0) is reached when it is wet. Debris enters a neighbour only through the edge, or the
    // corner, that the two tiles share.
    const unsigned needed = ~0u;  // placeholder: more bits than any tile holds, so nothing is reached
    // <<< TODO 2
    const int y = tile / tiles_x + dy, x = tile % tiles_x + dx;
    if ((bits & needed) != needed || y < 0 || y >= tiles_y || x < 0 || x >= tiles_x) return;
    const int reached = y * tiles_x + x;
    // >>> TODO 3: the first thread that flags a reached tile gives it the next free slot, once for the run
    // Several threads, of this tile and of its neighbours' launches, may reach the same tile at
    // once, and later launches reach it again: it must take exactly one slot. slots.placed[t]
    // is 0 until tile t is flagged; *slots.taken counts the slots given so far.
    (void)reached;
    (void)slots;
    // <<< TODO 3
}
