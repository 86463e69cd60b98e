// Lesson 14 harness: exercise part 5 checked alone (compiled with each variant's look_back.cuh).
// Each check runs in one block, so that none needs two blocks resident at once: where a status
// must change while your code waits for it, the block's second warp (the harness) changes it.
#include "harness/part_checks.h"

#include "harness/helpers.h"
#include "harness/reference.h"
#include "look_back.cuh"

#include "wb/workbook.h"

#include <random>
#include <string>
#include <vector>

namespace {

using Word = unsigned long long;

const char* const kPart = "part 5 (look_back.cuh)";

// The harness reads and writes words that your code may be using at that very moment with
// atomic read-modify-write operations of its own (an addition of nothing, an exchange).
__device__ inline Word harness_read(Word* word) { return atomicAdd(word, 0ull); }
__device__ inline void harness_write(Word* word, Word value) { atomicExch(word, value); }

// A pause of about `microseconds`, long enough for the other warp to be waiting.
__device__ inline void pause_us(int microseconds) {
    for (int k = 0; k < microseconds; ++k) __nanosleep(1000);
}

// The harness's wait for a tile's status, at most about 0.1 s (ample under compute-sanitizer
// too): returns what it read last, still empty when your code never published.
__device__ inline Word wait_bounded(Word* word) {
    Word seen = harness_read(word);
    for (int k = 0; k < 100000 && (seen >> 32) == kTileEmpty; ++k) {
        __nanosleep(1000);
        seen = harness_read(word);
    }
    return seen;
}

// The tolerance of a sum of the check's inputs: none for integers; for floats, the tiny inputs
// (a denormal, -1e-30) that a float sum absorbs and the reference's double keeps.
template <class T>
std::vector<double> sum_tolerance(std::size_t count) {
    return std::vector<double>(count, std::is_integral_v<T> ? 0.0 : 1e-29);
}

// ---- the status words (TODO 5a, 5b) -------------------------------------------------------

// Thread k publishes words[k] as the status of tile k.
template <class T>
__global__ void publish_kernel(Word* status, const Word* words) {
    const TileStatus<T> wanted = unpack_status<T>(words[threadIdx.x]);
    publish(status, threadIdx.x, wanted.flag, wanted.value);
}

// Lane k of warp 0 reads the status of tile k. A second warp, where the block has one, publishes
// the 32 words (from last to first) only after a pause: warp 0 must wait for them.
template <class T>
__global__ void read_kernel(Word* status, const Word* words, Word* got) {
    const int i = static_cast<int>(threadIdx.x);
    if (i >= 32) {
        if (i == 32) {
            pause_us(50);
            for (int k = 31; k >= 0; --k) harness_write(status + k, words[k]);
        }
        return;
    }
    const TileStatus<T> seen = wait_for_status<T>(status, i);
    got[i] = pack_status(seen.flag, seen.value);
}

// Compares status words: their flags, then the bits of their values. One line.
bool compare_words(const std::string& what, const std::vector<Word>& got, const std::vector<Word>& expected) {
    std::vector<double> got_flags, flags, got_bits, bits;
    for (std::size_t i = 0; i < got.size(); ++i) {
        got_flags.push_back(static_cast<double>(got[i] >> 32));
        flags.push_back(static_cast<double>(expected[i] >> 32));
        got_bits.push_back(static_cast<double>(static_cast<unsigned>(got[i])));
        bits.push_back(static_cast<double>(static_cast<unsigned>(expected[i])));
    }
    const std::vector<double> exact(got.size(), 0.0);
    if (got_flags != flags) return compare_part(kPart, what, got_flags, flags, exact, "flag");
    return compare_part(kPart, what, got_bits, bits, exact, "value bits");
}

// 32 words of random values (the check's inputs: wrapped integers, -0, a denormal float...),
// each an aggregate or an inclusive prefix.
template <class T>
std::vector<Word> random_words(std::uint64_t seed) {
    const std::vector<T> values = scan_input<T>(32, seed);
    std::vector<Word> words;
    for (std::size_t k = 0; k < values.size(); ++k)
        words.push_back(pack_status(k % 3 == 1 ? kTileAggregate : kTileInclusive, values[k]));
    return words;
}

template <class T>
bool check_status_words(std::uint64_t seed) {
    const std::vector<Word> words = random_words<T>(seed);
    const std::vector<Word> empty(words.size(), 0);
    wb::DeviceBuffer<Word> d_words(words), status(empty), got(words.size());
    publish_kernel<T><<<1, 32>>>(status.get(), d_words.get());
    WB_CHECK_LAUNCH("publish_kernel");
    wait_for_part("publish_kernel");
    const std::string type = std::string(", ") + type_name<T>();
    bool ok = compare_words("publish" + type, status.to_host(), words);
    for (bool late : {false, true}) {
        status.upload(late ? empty.data() : words.data());
        got.upload(empty.data());
        read_kernel<T><<<1, late ? 64 : 32>>>(status.get(), d_words.get(), got.get());
        WB_CHECK_LAUNCH("read_kernel");
        wait_for_part("read_kernel (wait_for_status)");
        ok &= compare_words((late ? "wait_for_status, late" : "wait_for_status") + type, got.to_host(), words);
    }
    return ok;
}

// ---- the look-back (TODO 5c) --------------------------------------------------------------

// The statuses before one tile: tile 0 and the tiles of `inclusive` hold inclusive prefixes,
// the others aggregates; `late` tiles are published by the harness after a pause.
struct LookBackCase {
    long long tile;
    std::vector<long long> inclusive;
    std::vector<long long> late;
};

// The sum that a look-back of `tile` over `words` must return: values back to the nearest
// inclusive prefix, that one included (integers wrapped, floats in double).
template <class T>
double expected_before(const std::vector<Word>& words, long long tile) {
    RunningSum<T> sum;
    for (long long k = tile - 1; k >= 0; --k) {
        sum.add(unpack_status<T>(words[k]).value);
        if ((words[k] >> 32) == kTileInclusive) break;
    }
    return sum.value();
}

template <class T>
std::vector<Word> case_words(const LookBackCase& c, std::uint64_t seed) {
    const std::vector<T> values = scan_input<T>(c.tile + 1, seed);
    std::vector<Word> words;
    for (long long k = 0; k <= c.tile; ++k) {
        bool inclusive = k == 0;
        for (long long t : c.inclusive) inclusive |= t == k;
        words.push_back(k == c.tile ? 0 : pack_status(inclusive ? kTileInclusive : kTileAggregate, values[k]));
    }
    return words;
}

// Warp 0 looks back from `tile`; warp 1 publishes `late` tiles (their words in `late_words`)
// after a pause. Every lane writes its result.
template <class T>
__global__ void look_back_kernel(Word* status, long long tile, const long long* late, const Word* late_words,
                                 int late_count, T* out) {
    if (threadIdx.x >= 32) {
        if (threadIdx.x == 32) {
            pause_us(50);
            for (int k = 0; k < late_count; ++k) harness_write(status + late[k], late_words[k]);
        }
        return;
    }
    out[threadIdx.x] = look_back<T>(status, tile);
}

template <class T>
bool check_look_back_case(const LookBackCase& c, std::uint64_t seed) {
    const std::vector<Word> words = case_words<T>(c, seed);
    std::vector<Word> published = words, late_words;
    for (long long t : c.late) {
        late_words.push_back(words[t]);
        published[t] = 0;
    }
    wb::DeviceBuffer<Word> status(published), d_late_words(late_words.empty() ? std::vector<Word>{0} : late_words);
    wb::DeviceBuffer<long long> d_late(c.late.empty() ? std::vector<long long>{0} : c.late);
    wb::DeviceBuffer<T> out(32);
    out.poison();
    look_back_kernel<T>
        <<<1, 64>>>(status.get(), c.tile, d_late.get(), d_late_words.get(), static_cast<int>(c.late.size()), out.get());
    WB_CHECK_LAUNCH("look_back_kernel");
    wait_for_part("look_back_kernel");
    const std::vector<double> expected(32, expected_before<T>(words, c.tile));
    std::string what = "look_back from tile " + std::to_string(c.tile);
    if (!c.late.empty()) what += ", late";
    return compare_part(kPart, what + ", " + type_name<T>(), out.to_host(), expected, sum_tolerance<T>(32));
}

// Tile 0, the edges of the warp's windows of 32, inclusive prefixes at several distances (the
// nearest counts), long runs of aggregates, predecessors published late; then random layouts.
std::vector<LookBackCase> look_back_cases(std::uint64_t seed) {
    std::vector<LookBackCase> cases = {{1, {}, {}},   {6, {}, {}},   {32, {}, {}},        {33, {}, {}},
                                       {40, {8}, {}}, {41, {8}, {}}, {45, {3}, {}},       {70, {10, 50, 60}, {}},
                                       {100, {}, {}}, {5, {3}, {4}}, {38, {2}, {37, 36}}, {1, {}, {0}}};
    std::mt19937_64 generator(seed);
    for (int k = 0; k < 6; ++k) {
        LookBackCase c{static_cast<long long>(generator() % 200 + 2), {}, {}};
        for (long long t = 1; t < c.tile; ++t)
            if (generator() % 16 == 0) c.inclusive.push_back(t);
        cases.push_back(c);
    }
    return cases;
}

template <class T>
bool check_look_backs(std::uint64_t seed) {
    bool ok = true;
    for (const LookBackCase& c : look_back_cases(seed)) ok &= check_look_back_case<T>(c, seed + c.tile);
    return ok;
}

// ---- a tile's prefix (TODO 5d) ------------------------------------------------------------

// The block runs tile_prefix for `tile` with `total`; its warp 1 stands for the tile before,
// which finishes late: it waits (a while at most) for this tile's aggregate, keeps what it saw
// in *seen, and only then publishes its own status, `predecessor`.
template <class T>
__global__ void tile_prefix_kernel(Word* status, long long tile, T total, Word predecessor, Word* seen, T* out) {
    if (tile > 0 && threadIdx.x == 32) {
        *seen = wait_bounded(status + tile);
        harness_write(status + tile - 1, predecessor);
    }
    __syncwarp();  // warp 1 together again before tile_prefix's barrier
    out[threadIdx.x] = tile_prefix<T>(status, tile, total);
}

// The tile's last status must be its inclusive prefix: flag, then value (before + total).
template <class T>
bool check_last_status(const std::string& what, Word last, double before, T total) {
    RunningSum<T> inclusive;
    inclusive.add(static_cast<T>(before));
    inclusive.add(total);
    bool ok = compare_part(kPart, what + ", last flag", std::vector<double>{static_cast<double>(last >> 32)},
                           {static_cast<double>(kTileInclusive)}, {0.0}, "flag");
    ok &= compare_part(kPart, what + ", last value", std::vector<T>{unpack_status<T>(last).value}, {inclusive.value()},
                       sum_tolerance<T>(1), "value");
    return ok;
}

template <class T>
bool check_tile_prefix(const LookBackCase& c, std::uint64_t seed) {
    std::vector<Word> words = case_words<T>(c, seed);
    const T total = scan_input<T>(64, seed + 1)[37];  // a random value (the edge values are elsewhere)
    const Word predecessor = c.tile > 0 ? words[c.tile - 1] : 0;
    const double before = c.tile > 0 ? expected_before<T>(words, c.tile) : 0.0;
    if (c.tile > 0) words[c.tile - 1] = 0;  // published late, by the kernel's second warp
    wb::DeviceBuffer<Word> status(words), seen(std::vector<Word>{0});
    wb::DeviceBuffer<T> out(128);
    out.poison();
    tile_prefix_kernel<T><<<1, 128>>>(status.get(), c.tile, total, predecessor, seen.get(), out.get());
    WB_CHECK_LAUNCH("tile_prefix_kernel");
    wait_for_part("tile_prefix_kernel");
    const std::string what = "tile_prefix of tile " + std::to_string(c.tile) + ", " + type_name<T>();
    bool ok = compare_part(kPart, what, out.to_host(), std::vector<double>(128, before), sum_tolerance<T>(128));
    if (c.tile > 0)
        ok &= compare_words(what + ", aggregate first", seen.to_host(), {pack_status(kTileAggregate, total)});
    return check_last_status<T>(what, status.to_host()[c.tile], before, total) && ok;
}

template <class T>
bool check_tile_prefixes(std::uint64_t seed) {
    bool ok = true;
    for (const LookBackCase& c : std::vector<LookBackCase>{{0, {}, {}}, {1, {}, {}}, {3, {2}, {}}, {40, {7}, {}}})
        ok &= check_tile_prefix<T>(c, seed + c.tile);
    return ok;
}

template <class T>
bool check_part5(std::uint64_t seed) {
    bool ok = check_status_words<T>(seed);
    ok &= check_look_backs<T>(seed + 1);
    ok &= check_tile_prefixes<T>(seed + 2);
    return ok;
}

}  // namespace

bool check_look_back_parts(std::uint64_t seed) {
    bool ok = check_part5<int>(seed);
    ok &= check_part5<float>(seed + 10);
    return ok;
}
