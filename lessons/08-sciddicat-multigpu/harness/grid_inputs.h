/// @file grid_inputs.h
/// @brief Lesson 08 harness: a grid the ranks run, its name and initial state (thickness and
/// altitude), from a terrain or a synthetic one.
#pragma once

#include "sciddicat/grid_io.h"  // Terrain

#include <cstdint>
#include <string>
#include <vector>

/// A grid the ranks run: its name in the output, its size and its initial state.
struct Inputs {
    std::string name;
    int rows = 0, cols = 0;
    std::vector<double> sz, sh;
};

/// The initial state of `terrain`, named after it.
Inputs make_inputs(const sciddicat::Terrain& terrain);

/// The synthetic terrain of rows x cols made from `seed`, named "synthetic ROWSxCOLS".
Inputs synthetic_inputs(int rows, int cols, std::uint64_t seed);
