// The device buffers of one SciddicaT terrain.
#include "sciddicat/device_grid.h"

#include "wb/cuda_check.h"
#include "wb/device.h"

namespace sciddicat {

namespace {

// sz, sh, sh_next and four outflow layers.
constexpr std::size_t kDoublesPerCell = 7;

std::size_t cells_of(int rows, int cols) { return static_cast<std::size_t>(rows) * cols; }

// Runs before any buffer is allocated: a clear message instead of a failed cudaMalloc.
std::size_t checked_cells(int rows, int cols) {
    wb::require_device_memory(kDoublesPerCell * cells_of(rows, cols) * sizeof(double), "SciddicaT state");
    return cells_of(rows, cols);
}

}  // namespace

DeviceTerrain::DeviceTerrain(const std::vector<double>& sz, const std::vector<double>& sh, int rows, int cols)
    : rows_(rows),
      cols_(cols),
      initial_sh_(sh),
      sz_(checked_cells(rows, cols)),
      sh_(cells()),
      sh_next_(cells()),
      sf_(4 * cells()) {
    sz_.upload(sz.data());
}

void DeviceTerrain::reset() {
    sh_.upload(initial_sh_.data());
    sf_.zero();
    sh_next_.poison();
    WB_CUDA_CHECK(cudaDeviceSynchronize());
}

DeviceGrid DeviceTerrain::grid() const {
    DeviceGrid grid;
    grid.rows = rows_;
    grid.cols = cols_;
    grid.first_row = 0;
    grid.global_rows = rows_;
    grid.sz = sz_.get();
    grid.sh = sh_.get();
    grid.sh_next = sh_next_.get();
    grid.sf = sf_.get();
    return grid;
}

std::vector<double> DeviceTerrain::download(const double* device_sh) const {
    WB_CUDA_CHECK(cudaDeviceSynchronize());  // the result may come from a non-blocking stream
    std::vector<double> host(cells());
    WB_CUDA_CHECK(cudaMemcpy(host.data(), device_sh, host.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return host;
}

}  // namespace sciddicat
