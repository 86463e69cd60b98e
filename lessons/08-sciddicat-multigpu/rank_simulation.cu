// Lesson 08: one rank's band of the SciddicaT grid and the step that keeps its halos current.
#include "rank_simulation.h"

#include "harness/ranks.h"

#include "sciddicat/fused.h"
#include "wb/cuda_check.h"
#include "wb/device.h"

#include <utility>

namespace {

// The band's cells; runs before any buffer is allocated, so that a band too large for the
// device ends in a clear message instead of a failed cudaMalloc.
std::size_t band_cells(const Subdomain& sub) {
    const std::size_t cells = static_cast<std::size_t>(sub.local_rows()) * sub.cols;
    wb::require_device_memory(3 * cells * sizeof(double), "this rank's share of the grid");
    return cells;
}

}  // namespace

RankSimulation::RankSimulation(const Subdomain& sub, const std::vector<double>& sz, const std::vector<double>& sh,
                               ncclComm_t comm, bool overlap)
    : sub_(sub), comm_(comm), overlap_(overlap), sz_(band_cells(sub)), sh_(sz_.count()), sh_next_(sz_.count()) {
    upload_band(sz, sz_);
    upload_band(sh, sh_);
    WB_CUDA_CHECK(cudaMemcpy(sh_next_.get(), sh_.get(), sh_.bytes(), cudaMemcpyDeviceToDevice));
    grid_.rows = sub.local_rows();
    grid_.cols = sub.cols;
    grid_.first_row = sub.owned.begin - kHaloRows;
    grid_.global_rows = sub.global_rows;
    grid_.sz = sz_.get();
    grid_.sh = sh_.get();
    grid_.sh_next = sh_next_.get();
    WB_CUDA_CHECK(cudaEventCreateWithFlags(&inputs_ready_, cudaEventDisableTiming));
    WB_CUDA_CHECK(cudaEventCreateWithFlags(&edges_done_, cudaEventDisableTiming));
    // The copies above ran on the default stream, which the non-blocking streams do not wait for.
    WB_CUDA_CHECK(cudaDeviceSynchronize());
}

RankSimulation::~RankSimulation() {
    cudaEventDestroy(inputs_ready_);
    cudaEventDestroy(edges_done_);
}

void RankSimulation::run(int steps) {
    for (int s = 0; s < steps; ++s) step();
}

void RankSimulation::run_compute_only(int steps) {
    for (int s = 0; s < steps; ++s) {
        update_rows(kHaloRows, kHaloRows + sub_.owned.count(), compute_.get());
        std::swap(grid_.sh, grid_.sh_next);
    }
}

void RankSimulation::run_exchange_only(int steps) {
    for (int s = 0; s < steps; ++s) exchange(compute_.get());
}

std::vector<double> RankSimulation::owned_thickness() {
    wait_for_exchanges(compute_.get());
    std::vector<double> owned(static_cast<std::size_t>(sub_.owned.count()) * sub_.cols);
    WB_CUDA_CHECK(
        cudaMemcpy(owned.data(), sub_.row(grid_.sh, kHaloRows), owned.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return owned;
}

// Copies global rows owned.begin-kHaloRows .. owned.end+kHaloRows-1 into the band; rows outside
// the grid (above row 0, below the last) stay zero: no step reads them.
void RankSimulation::upload_band(const std::vector<double>& global, wb::DeviceBuffer<double>& band) {
    const std::size_t row_bytes = static_cast<std::size_t>(sub_.cols) * sizeof(double);
    band.zero();
    for (int b = 0; b < sub_.local_rows(); ++b) {
        const int global_row = sub_.owned.begin - kHaloRows + b;
        if (global_row < 0 || global_row >= sub_.global_rows) continue;
        const double* source = global.data() + static_cast<std::size_t>(global_row) * sub_.cols;
        WB_CUDA_CHECK(cudaMemcpy(sub_.row(band.get(), b), source, row_bytes, cudaMemcpyHostToDevice));
    }
}

// One fused step (checked launch) for band rows [begin, end), from sh into sh_next.
void RankSimulation::update_rows(int begin, int end, cudaStream_t stream) {
    sciddicat::launch_fused_step(grid_, grid_.sh, grid_.sh_next, begin, end, stream);
}

void RankSimulation::exchange(cudaStream_t stream) {
    if (sub_.ranks > 1) exchange_halos(sub_, grid_.sh, comm_, stream);
}

// One step. With overlap, the rows that need no halo are updated on the compute stream while
// the halo stream exchanges the edge rows and then updates the rows next to them.
void RankSimulation::step() {
    const int first = kHaloRows, last = kHaloRows + sub_.owned.count();
    const cudaStream_t compute = compute_.get(), halo = halo_.get();
    if (!overlap_ || sub_.ranks == 1) {
        exchange(compute);
        update_rows(first, last, compute);
    } else {
        WB_CUDA_CHECK(cudaEventRecord(inputs_ready_, compute));
        WB_CUDA_CHECK(cudaStreamWaitEvent(halo, inputs_ready_, 0));
        exchange(halo);
        update_rows(first, first + kHaloRows, halo);
        update_rows(last - kHaloRows, last, halo);
        update_rows(first + kHaloRows, last - kHaloRows, compute);
        WB_CUDA_CHECK(cudaEventRecord(edges_done_, halo));
        WB_CUDA_CHECK(cudaStreamWaitEvent(compute, edges_done_, 0));
    }
    std::swap(grid_.sh, grid_.sh_next);
}
