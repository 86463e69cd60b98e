/// @file scan.h
/// @brief Lesson 14: prefix sums (scan) and stream compaction, as the driver calls them.
///
/// Every function works on device memory, launches its kernels on the default stream, checks
/// the launches and does not wait for them. Integers add with wrap-around (two's complement,
/// modulo 2^32), as CUB's sums of int do; floats add in float.
#pragma once

#include <cuda_runtime.h>

/// Which prefix sum: out[i] = x[0] + ... + x[i-1] (exclusive, out[0] = 0) or x[0] + ... + x[i]
/// (inclusive).
enum class ScanKind { exclusive, inclusive };

/// Which elements a compaction keeps: every one, none, or about half (even integers, positive
/// floats; predicate.cuh).
enum class Keep { all, none, half };

// ---- The three-kernel scan (the exercise, scan.cu) ----------------------------------------

constexpr int kScanThreads = 256;                     ///< threads per block of kernels 1 and 3
constexpr int kScanItems = 8;                         ///< elements per thread of kernels 1 and 3
constexpr int kScanTile = kScanThreads * kScanItems;  ///< elements per block (a tile)
constexpr int kSumsThreads = 1024;                    ///< threads of kernel 2's one block
constexpr int kSumsItems = 8;                         ///< tile sums per thread and round

/// Tiles of kScanTile elements that cover n elements.
inline long long scan_tiles(long long n) { return (n + kScanTile - 1) / kScanTile; }

/// The three-kernel scan of n elements: (1) each block sums its tile into tile_sums, (2) one
/// block scans tile_sums (exclusive), (3) each block scans its tile again and adds its tile's
/// offset. `tile_sums` holds scan_tiles(n) elements.
template <class T>
void three_kernel_scan(const T* in, T* out, long long n, ScanKind kind, T* tile_sums);

/// Kernel 2 alone: the exclusive scan of `count` values in place, by one block; with `total`
/// not null, also writes the sum of all of them there.
template <class T>
void scan_in_one_block(T* values, long long count, T* total);

// ---- Stream compaction (the exercise, compact.cu) -------------------------------------------

/// Ints of scratch memory compact() needs for n elements.
inline long long compact_scratch(long long n) { return scan_tiles(n) + 1; }

/// Writes the elements of `in` that `keep` keeps to out[0 .. kept), in their order, and the
/// count kept to *d_kept (device memory). `scratch` holds compact_scratch(n) ints.
template <class T>
void compact(const T* in, T* out, long long n, Keep keep, int* scratch, int* d_kept);

// ---- Part 5: one pass with decoupled look-back (given kernels on your look_back.cuh) ------

/// The tile status words and the tile counter of a single-pass kernel; the launch clears them.
struct LookBackState {
    unsigned long long* status = nullptr;  ///< one word per tile (flag high, value low), then the counter
    long long capacity = 0;                ///< words allocated
};

/// Words a single-pass kernel needs for n elements: a status word for each tile of the
/// smallest tiles any launch uses, and one for the tile counter.
long long look_back_words(long long n);

/// The single-pass scan with decoupled look-back (Merrill & Garland): one read and one write
/// of each element.
template <class T>
void single_pass_scan(const T* in, T* out, long long n, ScanKind kind, const LookBackState& state);

/// The same kernel with tiles of 128 elements (blocks of 32 threads): thousands of tiles on a
/// small input, so that each tile's look-back meets predecessors still publishing; used by the
/// check's memory-ordering stress test.
void single_pass_scan_tiny(const int* in, int* out, long long n, const LookBackState& state);

/// The single-pass compaction: tile counts published and summed by the same look-back.
template <class T>
void single_pass_compact(const T* in, T* out, long long n, Keep keep, const LookBackState& state, int* d_kept);

// ---- Part 5, read it: a flag that publishes other memory (message_passing.cu) -------------

constexpr int kMessageRounds = 64;         ///< sums each producer publishes in one launch
constexpr int kMessagePairsPerBlock = 32;  ///< one pair per lane: a producing and a consuming warp

/// The sum that the producer of `pair` publishes in `round` (1, 2, ...): never -1, the value
/// the sums hold before (0xFF bytes).
__host__ __device__ inline int message_sum(int pair, int round) { return pair * kMessageRounds + round; }

/// What the consumers of one launch found (zero: every sum right).
struct MessageCheck {
    unsigned wrong;  ///< sums read wrong
    int pair;        ///< the first one found: its pair,
    int round;       ///< its round,
    int got;         ///< and what the consumer read
};

/// The memory of the message-passing test: each producer stores its sum of round r in
/// sums[pair][r - 1] with an ordinary store, then sets ready[pair] = r; each consumer waits for
/// ready[pair] >= r and reads that sum with an ordinary load.
struct MessageBoard {
    int* sums = nullptr;            ///< pairs x kMessageRounds
    unsigned* ready = nullptr;      ///< one flag per pair, then the block counter: pairs + 1
    MessageCheck* check = nullptr;  ///< what the consumers found
    int pairs = 0;                  ///< a multiple of kMessagePairsPerBlock
};

/// One launch of the message-passing test: clears the board, then pairs / 32 producing and as
/// many consuming blocks of one warp pass kMessageRounds sums per pair. Does not wait.
void pass_messages(const MessageBoard& board);
