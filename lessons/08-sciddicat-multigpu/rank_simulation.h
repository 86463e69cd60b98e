/// @file rank_simulation.h
/// @brief Lesson 08: one rank's share of the SciddicaT run, its band of rows on its GPU and the
/// step that exchanges the halo rows (overlapped with the interior rows, or before them).
#pragma once

#include "decomposition.h"

#include "sciddicat/device_grid.h"
#include "wb/cuda_graph.h"
#include "wb/device_buffer.h"

#include <vector>

/// The device buffers of one rank (its owned rows plus kHaloRows halo rows above and below)
/// and the two streams that update them.
class RankSimulation {
public:
    /// Uploads this rank's band of the global sz and sh (rows x cols); `comm` may be null when
    /// sub.ranks == 1. With `overlap`, each step exchanges the halos while the interior is updated.
    RankSimulation(const Subdomain& sub, const std::vector<double>& sz, const std::vector<double>& sh, ncclComm_t comm,
                   bool overlap);
    ~RankSimulation();
    RankSimulation(const RankSimulation&) = delete;
    RankSimulation& operator=(const RankSimulation&) = delete;

    /// Enqueues `steps` steps; returns at once.
    void run(int steps);
    /// Only the kernels (halos left stale): the compute part of a step, for timing.
    void run_compute_only(int steps);
    /// Only the halo exchanges: the communication part of a step, for timing.
    void run_exchange_only(int steps);
    /// The stream that ends every step.
    cudaStream_t stream() const { return compute_.get(); }
    /// The owned rows of the thickness, copied to the host once the steps are done.
    std::vector<double> owned_thickness();

private:
    void upload_band(const std::vector<double>& global, wb::DeviceBuffer<double>& band);
    void update_rows(int begin, int end, cudaStream_t stream);
    void exchange(cudaStream_t stream);
    void step();

    Subdomain sub_;
    ncclComm_t comm_;
    bool overlap_;
    wb::DeviceBuffer<double> sz_, sh_, sh_next_;
    sciddicat::DeviceGrid grid_;  // the view of the band: sh and sh_next swap after each step
    wb::Stream compute_, halo_;
    cudaEvent_t inputs_ready_ = nullptr, edges_done_ = nullptr;
};
