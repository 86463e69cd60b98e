/// @file model.h
/// @brief SciddicaT debris-flow model: its parameters and the rule of one cell, shared by the
/// serial reference and every GPU version (host and device).
///
/// State, row-major, rows x cols doubles: Sz altitude, Sh debris thickness, Sf[4] outflows
/// (north, west, east, south). The outermost ring of cells is never updated. See the SciddicaT
/// lesson's page for the rules of one step.
#pragma once

#ifdef __CUDACC__
#define SCIDDICAT_HD __host__ __device__
#else
#define SCIDDICAT_HD
#endif

namespace sciddicat {

constexpr double kDamping = 0.5;       ///< p_r: fraction of the balancing outflow that leaves
constexpr double kEpsilon = 0.001;     ///< p_epsilon: friction threshold (m)
constexpr int kReferenceSteps = 4000;  ///< the report's experiment

/// True for the cells the model updates: every cell of a rows x cols grid but the outermost ring.
SCIDDICAT_HD inline bool in_active_domain(int i, int j, int rows, int cols) {
    return i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1;
}

/// Minimisation of differences for one cell: h its thickness, z its altitude, u_neighbours[0..3]
/// the neighbours' altitude + thickness (N, W, E, S). Writes the four outflows (0 where
/// eliminated).
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

}  // namespace sciddicat
