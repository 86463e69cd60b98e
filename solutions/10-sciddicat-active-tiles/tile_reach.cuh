// Lesson 10 reference solution: which tiles the debris can reach in the next launch.
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
    return kWet | (y < reach ? kNearNorth : 0) | (y >= tile_y - reach ? kNearSouth : 0) | (x < reach ? kNearWest : 0) |
           (x >= tile_x - reach ? kNearEast : 0);
    // <<< TODO 1
}

// Called by nine threads once they know where the sources of `tile` are (`bits`, the OR of
// source_bits over its cells): thread c = 0..8 looks at the neighbour (c / 3 - 1, c % 3 - 1),
// the tile itself for c = 4, and gives it a slot if those sources can reach it and it has none
// yet.
__device__ inline void place_reached(int c, int tile, unsigned bits, int tiles_x, int tiles_y, const TileSlots& slots) {
    const int dy = c / 3 - 1, dx = c % 3 - 1;
    // >>> TODO 2: a neighbour is reached when the tile is wet and has sources near every edge the two share
    const unsigned needed = kWet |
                            (dy < 0   ? kNearNorth
                             : dy > 0 ? kNearSouth
                                      : 0) |
                            (dx < 0   ? kNearWest
                             : dx > 0 ? kNearEast
                                      : 0);
    // <<< TODO 2
    const int y = tile / tiles_x + dy, x = tile % tiles_x + dx;
    if ((bits & needed) != needed || y < 0 || y >= tiles_y || x < 0 || x >= tiles_x) return;
    const int reached = y * tiles_x + x;
    // >>> TODO 3: the first thread that flags a reached tile gives it the next free slot, once for the run
    if (atomicOr(&slots.placed[reached], 1u) == 0) slots.tile[atomicAdd(slots.taken, 1)] = reached;
    // <<< TODO 3
}
