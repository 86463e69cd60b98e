// Lesson 08 exercise: split the rows among the ranks, then exchange the halo rows.
// Check with:  scripts/check 08-sciddicat-multigpu   (rebuilds, then runs the check)
#include "decomposition.h"

#include "wb/nccl_check.h"

RowRange rows_of_rank(int rank, int ranks, int rows) {
    // >>> TODO 1: contiguous blocks of rows, sizes differing by at most one, covering every row
    // Give each rank rows / ranks rows, and one more to the first rows % ranks ranks, so that
    // rank 0 starts at row 0, each rank starts where the previous one ends, and the last one
    // ends at `rows`.
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
    // Inside one ncclGroupStart() / ncclGroupEnd() pair (so the sends and receives cannot
    // deadlock each other):
    // - if there is a rank above (sub.rank > 0): send the first kHaloRows owned rows to it,
    //   and receive its last owned rows into the upper halo (local rows 0 .. kHaloRows-1);
    // - if there is a rank below: send the last kHaloRows owned rows to it, and receive its
    //   first owned rows into the lower halo.
    // ncclSend(ptr, halo_values, ncclDouble, peer, comm, stream), likewise ncclRecv; wrap each
    // call in WB_NCCL_CHECK. Use sub.row(thickness, local_row) for the pointers.
    (void)halo_values;
    (void)first_owned;
    (void)lower_halo;
    (void)thickness;
    (void)comm;
    (void)stream;
    // <<< TODO 2
}
