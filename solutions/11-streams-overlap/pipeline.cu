// Lesson 11 reference solution: copy, compute and copy back in chunks over several streams.
#include "pipeline.h"

#include "wb/cuda_check.h"

ChunkRange chunk_of(long long count, int chunk, int chunks) {
    // >>> TODO 1: nearly equal consecutive chunks covering 0 .. count-1 once; the last ones may be empty
    const long long length = (count + chunks - 1) / chunks;  // rounded up: no element is left over
    const long long begin = chunk * length < count ? chunk * length : count;
    const long long end = begin + length < count ? begin + length : count;
    return ChunkRange{begin, end};
    // <<< TODO 1
}

void run_pipelined(const Job& job, const cudaStream_t* streams, int stream_count, int chunks) {
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const ChunkRange range = chunk_of(job.count, chunk, chunks);
        const cudaStream_t stream = streams[chunk % stream_count];
        // >>> TODO 2: on this chunk's stream, in order: copy its x in, transform it, copy its y out
        const long long elements = range.end - range.begin;
        if (elements == 0) continue;
        const std::size_t bytes = static_cast<std::size_t>(elements) * sizeof(double);
        WB_CUDA_CHECK(
            cudaMemcpyAsync(job.dev_x + range.begin, job.host_x + range.begin, bytes, cudaMemcpyHostToDevice, stream));
        launch_transform(job.dev_x + range.begin, job.dev_y + range.begin, elements, job.work, stream);
        WB_CUDA_CHECK(
            cudaMemcpyAsync(job.host_y + range.begin, job.dev_y + range.begin, bytes, cudaMemcpyDeviceToHost, stream));
        // <<< TODO 2
    }
    // >>> TODO 3: the copies are asynchronous: return only when every stream has finished
    for (int s = 0; s < stream_count; ++s) WB_CUDA_CHECK(cudaStreamSynchronize(streams[s]));
    // <<< TODO 3
}
