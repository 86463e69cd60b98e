/// @file terrain.h
/// @brief SciddicaT inputs: the synthetic terrain and the initial state of a run.
#pragma once

#include "sciddicat/grid_io.h"  // Terrain

#include <cstdint>
#include <vector>

namespace sciddicat {

/// A synthetic terrain: a slope falling from north to south into a plain, with seeded relief,
/// two valleys, a rim along the edges (debris never reaches the border ring, so the volume is
/// conserved) and an elliptical debris source near the top (the DEM includes the debris body).
Terrain make_synthetic_terrain(int rows, int cols, std::uint64_t seed);

/// Initialisation: Sz = dem - source where source > 0 (active domain only), Sh = source.
void initial_state(const Terrain& terrain, std::vector<double>& sz, std::vector<double>& sh);

}  // namespace sciddicat
