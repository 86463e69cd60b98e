/// @file device_grid.h
/// @brief The SciddicaT state on the device: DeviceGrid, the view every GPU step takes, and
/// DeviceTerrain, the owner of one terrain's buffers.
#pragma once

#include "wb/device_buffer.h"

#include <cstddef>
#include <vector>

namespace sciddicat {

/// A view of the state on the device (owns nothing). All buffers are rows x cols doubles,
/// row-major; sf holds four such layers: north, west, east, south. The buffers may hold a band
/// of rows of a larger grid: buffer row b is global row first_row + b, and the model's active
/// domain is global rows 1 .. global_rows-2, columns 1 .. cols-2.
struct DeviceGrid {
    int rows = 0;                ///< rows held in the buffers
    int cols = 0;                ///< columns of the grid
    int first_row = 0;           ///< global index of buffer row 0 (0 for a whole grid)
    int global_rows = 0;         ///< rows of the whole grid
    const double* sz = nullptr;  ///< altitude (m)
    double* sh = nullptr;        ///< debris thickness (m)
    double* sh_next = nullptr;   ///< second thickness buffer, for versions that ping-pong
    double* sf = nullptr;        ///< outflows, 4 layers (may be null for versions without them)
};

/// The device buffers of one whole terrain (sz, sh, sh_next and the four sf layers).
class DeviceTerrain {
public:
    /// Uploads sz; sh is the initial thickness that reset() restores. Both rows x cols. Exits
    /// with a clear message when the device lacks the memory.
    DeviceTerrain(const std::vector<double>& sz, const std::vector<double>& sh, int rows, int cols);
    /// The initial thickness into sh, every outflow zero (border ring included), sh_next
    /// poisoned (NaN); waits for the device.
    void reset();
    /// The view of these buffers (first_row 0, global_rows = rows).
    DeviceGrid grid() const;
    /// Cells of the grid (rows x cols).
    std::size_t cells() const { return static_cast<std::size_t>(rows_) * cols_; }
    /// Waits for the device, then copies the thickness at device_sh (sh or sh_next) to the host.
    std::vector<double> download(const double* device_sh) const;

private:
    int rows_;
    int cols_;
    std::vector<double> initial_sh_;
    wb::DeviceBuffer<double> sz_;
    wb::DeviceBuffer<double> sh_;
    wb::DeviceBuffer<double> sh_next_;
    wb::DeviceBuffer<double> sf_;
};

}  // namespace sciddicat
