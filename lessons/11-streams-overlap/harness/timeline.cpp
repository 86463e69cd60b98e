// Lesson 11: the timeline of one run of the pipeline. pipeline.cu is compiled with
// harness/timeline_hooks.h included first, so its cudaMemcpyAsync and launch_transform calls come
// here; while a timeline records, each one is enqueued between two CUDA events on its stream.
#include "harness/timeline.h"

#include "wb/cuda_check.h"

#include <cstdint>
#include <cstdio>
#include <vector>

// The names pipeline.cu calls (harness/timeline_hooks.h).
cudaError_t timeline_memcpy_async(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                                  cudaStream_t stream);
void timeline_launch_transform(const double* dev_x, double* dev_y, long long count, int work, cudaStream_t stream);

namespace {

// An operation enqueued between two events, not yet read.
struct Pending {
    int stream, chunk;
    wb::Operation operation;
    cudaEvent_t before, after;
};

// The run being recorded; `on` only inside write_timeline's call of run_pipelined.
struct Recording {
    bool on = false;
    Job job{};
    const cudaStream_t* streams = nullptr;
    int stream_count = 0;
    int chunks = 0;
    std::vector<cudaEvent_t> events;  // created before the run: none is created while it enqueues
    std::size_t events_used = 0;
    std::vector<Pending> pending;
};
Recording recording;

int stream_index(cudaStream_t stream) {
    for (int s = 0; s < recording.stream_count; ++s)
        if (recording.streams[s] == stream) return s;
    return -1;  // not one of the pipeline's streams (the rows then say -1)
}

// The chunk that starts at element `offset` of the job (-1: none does).
int chunk_at(long long offset) {
    for (int c = 0; c < recording.chunks; ++c) {
        const ChunkRange range = chunk_of(recording.job.count, c, recording.chunks);
        if (range.begin == offset && range.end > range.begin) return c;
    }
    return -1;
}

// Element `pointer` of the device array `base` of the job, or -1 when it points elsewhere.
long long element_of(const void* pointer, const double* base) {
    const auto at = reinterpret_cast<std::uintptr_t>(pointer), from = reinterpret_cast<std::uintptr_t>(base);
    const std::uintptr_t end = from + static_cast<std::uintptr_t>(recording.job.count) * sizeof(double);
    return at >= from && at < end ? static_cast<long long>((at - from) / sizeof(double)) : -1;
}

cudaEvent_t next_event() {
    if (recording.events_used == recording.events.size()) {  // more operations than expected
        recording.events.emplace_back();
        WB_CUDA_CHECK(cudaEventCreate(&recording.events.back()));
    }
    return recording.events[recording.events_used++];
}

template <class Enqueue>
cudaError_t between_events(wb::Operation operation, long long offset, cudaStream_t stream, Enqueue enqueue) {
    const Pending op{stream_index(stream), chunk_at(offset), operation, next_event(), next_event()};
    WB_CUDA_CHECK(cudaEventRecord(op.before, stream));
    const cudaError_t status = enqueue();
    WB_CUDA_CHECK(cudaEventRecord(op.after, stream));
    recording.pending.push_back(op);
    return status;
}

}  // namespace

cudaError_t timeline_memcpy_async(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                                  cudaStream_t stream) {
    auto copy = [&] { return cudaMemcpyAsync(destination, source, bytes, kind, stream); };
    if (!recording.on || bytes == 0) return copy();
    // Which copy it is, from where it goes: into the job's x on the device, or out of its y.
    const long long into_x = element_of(destination, recording.job.dev_x);
    const long long out_of_y = element_of(source, recording.job.dev_y);
    if (into_x >= 0) return between_events(wb::Operation::h2d, into_x, stream, copy);
    if (out_of_y >= 0) return between_events(wb::Operation::d2h, out_of_y, stream, copy);
    return copy();
}

void timeline_launch_transform(const double* dev_x, double* dev_y, long long count, int work, cudaStream_t stream) {
    if (!recording.on || count <= 0) return launch_transform(dev_x, dev_y, count, work, stream);
    between_events(wb::Operation::kernel, element_of(dev_x, recording.job.dev_x), stream, [&] {
        launch_transform(dev_x, dev_y, count, work, stream);
        return cudaSuccess;
    });
}

void write_timeline(wb::TimelineFile& file, const std::string& command, const std::string& device, const Job& job,
                    const cudaStream_t* streams, int stream_count, int chunks) {
    recording = Recording{false, job, streams, stream_count, chunks, std::vector<cudaEvent_t>(6 * chunks), 0, {}};
    for (cudaEvent_t& event : recording.events) WB_CUDA_CHECK(cudaEventCreate(&event));
    cudaEvent_t start;
    WB_CUDA_CHECK(cudaEventCreate(&start));
    WB_CUDA_CHECK(cudaDeviceSynchronize());
    // Every stream waits for the start event: no operation can begin before the time origin.
    WB_CUDA_CHECK(cudaEventRecord(start, streams[0]));
    for (int s = 1; s < stream_count; ++s) WB_CUDA_CHECK(cudaStreamWaitEvent(streams[s], start, 0));
    recording.on = true;
    run_pipelined(job, streams, stream_count, chunks);
    recording.on = false;
    WB_CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<wb::TimelineOp> ops;
    for (const Pending& op : recording.pending) {
        float start_ms = 0.0f, end_ms = 0.0f;
        WB_CUDA_CHECK(cudaEventElapsedTime(&start_ms, start, op.before));
        WB_CUDA_CHECK(cudaEventElapsedTime(&end_ms, start, op.after));
        ops.push_back(wb::TimelineOp{op.stream, op.chunk, op.operation, start_ms, end_ms});
    }
    for (cudaEvent_t event : recording.events) WB_CUDA_CHECK(cudaEventDestroy(event));
    WB_CUDA_CHECK(cudaEventDestroy(start));
    recording = Recording{};

    double span_ms = 0.0;
    for (const wb::TimelineOp& op : ops) span_ms = op.end_ms > span_ms ? op.end_ms : span_ms;
    std::printf("  timeline of %d streams x %d chunks: %zu operations, %.2f ms from the start to the last one; "
                "ideal %.2f ms\n",
                stream_count, chunks, ops.size(), span_ms, wb::ideal_pipeline_ms(ops));
    const std::vector<std::string> notes = {
        "pipeline: " + std::to_string(stream_count) + " streams x " + std::to_string(chunks) + " chunks, " +
            std::to_string(job.count) + " doubles, work " + std::to_string(job.work),
        "times: CUDA events before and after each operation on its stream, from one start event"};
    file.write(command, device, notes, ops);
}
