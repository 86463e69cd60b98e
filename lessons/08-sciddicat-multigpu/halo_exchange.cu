// Lesson 08 exercise: split the rows among the ranks, then exchange the halo rows.
// Check with:  scripts/check 08-sciddicat-multigpu   (rebuilds, then runs the check)
#include "decomposition.h"

#include "wb/nccl_check.h"

RowRange rows_of_rank(int rank, int ranks, int rows) {
    // >>> TODO 1: contiguous blocks of rows, sizes differing by at most one, covering every row
    // Rank 0 starts at row 0, each rank starts where the previous one ends, the last one ends
    // at `rows`, and no two ranks' shares differ by more than one row.
    (void)rank;
    (void)ranks;
    (void)rows;
    return RowRange{0, 0};
    // <<< TODO 1
}

void exchange_halos(const Subdomain& sub, double* thickness, ncclComm_t comm, cudaStream_t stream) {
    const size_t halo_values = static_cast<size_t>(kHaloRows) * sub.cols;
    const int first_owned = kHaloRows;                     // local index of the first owned row
    const int lower_halo = kHaloRows + sub.owned.count();  // local index of the lower halo
    // >>> TODO 2: each rank sends its edge rows to its neighbours and receives their edge rows
    // After the exchange, each halo holds the neighbour's owned rows next to it: the upper
    // halo (local rows 0 .. kHaloRows-1) the last owned rows of the rank above, the lower
    // halo the first owned rows of the rank below; a rank at the top or the bottom of the grid
    // has no neighbour there. Every rank sends while it receives, so the calls must not wait
    // for one another (NCCL's group calls); every NCCL call is checked (wb/nccl_check.h), and
    // sub.row(thickness, local_row) gives the address of a local row.
    (void)halo_values;
    (void)first_owned;
    (void)lower_halo;
    (void)thickness;
    (void)comm;
    (void)stream;
    // <<< TODO 2
}
