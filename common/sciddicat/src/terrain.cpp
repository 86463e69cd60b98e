// SciddicaT inputs: the synthetic terrain generator and the initial state.
#include "sciddicat/terrain.h"

#include "sciddicat/grid_io.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace sciddicat {

Terrain make_synthetic_terrain(int rows, int cols, std::uint64_t seed) {
    require_memory_for_grid(rows, cols, "the synthetic terrain");
    Terrain t;
    t.header.rows = rows;
    t.header.cols = cols;
    t.header.cellsize = 10.0;
    t.header.nodata = 0.0;
    t.name = "synthetic";
    const std::size_t count = static_cast<std::size_t>(rows) * cols;
    t.dem.assign(count, 0.0);
    t.source.assign(count, 0.0);
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> phase(0.0, 6.283185307179586);
    const double p1 = phase(generator), p2 = phase(generator), p3 = phase(generator);
    const double v1 = 0.30 + 0.1 * std::sin(p1), v2 = 0.70 + 0.1 * std::sin(p2);  // valley axes (fraction of cols)
    for (int i = 0; i < rows; ++i) {
        const double y = static_cast<double>(i) / (rows - 1);  // 0 at the top (north), 1 at the bottom
        for (int j = 0; j < cols; ++j) {
            const double x = static_cast<double>(j) / (cols - 1);
            double z = 400.0 + 300.0 * (1.0 - y) * (1.0 - y);           // slope easing into a plain
            z += 6.0 * std::sin(9.0 * x + p1) * std::cos(7.0 * y + p2)  // relief
                 + 3.0 * std::sin(23.0 * x + 17.0 * y + p3);
            for (double axis : {v1, v2}) {  // two meandering valleys
                const double centre = axis + 0.05 * std::sin(8.0 * y + p3);
                const double d = (x - centre) / 0.06;
                z -= 25.0 * std::exp(-d * d);
            }
            // A rim along the edges keeps the debris off the border ring (whose cells never
            // change, so debris flowing into them would leave the model and break mass balance).
            const int edge = std::min(std::min(i, rows - 1 - i), std::min(j, cols - 1 - j));
            if (edge < 4) z += 15.0 * (4 - edge);
            t.dem[static_cast<std::size_t>(i) * cols + j] = z;
        }
    }
    // Debris source: an elliptical cap near the top of the first valley, up to 8 m thick.
    const double ci = 0.15 * (rows - 1), cj = v1 * (cols - 1);
    const double ri = 0.08 * rows + 1.0, rj = 0.06 * cols + 1.0;
    for (int i = 1; i < rows - 1; ++i)
        for (int j = 1; j < cols - 1; ++j) {
            const double di = (i - ci) / ri, dj = (j - cj) / rj;
            const double r2 = di * di + dj * dj;
            if (r2 < 1.0) {
                const double h = std::round(8.0 * (1.0 - r2) * 1e6) / 1e6;  // as written at 6 decimals
                const std::size_t k = static_cast<std::size_t>(i) * cols + j;
                t.source[k] = h;
                t.dem[k] += h;
            }
        }
    for (auto& z : t.dem) z = std::round(z * 1e6) / 1e6;  // the file holds 6 decimals
    return t;
}

void initial_state(const Terrain& terrain, std::vector<double>& sz, std::vector<double>& sh) {
    const int rows = terrain.header.rows, cols = terrain.header.cols;
    sz = terrain.dem;
    sh = terrain.source;
    for (int i = 1; i < rows - 1; ++i)
        for (int j = 1; j < cols - 1; ++j) {
            const std::size_t k = static_cast<std::size_t>(i) * cols + j;
            if (sh[k] > 0.0) sz[k] -= sh[k];
        }
}

}  // namespace sciddicat
