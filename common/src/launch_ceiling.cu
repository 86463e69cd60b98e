// The launch ceiling: the time of empty kernel launches, plain or replayed from a CUDA graph.
#include "wb/cuda_graph.h"

#include <memory>

namespace wb {

namespace {

__global__ void empty_kernel() {}

}  // namespace

TimingStats time_empty_launches(int launches, int per_graph, cudaStream_t stream, int repeats) {
    std::unique_ptr<Graph> graph;
    if (per_graph > 0)
        graph = std::make_unique<Graph>(stream, [&] {
            for (int s = 0; s < per_graph; ++s) empty_kernel<<<1, 32, 0, stream>>>();
        });
    return measure_gpu(
        1, repeats,
        [&] {
            if (graph) {
                for (int s = 0; s < launches; s += per_graph) graph->launch(stream);
                return;
            }
            for (int s = 0; s < launches; ++s) {
                empty_kernel<<<1, 32, 0, stream>>>();
                WB_CHECK_LAUNCH("empty_kernel");
            }
        },
        stream);
}

}  // namespace wb
