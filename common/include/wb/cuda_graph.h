/// @file cuda_graph.h
/// @brief A CUDA stream and an executable CUDA graph, each with one owner and every call
/// checked, and the launch ceiling: the time of N empty kernel launches, plain or from a graph.
#pragma once

#include "wb/cuda_check.h"
#include "wb/sm_limit.h"
#include "wb/timer.h"

#include <cuda_runtime.h>

namespace wb {

/// A non-blocking stream (graphs can be captured on it), destroyed with its owner.
class Stream {
public:
    /// Creates the stream.
    Stream() { WB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() {
        if (stream_) cudaStreamDestroy(stream_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }  ///< the stream

private:
    cudaStream_t stream_ = nullptr;
};

/// An executable graph of the work that `enqueue()` puts on `stream`: captured once, replayed by
/// launch(). The work is captured, not run.
class Graph {
public:
    /// Captures what `enqueue()` enqueues on `stream` and instantiates it.
    template <class F>
    Graph(cudaStream_t stream, F&& enqueue) {
        cudaGraph_t graph = nullptr;
        WB_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        enqueue();
        WB_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
        WB_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0));
        WB_CUDA_CHECK(cudaGraphDestroy(graph));
    }
    ~Graph() {
        if (exec_) cudaGraphExecDestroy(exec_);
    }
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;
    /// Takes over `other`'s graph (to keep graphs in containers).
    Graph(Graph&& other) noexcept : exec_(other.exec_) { other.exec_ = nullptr; }
    Graph& operator=(Graph&&) = delete;
    /// Enqueues one replay of the captured work on `stream`. Under WB_SM_LIMIT (a green context,
    /// wb/sm_limit.h) the replay also waits for the work before it in `stream` and finishes
    /// before this returns: on the reference H200's driver, replays in a green context gave
    /// wrong results (lesson 10's graph versions) that the same replays gave right with
    /// CUDA_LAUNCH_BLOCKING=1 or without the green context, so their order in the stream is not
    /// left to the driver there.
    void launch(cudaStream_t stream) const {
        const bool in_green_context = granted_sms_here() > 0;
        if (in_green_context) WB_CUDA_CHECK(cudaStreamSynchronize(stream));
        WB_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
        if (in_green_context) WB_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

private:
    cudaGraphExec_t exec_ = nullptr;
};

/// The floor of any program that launches one kernel per step: `launches` launches of an empty
/// kernel on `stream`, one by one from the host (per_graph = 0) or replayed from a graph of
/// `per_graph` launches (rounded up to whole graphs). Median of `repeats` after one warm-up.
TimingStats time_empty_launches(int launches, int per_graph, cudaStream_t stream, int repeats);

}  // namespace wb
