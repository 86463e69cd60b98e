// Lesson 08 harness: the grids the ranks run (see grid_inputs.h).
#include "harness/grid_inputs.h"

#include "sciddicat/terrain.h"

Inputs make_inputs(const sciddicat::Terrain& terrain) {
    Inputs in{terrain.name, terrain.header.rows, terrain.header.cols, {}, {}};
    sciddicat::initial_state(terrain, in.sz, in.sh);
    return in;
}

Inputs synthetic_inputs(int rows, int cols, std::uint64_t seed) {
    Inputs in = make_inputs(sciddicat::make_synthetic_terrain(rows, cols, seed));
    in.name = "synthetic " + std::to_string(rows) + "x" + std::to_string(cols);
    return in;
}
