/// @file ranks.h
/// @brief Lesson 08 harness: the MPI processes (ranks), the GPU each one uses, the NCCL
/// communicator that joins them, and timing across ranks.
#pragma once

#include "wb/device.h"
#include "wb/lesson.h"
#include "wb/nccl_check.h"
#include "wb/timer.h"

#include <mpi.h>
#include <nccl.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

/// Where this process stands among the ranks.
struct World {
    int rank = 0;           ///< this rank
    int ranks = 1;          ///< ranks in MPI_COMM_WORLD
    int local_rank = 0;     ///< rank among the processes of this node
    int ranks_on_node = 1;  ///< processes on this node
    /// Rank 0 prints, gathers and judges.
    bool root() const { return rank == 0; }
};

/// Starts MPI (before anything else in main) and learns where this rank stands.
void start_ranks(int* argc, char*** argv);
/// This process's place among the ranks (after start_ranks).
const World& world();
/// Ends MPI and returns `code`, for main to return. Every rank must reach it with the same code:
/// mpirun reports the run as failed when the exit codes differ.
int end_ranks(int code);

/// True when `mine` is true on every rank.
bool all_ranks_agree(bool mine);
/// Rank 0's `value`, on every rank.
int from_root(int value);
/// Rank 0 prints the tally's verdict (wb::CheckTally::finish); every rank returns its exit code.
int verdict_of_root(const wb::CheckTally& tally, const std::string& passed_what);

/// Seconds a rank waits for its steps (and so for the halo exchanges in them) before it gives up;
/// --exchange-timeout sets it.
void set_exchange_timeout(double seconds);
/// Waits for `stream` like cudaStreamSynchronize, but a mismatched exchange (a receive of fewer
/// values than the neighbour sends, a send nobody receives) never ends: after the timeout every
/// rank stops with a message that names the likely cause, instead of hanging.
void wait_for_exchanges(cudaStream_t stream);

/// This rank's GPU: local rank mod GPUs of the node. Every rank exits 77 (skipped) unless each
/// rank of the node has a GPU of its own; with no usable GPU at all, wb::require_gpu decides.
wb::DeviceInfo choose_gpu();

/// The NCCL communicator of all ranks (rank 0 creates the id, MPI broadcasts it), destroyed with
/// its owner.
class NcclComm {
public:
    NcclComm();
    ~NcclComm();
    NcclComm(const NcclComm&) = delete;
    NcclComm& operator=(const NcclComm&) = delete;
    ncclComm_t get() const { return comm_; }  ///< the communicator

private:
    ncclComm_t comm_ = nullptr;
};

/// Times the work `enqueue()` puts on `stream`, on every rank of `comm` at once: one warm-up,
/// then `repeats` runs, each started together (a barrier) and counted at the slowest rank's time.
template <class F>
wb::TimingStats time_slowest_rank(MPI_Comm comm, int repeats, cudaStream_t stream, F&& enqueue) {
    std::vector<double> samples;
    wb::GpuTimer timer(stream);
    for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up
        WB_MPI_CHECK(MPI_Barrier(comm));
        timer.start();
        enqueue();
        double ms = timer.stop_ms(), slowest = 0.0;
        WB_MPI_CHECK(MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm));
        if (r >= 0) samples.push_back(slowest);
    }
    return wb::summarize(samples);
}
