// Lesson 08 harness: MPI ranks, their GPUs and the NCCL communicator.
#include "harness/ranks.h"

#include "wb/cuda_check.h"
#include "wb/exit_codes.h"

#include <cstdio>
#include <cstdlib>

#include <unistd.h>

namespace {

World the_world;

// Ends MPI and exits with `code` at once; every rank must call it.
[[noreturn]] void exit_all_ranks(int code) { std::exit(end_ranks(code)); }

}  // namespace

void start_ranks(int* argc, char*** argv) {
    WB_MPI_CHECK(MPI_Init(argc, argv));
    WB_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &the_world.rank));
    WB_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &the_world.ranks));
    MPI_Comm node;
    WB_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, the_world.rank, MPI_INFO_NULL, &node));
    WB_MPI_CHECK(MPI_Comm_rank(node, &the_world.local_rank));
    WB_MPI_CHECK(MPI_Comm_size(node, &the_world.ranks_on_node));
    WB_MPI_CHECK(MPI_Comm_free(&node));
}

const World& world() { return the_world; }

namespace {
double exchange_timeout_s = 10.0;
}  // namespace

void set_exchange_timeout(double seconds) { exchange_timeout_s = seconds; }

void wait_for_exchanges(cudaStream_t stream) {
    const wb::WallTimer timer;
    cudaError_t status = cudaStreamQuery(stream);
    while (status == cudaErrorNotReady) {
        if (timer.elapsed_ms() > 1e3 * exchange_timeout_s) {
            std::fprintf(stderr,
                         "error: rank %d: the halo exchange did not finish within %g s. Does every send have a "
                         "matching receive of the same count on the neighbour (and every receive a send)?\n",
                         the_world.rank, exchange_timeout_s);
            std::fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, wb::kExitCheckFailed);
        }
        usleep(1000);
        status = cudaStreamQuery(stream);
    }
    WB_CUDA_CHECK(status);
}

int end_ranks(int code) {
    std::fflush(stdout);
    MPI_Finalize();
    return code;
}

bool all_ranks_agree(bool mine) {
    int local = mine ? 1 : 0, all = 0;
    WB_MPI_CHECK(MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    return all == 1;
}

int from_root(int value) {
    WB_MPI_CHECK(MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD));
    return value;
}

int verdict_of_root(const wb::CheckTally& tally, const std::string& passed_what) {
    return from_root(the_world.root() ? tally.finish(passed_what) : 0);
}

wb::DeviceInfo choose_gpu() {
    std::string why;
    int gpus = 0;
    const bool usable = wb::gpu_available(&why) && cudaGetDeviceCount(&gpus) == cudaSuccess;
    const bool enough = usable && gpus >= the_world.ranks_on_node;
    if (!all_ranks_agree(enough)) {
        if (!usable) {
            // No GPU here at all: wb::require_gpu says why and exits, 77 (skipped) or 3 where the
            // environment requires a GPU (WB_REQUIRE_GPU=1). It exits at once, so MPI ends first.
            end_ranks(wb::kExitNoGpu);
            wb::require_gpu();
            std::exit(wb::kExitNoGpu);  // only if a GPU appeared in the meantime
        }
        if (the_world.root())
            std::printf("SKIP: %d ranks on this node but only %d GPU(s): one GPU per rank is needed\n",
                        the_world.ranks_on_node, gpus);
        exit_all_ranks(wb::kExitNoGpu);
    }
    return wb::require_gpu(the_world.local_rank % gpus);
}

NcclComm::NcclComm() {
    ncclUniqueId id;
    if (the_world.root()) WB_NCCL_CHECK(ncclGetUniqueId(&id));
    WB_MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    WB_NCCL_CHECK(ncclCommInitRank(&comm_, the_world.ranks, id, the_world.rank));
}

NcclComm::~NcclComm() {
    if (comm_) WB_NCCL_CHECK(ncclCommDestroy(comm_));
}
