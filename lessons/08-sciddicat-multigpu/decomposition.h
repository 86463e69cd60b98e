/// @file decomposition.h
/// @brief Lesson 08: splitting the SciddicaT grid by rows across MPI ranks.
#pragma once

#include <nccl.h>

#include <cuda_runtime.h>

/// Rows of halo kept above and below each rank's own rows. One fused SciddicaT step updates
/// a cell from the outflows of its neighbours, and those outflows depend on the neighbours'
/// neighbours: a cell two rows away still matters, so two rows of halo are needed.
constexpr int kHaloRows = 2;

/// Fewest rows a rank is given: its kHaloRows top and bottom edge rows never overlap.
constexpr int kMinRowsPerRank = 2 * kHaloRows;

/// A half-open range of global row indices [begin, end).
struct RowRange {
    int begin = 0;  ///< first row
    int end = 0;    ///< one past the last row
    /// Number of rows in the range.
    int count() const { return end - begin; }
};

/// The rows of the global grid that rank `rank` of `ranks` owns: contiguous blocks that
/// together cover [0, rows) exactly once, in rank order, as even as possible (sizes differ
/// by at most one row).
RowRange rows_of_rank(int rank, int ranks, int rows);

/// One rank's piece of the grid on its GPU. The local buffers hold, in this order,
/// kHaloRows halo rows, the owned rows, kHaloRows halo rows; each row has `cols` values.
struct Subdomain {
    int rank = 0;         ///< this rank
    int ranks = 1;        ///< number of ranks
    int global_rows = 0;  ///< rows of the whole grid
    int cols = 0;         ///< columns (the same on every rank)
    RowRange owned;       ///< global rows this rank updates and reports
    /// Rows in the local buffers, halos included.
    int local_rows() const { return owned.count() + 2 * kHaloRows; }
    /// Pointer to local row `local_row` of a local buffer.
    double* row(double* buffer, int local_row) const { return buffer + static_cast<long>(local_row) * cols; }
};

/// Fills the halo rows of `thickness` (a local buffer on this rank's GPU) with the current
/// values of the neighbouring ranks' edge rows, and sends this rank's edge rows to them,
/// through NCCL on `stream`. Rank 0 has no neighbour above and the last rank none below.
void exchange_halos(const Subdomain& sub, double* thickness, ncclComm_t comm, cudaStream_t stream);
