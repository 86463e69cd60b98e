/// @file sciddicat_model.h
/// @brief SciddicaT debris-flow model: grids and their files, the synthetic terrain, the serial
/// reference and the fused GPU step (library target `sciddicat_model`, reused by lesson 08).
///
/// State, row-major, rows x cols doubles: Sz altitude, Sh debris thickness, Sf[4] outflows
/// (north, west, east, south). The outermost ring of cells is never updated. See the lesson 06
/// page for the rules of one step.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef __CUDACC__
#define SCIDDICAT_HD __host__ __device__
#else
#define SCIDDICAT_HD
#endif

namespace sciddicat {

constexpr double kDamping = 0.5;      ///< p_r: fraction of the balancing outflow that leaves
constexpr double kEpsilon = 0.001;    ///< p_epsilon: friction threshold (m)
constexpr int kReferenceSteps = 4000; ///< the report's experiment

/// Grid geometry as in an ESRI ASCII header.
struct Header {
    int cols = 0;             ///< ncols
    int rows = 0;             ///< nrows
    double xll = 0.0;         ///< xllcorner
    double yll = 0.0;         ///< yllcorner
    double cellsize = 1.0;    ///< cellsize (m)
    double nodata = -9999.0;  ///< NODATA_value
};

/// A malformed or missing input file; what() names the file and, where known, the line.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads a header file with the six keys (any order). Throws InputError.
Header read_header(const std::string& path);
/// Reads rows lines of cols numbers. Throws InputError (too few/many numbers, bad tokens).
std::vector<double> read_values(const std::string& path, const Header& header);

/// One simulation input: header, altitude (DEM, including the debris) and initial thickness.
struct Terrain {
    Header header;             ///< geometry
    std::vector<double> dem;   ///< altitude of each cell (m)
    std::vector<double> source;///< initial debris thickness (m)
    std::string name;          ///< e.g. "tessina" or "synthetic"
};

/// Reads PREFIX_header.txt, PREFIX_dem.txt and PREFIX_source.txt; the grid must be at least
/// 3 x 3. Throws InputError.
Terrain read_terrain(const std::string& prefix);

/// True when all three files of PREFIX exist.
bool terrain_exists(const std::string& prefix);

/// A synthetic terrain: a slope falling from north to south into a plain, with seeded relief,
/// two valleys, a rim along the edges (debris never reaches the border ring, so the volume is
/// conserved) and an elliptical debris source near the top (the DEM includes the debris body).
Terrain make_synthetic_terrain(int rows, int cols, std::uint64_t seed);

/// Writes values (rows lines of cols numbers) atomically: to a temporary file, then renamed.
/// Throws InputError on failure, leaving no partial file.
void write_values(const std::string& path, const Header& header, const std::vector<double>& values);
/// Writes the header file atomically (same format as the inputs).
void write_header(const std::string& path, const Header& header);
/// Writes PREFIX_header.txt, PREFIX_dem.txt and PREFIX_source.txt.
void write_terrain(const std::string& prefix, const Terrain& terrain);
/// Writes a result grid: VALUES_PATH (values only), its header beside it (".txt" replaced by
/// "_header.txt", or "_header.txt" appended) and a one-file ESRI grid VALUES_PATH's stem + ".asc"
/// that GIS tools open directly. Returns the header's path.
std::string write_result(const std::string& values_path, const Header& header, const std::vector<double>& values);

/// Initialisation: Sz = dem - source where source > 0 (active domain only), Sh = source.
void initial_state(const Terrain& terrain, std::vector<double>& sz, std::vector<double>& sh);

/// The serial reference: `steps` steps of reset, flows and width update, in place on sh.
/// sf (4 * rows * cols) is used as scratch; it is zeroed first.
void serial_run(int rows, int cols, const double* sz, double* sh, std::vector<double>& sf, int steps);

/// True for the cells the model updates: every cell of a rows x cols grid but the outermost ring.
SCIDDICAT_HD inline bool in_active_domain(int i, int j, int rows, int cols) {
    return i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1;
}

/// sum / count for count 1..5, rounded exactly as the division is, for sums far from overflow
/// and underflow (altitudes are): the product by the rounded reciprocal, then one correction
/// with the exact remainder (Markstein's theorem). Three dependent operations and no branch,
/// where a double division is a longer sequence with a slow path.
SCIDDICAT_HD inline double divide_by_count(double sum, int count) {
    const double reciprocal = count == 5 ? 0.2 : count == 4 ? 0.25 : count == 3 ? 1.0 / 3.0 : count == 2 ? 0.5 : 1.0;
    const double quotient = sum * reciprocal;
    const double remainder = fma(-static_cast<double>(count), quotient, sum);  // exact
    return fma(remainder, reciprocal, quotient);
}

/// Minimisation of differences for one cell: h its thickness, u[0] its altitude, u[1..4] the
/// neighbours' altitude + thickness (N, W, E, S). Writes the four outflows (0 where eliminated).
SCIDDICAT_HD inline void cell_outflows(double h, double z, const double u_neighbours[4], double flow[4]) {
    double u[5];
    u[0] = z + kEpsilon;
    for (int k = 0; k < 4; ++k) u[k + 1] = u_neighbours[k];
    bool eliminated[5] = {false, false, false, false, false};
    const double m = h - kEpsilon;
    double average = 0.0;
    bool again = true;
    while (again) {
        average = m;
        int count = 0;
        for (int k = 0; k < 5; ++k)
            if (!eliminated[k]) {
                average += u[k];
                ++count;
            }
        if (count != 0) average = average / count;
        again = false;
        for (int k = 0; k < 5; ++k)
            if (!eliminated[k] && average <= u[k]) {
                eliminated[k] = true;
                again = true;
            }
    }
    for (int k = 1; k < 5; ++k) flow[k - 1] = eliminated[k] ? 0.0 : (average - u[k]) * kDamping;
}

/// cell_outflows with the same result for finite values (the grid reader rejects others) and a
/// much shorter chain of dependent operations, for kernels where the minimisation is the
/// bottleneck. The candidates left after each round of elimination are always the lowest ones
/// (a round keeps the values below an average), so the rounds can only ever meet six sets: the
/// j lowest of the five values, j = 0..5. Their averages are computed first, independently of
/// each other and each exactly as a round computes it (the same additions in the same order);
/// the rounds then only compare. Ties are ranked by index: a round never separates equal values,
/// so a set it meets is the j lowest whatever the order of equals.
SCIDDICAT_HD inline void cell_outflows_by_rank(double h, double z, const double u_neighbours[4], double flow[4]) {
    const double u[5] = {z + kEpsilon, u_neighbours[0], u_neighbours[1], u_neighbours[2], u_neighbours[3]};
    const double m = h - kEpsilon;
    int rank[5] = {0, 0, 0, 0, 0};  // how many of the five come before u[k]
    for (int k = 0; k < 5; ++k)
        for (int l = k + 1; l < 5; ++l) {
            if (u[k] <= u[l]) ++rank[l];
            else ++rank[k];
        }
    // The average a round computes when the j lowest are left: m plus each of them, in index
    // order. One left: no division (x / 1 is x); five left: no choice.
    auto average_of_lowest = [&](int j) {
        double sum = m;
        for (int k = 0; k < 5; ++k)
            if (rank[k] < j) sum += u[k];
        return divide_by_count(sum, j);
    };
    const double lowest_value = fmin(fmin(fmin(u[0], u[1]), fmin(u[2], u[3])), u[4]);
    const double lowest1 = m + lowest_value, lowest2 = average_of_lowest(2), lowest3 = average_of_lowest(3),
                 lowest4 = average_of_lowest(4), lowest5 = divide_by_count(m + u[0] + u[1] + u[2] + u[3] + u[4], 5);
    // A round with the j lowest left keeps those of them that pass the elimination test of
    // cell_outflows: the lowest min(j, below(j)), where below(j) counts the values below that
    // round's average (a value passes when every lower one does).
    auto below = [&](double average) {
        int passing = 0;
        for (int k = 0; k < 5; ++k)
            if (!(average <= u[k])) ++passing;
        return passing;
    };
    // Where a round goes from j candidates left, min(j, below(j)), for j = 0..5 in three bits
    // each; the rounds then shift and mask. Each round that changes the candidates removes one
    // at least, so after five rounds nothing changes any more.
    auto step_from = [&](int j, double average) {
        const int passing = below(average);
        return static_cast<unsigned>(passing < j ? passing : j) << (3 * j);
    };
    const unsigned lowest_stays = !(lowest1 <= lowest_value) ? 1u << 3 : 0u;  // min(1, below(1))
    const unsigned next_left = lowest_stays | step_from(2, lowest2) | step_from(3, lowest3) |
                               step_from(4, lowest4) | static_cast<unsigned>(below(lowest5)) << 15;
    int left = 5;
    for (int round = 0; round < 5; ++round) left = next_left >> (3 * left) & 7;
    const double average = left == 5 ? lowest5 : left == 4 ? lowest4 : left == 3 ? lowest3 : left == 2 ? lowest2
                         : left == 1 ? lowest1 : m;
    for (int k = 1; k < 5; ++k) flow[k - 1] = rank[k] < left ? (average - u[k]) * kDamping : 0.0;  // not eliminated
}

/// A slice of rows of a (possibly larger) grid on the device, for the fused step.
/// Buffer row b holds global row first_row + b; the model's active domain is global rows
/// 1 .. global_rows-2 and columns 1 .. cols-2. The fused step of rows [begin, end) of the buffer
/// reads rows begin-2 .. end+1 (two halo rows each side, clamped to the buffer).
struct DeviceSlice {
    const double* sz = nullptr;  ///< altitude, buffer_rows x cols
    const double* sh_in = nullptr;  ///< thickness before the step
    double* sh_out = nullptr;    ///< thickness after the step (a different buffer)
    int cols = 0;                ///< columns of the grid
    int buffer_rows = 0;         ///< rows held in the buffers
    int first_row = 0;           ///< global index of buffer row 0
    int global_rows = 0;         ///< rows of the whole grid
};

/// Tile shape of the fused step kernel (threads per block = kFusedTileX * kFusedTileY).
constexpr int kFusedTileX = 32;
constexpr int kFusedTileY = 8;

/// One whole step (reset, flows, width update) for buffer rows [begin, end): each block computes
/// the outflows of its tile plus a one-cell ring into shared memory, then updates the thickness
/// into sh_out (ping-pong; cells outside the active domain are copied). Launch with
/// fused_step_grid(); asynchronous on `stream`; the caller checks the launch.
void launch_fused_step(const DeviceSlice& slice, int begin, int end, cudaStream_t stream = nullptr);

/// Grid of the fused step for rows [begin, end).
dim3 fused_step_grid(int cols, int begin, int end);

}  // namespace sciddicat
