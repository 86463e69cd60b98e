/// @file distributed_check.h
/// @brief Lesson 08 harness: the parts of the check that know nothing of the GPU steps (the row
/// decomposition on the CPU, gathering the ranks' rows, the model's invariants).
#pragma once

#include "sciddicat/grid_io.h"  // Terrain
#include "wb/args.h"

#include <vector>

/// The --sizes of a run with `ranks` ranks: one grid ROWSxCOLS, enough rows for every rank, at most
/// 2^31 cells; anything else is a usage error (the driver declares the least side, 3).
void validate_grid_sizes(const wb::Options& options, int ranks);

/// Adds debris across every boundary between the ranks' rows when the grid is split over
/// `ranks` ranks: 2 m over the middle third of the columns, three rows each side of each
/// boundary (to the source and to the DEM, which includes the debris). From the first step the
/// flow crosses every boundary, so a rank whose halos are not exchanged computes wrong cells.
void add_debris_across_boundaries(sciddicat::Terrain& terrain, int ranks);

/// rows_of_rank for 1 to 8 ranks and rows from 4 to 16384: every row owned by one rank, in rank
/// order, block sizes differing by at most one (cases with fewer than kMinRowsPerRank rows per
/// rank are left out). Prints each wrong case and, with `verbose`, a summary line.
bool check_decomposition(bool verbose);

/// Every rank's owned rows (`mine`, rows_of_rank of this rank) of a rows x cols grid, collected
/// on rank 0 in row order; other ranks get an empty vector.
std::vector<double> gather_rows(const std::vector<double>& mine, int rows, int cols);

/// Volume conserved (relative change at most 1e-9), border ring unchanged, no thickness below
/// -1e-12; prints one line. `initial` and `result` are rows x cols.
bool check_invariants(const std::vector<double>& initial, const std::vector<double>& result, int rows, int cols);
