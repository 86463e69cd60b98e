// Lesson 10: the runs of every version on one terrain on the device (harness/runner.h).
#include "harness/runner.h"

#include "sciddicat/fused.h"
#include "wb/cuda_check.h"

#include <algorithm>
#include <utility>

double* Runner::run(const Config& c, int steps) {
    const sciddicat::DeviceGrid g = terrain_.grid();
    const int chunk = c.steps_per_launch();
    double *in = g.sh, *out = g.sh_next;
    int done = 0;
    if (c.from_graphs()) {
        const wb::Graph& graph = graph_for(c, chunk);
        // Active tiles: the second buffer and the first tiles made ready, timed with the run.
        if (c.kind == Kind::active_tiles) active_tiles_prepare(g, c.shape, tiles(), stream());
        for (; done + chunk * kGraphLaunches <= steps; done += chunk * kGraphLaunches) graph.launch(stream());
    }
    for (; done < steps; done += chunk) {
        launch(c, in, out, std::min(chunk, steps - done));
        std::swap(in, out);
    }
    return in;  // after the last swap, `in` holds the newest thickness
}

void Runner::launch(const Config& c, const double* in, double* out, int steps) {
    const sciddicat::DeviceGrid g = terrain_.grid();
    if (c.kind == Kind::multistep)
        multistep_launch(g, c.shape, in, out, steps, stream());
    else if (c.kind == Kind::active_tiles)
        active_tiles_launch(g, c.shape, tiles(), in, out, steps, stream());
    else
        sciddicat::launch_fused_step(g, in, out, 0, g.rows, stream());
}

const wb::Graph& Runner::graph_for(const Config& c, int chunk) {
    const std::string key = std::to_string(static_cast<int>(c.kind)) + c.shape.label();
    const auto found = graphs_.find(key);
    if (found != graphs_.end()) return found->second;
    const sciddicat::DeviceGrid g = terrain_.grid();
    // Configure the kernel (shared memory size) outside the capture, from a prepared state.
    if (c.kind == Kind::active_tiles) active_tiles_prepare(g, c.shape, tiles(), stream());
    launch(c, g.sh, g.sh_next, 1);
    WB_CUDA_CHECK(cudaStreamSynchronize(stream()));
    wb::Graph graph(stream(), [&] {
        for (int s = 0; s < kGraphLaunches; ++s) {
            const bool back = s % 2 == 1;  // sh_next -> sh
            launch(c, back ? g.sh_next : g.sh, back ? g.sh : g.sh_next, chunk);
        }
    });
    return graphs_.emplace(key, std::move(graph)).first->second;
}

double computed_cell_steps(Runner& runner, const Config& config, int steps) {
    const sciddicat::DeviceGrid g = runner.terrain().grid();
    runner.terrain().reset();
    double cell_steps = 0.0;
    int done = 0;
    double* in = g.sh;
    double* out = g.sh_next;
    active_tiles_prepare(g, config.shape, runner.tiles(), runner.stream());
    for (; done < steps; done += config.steps_per_launch()) {
        WB_CUDA_CHECK(cudaStreamSynchronize(runner.stream()));
        const int tiles = active_tiles_counts(g, config.shape, runner.tiles()).reached;
        const int launch_steps = std::min(config.steps_per_launch(), steps - done);
        cell_steps += static_cast<double>(tiles) * config.shape.tile_x * config.shape.tile_y * launch_steps;
        active_tiles_launch(g, config.shape, runner.tiles(), in, out, launch_steps, runner.stream());
        std::swap(in, out);
    }
    WB_CUDA_CHECK(cudaStreamSynchronize(runner.stream()));
    return cell_steps;
}
