// Lesson 11: the check of chunk_of on its own, on the CPU (no GPU needed).
#include "harness/chunk_check.h"

#include "pipeline.h"

#include <cstdio>

// chunk_of must cover 0 .. count-1 once, in order: each chunk starts where the previous ended,
// and no chunk is longer than ceil(count / chunks), or the others get less work to overlap.
bool check_chunks() {
    const long long counts[] = {0, 1, 7, 100, 1000003};
    const int chunk_counts[] = {1, 3, 16, 100};
    for (long long count : counts)
        for (int chunks : chunk_counts) {
            const long long longest = (count + chunks - 1) / chunks;
            long long next = 0;
            for (int c = 0; c < chunks; ++c) {
                const ChunkRange r = chunk_of(count, c, chunks);
                if (r.begin != next || r.end < r.begin || r.end > count) {
                    std::printf("  chunk_of(count %lld, chunk %d of %d) = [%lld, %lld): expected to start at %lld "
                                "and end within the job\n",
                                count, c, chunks, r.begin, r.end, next);
                    return false;
                }
                if (r.end - r.begin > longest) {
                    std::printf("  chunk_of(count %lld, chunk %d of %d) = [%lld, %lld): %lld elements, where nearly "
                                "equal chunks hold at most ceil(%lld / %d) = %lld\n",
                                count, c, chunks, r.begin, r.end, r.end - r.begin, count, chunks, longest);
                    return false;
                }
                next = r.end;
            }
            if (next != count) {
                std::printf("  chunk_of(count %lld, %d chunks): the chunks end at %lld, not at %lld\n", count, chunks,
                            next, count);
                return false;
            }
        }
    std::printf("  chunk_of: every element covered once, in order, in nearly equal chunks (counts 0 to 1000003, 1 "
                "to 100 chunks)\n");
    return true;
}
