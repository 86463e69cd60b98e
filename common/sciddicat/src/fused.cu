// SciddicaT fused step: one kernel per step, outflows kept in shared memory (never in global
// memory), thickness ping-ponged between two buffers. Works on a band of rows of a larger grid.
#include "sciddicat/fused.h"

#include "sciddicat/model.h"

#include "wb/cuda_check.h"

namespace sciddicat {

namespace {

constexpr int kTX = kFusedTileX, kTY = kFusedTileY;
constexpr int kFlowX = kTX + 2, kFlowY = kTY + 2;  // the tile plus a one-cell ring
constexpr int kLoadX = kTX + 4, kLoadY = kTY + 4;  // plus the ring's neighbours

__global__ void fused_step_kernel(DeviceGrid g, const double* sh_in, double* sh_out, int begin, int end) {
    __shared__ double z[kLoadY][kLoadX];
    __shared__ double h[kLoadY][kLoadX];
    __shared__ double flow[4][kFlowY][kFlowX];
    const int thread = threadIdx.y * kTX + threadIdx.x;
    const int row0 = begin + blockIdx.y * kTY;  // buffer row of the tile's first row
    const int col0 = blockIdx.x * kTX;

    // 1. Altitude and thickness of the tile plus two rings (zero outside the buffer).
    for (int t = thread; t < kLoadX * kLoadY; t += kTX * kTY) {
        const int ly = t / kLoadX, lx = t % kLoadX;
        const int r = row0 - 2 + ly, c = col0 - 2 + lx;
        const bool inside = r >= 0 && r < g.rows && c >= 0 && c < g.cols;
        const long k = static_cast<long>(r) * g.cols + c;
        z[ly][lx] = inside ? g.sz[k] : 0.0;
        h[ly][lx] = inside ? sh_in[k] : 0.0;
    }
    __syncthreads();

    // 2. Outflows of the tile plus one ring, each computed once (zero for inactive cells).
    for (int t = thread; t < kFlowX * kFlowY; t += kTX * kTY) {
        const int fy = t / kFlowX, fx = t % kFlowX;
        const int ly = fy + 1, lx = fx + 1;  // position in the loaded region
        double f[4] = {0.0, 0.0, 0.0, 0.0};
        if (in_active_domain(g.first_row + row0 - 1 + fy, col0 - 1 + fx, g.global_rows, g.cols)) {
            const double u[4] = {z[ly - 1][lx] + h[ly - 1][lx], z[ly][lx - 1] + h[ly][lx - 1],
                                 z[ly][lx + 1] + h[ly][lx + 1], z[ly + 1][lx] + h[ly + 1][lx]};
            cell_outflows(h[ly][lx], z[ly][lx], u, f);
        }
        for (int n = 0; n < 4; ++n) flow[n][fy][fx] = f[n];
    }
    __syncthreads();

    // 3. Mass balance of the tile's cells, same order of additions as the serial version.
    const int r = row0 + threadIdx.y, c = col0 + threadIdx.x;
    if (r >= end || c >= g.cols) return;
    const long k = static_cast<long>(r) * g.cols + c;
    if (!in_active_domain(g.first_row + r, c, g.global_rows, g.cols)) {
        sh_out[k] = sh_in[k];
        return;
    }
    const int fy = threadIdx.y + 1, fx = threadIdx.x + 1;
    double v = h[fy + 1][fx + 1];
    v += flow[3][fy - 1][fx] - flow[0][fy][fx];
    v += flow[2][fy][fx - 1] - flow[1][fy][fx];
    v += flow[1][fy][fx + 1] - flow[2][fy][fx];
    v += flow[0][fy + 1][fx] - flow[3][fy][fx];
    sh_out[k] = v;
}

}  // namespace

dim3 fused_step_grid(int cols, int begin, int end) {
    return dim3((cols + kTX - 1) / kTX, (end - begin + kTY - 1) / kTY);
}

void launch_fused_step(const DeviceGrid& grid, const double* sh_in, double* sh_out, int begin, int end,
                       cudaStream_t stream) {
    if (end <= begin) return;
    fused_step_kernel<<<fused_step_grid(grid.cols, begin, end), dim3(kTX, kTY), 0, stream>>>(grid, sh_in, sh_out, begin,
                                                                                             end);
    WB_CHECK_LAUNCH("fused_step_kernel");
}

const double* FusedRunner::run(int steps, bool from_graph) {
    int done = 0;
    if (from_graph)
        for (; done + kFusedGraphLaunches <= steps; done += kFusedGraphLaunches) graph().launch(stream());
    const double* in = grid_.sh;  // where the graph's replays end
    for (; done < steps; ++done) {
        double* out = in == grid_.sh ? grid_.sh_next : grid_.sh;
        launch_fused_step(grid_, in, out, 0, grid_.rows, stream());
        in = out;
    }
    return in;
}

const wb::Graph& FusedRunner::graph() {
    if (graph_) return *graph_;
    // One launch outside the capture, so that the kernel is loaded before it is captured.
    launch_fused_step(grid_, grid_.sh, grid_.sh_next, 0, grid_.rows, stream());
    WB_CUDA_CHECK(cudaStreamSynchronize(stream()));
    static_assert(kFusedGraphLaunches % 2 == 0, "ping-pong must end where it began");
    graph_.emplace(stream(), [this] {
        for (int s = 0; s < kFusedGraphLaunches; s += 2) {
            launch_fused_step(grid_, grid_.sh, grid_.sh_next, 0, grid_.rows, stream());
            launch_fused_step(grid_, grid_.sh_next, grid_.sh, 0, grid_.rows, stream());
        }
    });
    return *graph_;
}

}  // namespace sciddicat
