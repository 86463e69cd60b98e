// Lesson 11 exercise: copy, compute and copy back in chunks, spread over several streams, so
// that the copy engines and the multiprocessors work at the same time.
// Check your work with: scripts/check 11-streams-overlap
#include "pipeline.h"

#include "wb/cuda_check.h"

ChunkRange chunk_of(long long count, int chunk, int chunks) {
    // >>> TODO 1: nearly equal consecutive chunks covering 0 .. count-1 once; the last ones may be empty
    (void)count;
    (void)chunk;
    (void)chunks;
    return ChunkRange{0, 0};
    // <<< TODO 1
}

void run_pipelined(const Job& job, const cudaStream_t* streams, int stream_count, int chunks) {
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const ChunkRange range = chunk_of(job.count, chunk, chunks);
        const cudaStream_t stream = streams[chunk % stream_count];
        // >>> TODO 2: on this chunk's stream, in order: copy its x in, transform it, copy its y out
        (void)range;
        (void)stream;
        // <<< TODO 2
    }
    // >>> TODO 3: the copies are asynchronous: return only when every stream has finished
    // <<< TODO 3
}
