// Lesson 14, part 5 (given: read it beside look_back.cuh): a flag that publishes other memory,
// and the check's test of it.
//
// The look-back's status word publishes nothing but itself (look_back.cuh). Here a flag
// publishes a sum stored elsewhere, as it would if a tile's sum were too wide to share a word
// with its flag (CUB then keeps the sums in arrays of their own): the message-passing pattern
// of the PTX ISA's memory consistency model ("Axioms", "Causality", litmus test "Message
// Passing"). The producer stores the sum with an ordinary store, then the flag with release
// semantics: the sum becomes visible no later than the flag. The consumer waits for the flag
// with relaxed loads, then runs an acquire fence, then reads the sum with an ordinary load: no
// read after the fence may return a value older than what the flag published, such as a line
// that the consumer's L1 cache (not kept coherent with the other SMs') took before the sum was
// stored. Release on one side, acquire on the other: neither alone is enough.
//
// The test makes that stale line likely: each producer stores one sum a round, in consecutive
// ints, and pauses before each round. A consumer's read of round r brings the ints of the next
// rounds, not yet written (-1), into its SM's L1 cache (32 bytes, 8 ints, at a time); without
// the acquire fence, its read of round r + 1 may be answered from there.
#include "scan.h"

#include "wb/cuda_check.h"

#include <cuda/atomic>

#include <stdexcept>

namespace {

using Flag = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

constexpr unsigned kPauseNs = 2000;  // a producer's pause before each round: its consumer waits

// Blocks may start in any order. The first of each two blocks to arrive produces, the second
// consumes: a consumer waits only for a block already running.
__device__ inline unsigned take_ticket(unsigned* counter) {
    __shared__ unsigned ticket;
    if (threadIdx.x == 0) ticket = atomicAdd(counter, 1u);
    __syncthreads();
    return ticket;
}

__device__ void produce(int* row, unsigned* ready, int pair) {
    Flag flag(*ready);
    for (int round = 1; round <= kMessageRounds; ++round) {
        __nanosleep(kPauseNs);
        row[round - 1] = message_sum(pair, round);                             // the memory the flag publishes
        flag.store(static_cast<unsigned>(round), cuda::memory_order_release);  // ... after it, never before
    }
}

__device__ void record_wrong(MessageCheck* check, int pair, int round, int got) {
    if (atomicAdd(&check->wrong, 1u) == 0) {
        check->pair = pair;
        check->round = round;
        check->got = got;
    }
}

__device__ void consume(const int* row, unsigned* ready, int pair, MessageCheck* check) {
    Flag flag(*ready);
    for (int round = 1; round <= kMessageRounds; ++round) {
        while (flag.load(cuda::memory_order_relaxed) < static_cast<unsigned>(round)) {
        }
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        const int sum = row[round - 1];
        if (sum != message_sum(pair, round)) record_wrong(check, pair, round, sum);
    }
}

__global__ void message_passing_kernel(int* sums, unsigned* ready, MessageCheck* check, int pairs) {
    const unsigned ticket = take_ticket(ready + pairs);
    const int pair = static_cast<int>(ticket / 2) * kMessagePairsPerBlock + static_cast<int>(threadIdx.x);
    int* const row = sums + static_cast<long long>(pair) * kMessageRounds;
    if (ticket % 2 == 0)
        produce(row, ready + pair, pair);
    else
        consume(row, ready + pair, pair, check);
}

}  // namespace

void pass_messages(const MessageBoard& board) {
    if (board.pairs <= 0 || board.pairs % kMessagePairsPerBlock != 0)
        throw std::logic_error("the message board holds no whole number of blocks' pairs");
    WB_CUDA_CHECK(cudaMemsetAsync(board.sums, 0xFF, sizeof(int) * board.pairs * kMessageRounds));
    WB_CUDA_CHECK(cudaMemsetAsync(board.ready, 0, sizeof(unsigned) * (board.pairs + 1)));
    WB_CUDA_CHECK(cudaMemsetAsync(board.check, 0, sizeof(MessageCheck)));
    const unsigned blocks = 2u * static_cast<unsigned>(board.pairs / kMessagePairsPerBlock);
    message_passing_kernel<<<blocks, kMessagePairsPerBlock>>>(board.sums, board.ready, board.check, board.pairs);
    WB_CHECK_LAUNCH("message_passing_kernel");
}
