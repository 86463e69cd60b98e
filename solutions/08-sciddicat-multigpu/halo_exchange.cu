// Lesson 08 reference solution: row decomposition and halo exchange.
#include "decomposition.h"

#include "wb/nccl_check.h"

RowRange rows_of_rank(int rank, int ranks, int rows) {
    // >>> TODO 1: contiguous blocks of rows, sizes differing by at most one, covering every row
    const int base = rows / ranks;
    const int extra = rows % ranks;  // the first `extra` ranks own one more row
    const int begin = rank * base + (rank < extra ? rank : extra);
    const int count = base + (rank < extra ? 1 : 0);
    return RowRange{begin, begin + count};
    // <<< TODO 1
}

void exchange_halos(const Subdomain& sub, double* thickness, ncclComm_t comm, cudaStream_t stream) {
    const size_t halo_values = static_cast<size_t>(kHaloRows) * sub.cols;
    const int first_owned = kHaloRows;                     // local index of the first owned row
    const int lower_halo = kHaloRows + sub.owned.count();  // local index of the lower halo
    // >>> TODO 2: each rank sends its edge rows to its neighbours and receives their edge rows
    const int last_owned = lower_halo - kHaloRows;  // first of the last kHaloRows owned rows

    // Grouped, the four calls are issued together: NCCL pairs each send with the matching
    // receive on the neighbour, whatever order the ranks reach this point in.
    WB_NCCL_CHECK(ncclGroupStart());
    if (sub.rank > 0) {
        const int above = sub.rank - 1;
        WB_NCCL_CHECK(ncclSend(sub.row(thickness, first_owned), halo_values, ncclDouble, above, comm, stream));
        WB_NCCL_CHECK(ncclRecv(sub.row(thickness, 0), halo_values, ncclDouble, above, comm, stream));
    }
    if (sub.rank < sub.ranks - 1) {
        const int below = sub.rank + 1;
        WB_NCCL_CHECK(ncclSend(sub.row(thickness, last_owned), halo_values, ncclDouble, below, comm, stream));
        WB_NCCL_CHECK(ncclRecv(sub.row(thickness, lower_halo), halo_values, ncclDouble, below, comm, stream));
    }
    WB_NCCL_CHECK(ncclGroupEnd());
    // <<< TODO 2
}
