#include "wb/args.h"

#include "wb/exit_codes.h"
#include "wb/random.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace wb {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream stream(text);
    while (std::getline(stream, part, separator)) parts.push_back(part);
    if (!text.empty() && text.back() == separator) parts.push_back("");
    return parts;
}

namespace {

constexpr long kMaxDimension = 1L << 30;

// Parses a whole decimal integer; false on anything else (sign, spaces, junk, overflow).
bool parse_long(const std::string& text, long& value) {
    if (text.empty() || text.size() > 18) return false;
    for (char c : text)
        if (c < '0' || c > '9') return false;
    errno = 0;
    value = std::strtol(text.c_str(), nullptr, 10);
    return errno == 0;
}

long positive(const std::string& text, const std::string& what) {
    long value = 0;
    if (!parse_long(text, value)) usage_error(what + ": '" + text + "' is not a positive whole number");
    if (value < 1 || value > kMaxDimension)
        usage_error(what + ": " + text + " is out of range (1.." + std::to_string(kMaxDimension) + ")");
    return value;
}

std::vector<long> dims_of(const std::string& item) {
    std::vector<long> dims;
    for (const std::string& part : split(item, 'x')) dims.push_back(positive(part, "--sizes"));
    return dims;
}

void print_help(const LessonInfo& info, const char* program) {
    std::printf("%s: %s\n\nUsage: %s [--check | --bench] [options]\n\n", info.name.c_str(), info.summary.c_str(),
                program);
    std::printf("  --check          run the correctness check (default)\n"
                "  --bench          run the benchmark; one CSV row per measurement\n"
                "  --sizes LIST     %s: comma-separated, each N or AxB or AxBxC; a range as FROM:TO:STEP\n"
                "  --block LIST     thread blocks, e.g. 16 (16x16), 32x8\n"
                "  --repeat N       timed repeats per benchmark point (median reported)\n"
                "  --seed N         seed of the random inputs (default %llu)\n"
                "  --out FILE       CSV file written by --bench\n"
                "  --full           the long benchmark sweep of the source reports\n",
                info.sizes_help.c_str(), static_cast<unsigned long long>(kDefaultSeed));
    for (const auto& option : info.extra) {
        std::string flag = "--" + option.name + (option.value_name.empty() ? "" : " " + option.value_name);
        std::printf("  %-16s %s\n", flag.c_str(), option.help.c_str());
    }
    std::printf("  --help           this text\n\nExit codes: 0 pass, 1 check failed, 2 bad arguments or input, "
                "3 CUDA error, 77 no usable GPU (skipped).\n");
}

}  // namespace

std::string Block2::str() const { return std::to_string(x) + "x" + std::to_string(y); }

void usage_error(const std::string& message) {
    std::fprintf(stderr, "error: %s (try --help)\n", message.c_str());
    std::exit(kExitUsage);
}

std::vector<std::vector<long>> parse_sizes(const std::string& text) {
    std::vector<std::vector<long>> sizes;
    if (text.empty()) usage_error("--sizes: empty list");
    for (const std::string& item : split(text, ',')) {
        if (item.empty()) usage_error("--sizes: empty item in '" + text + "'");
        if (item.find(':') != std::string::npos) {
            const auto range = split(item, ':');
            if (range.size() != 3) usage_error("--sizes: range '" + item + "' must be FROM:TO:STEP");
            const long from = positive(range[0], "--sizes"), to = positive(range[1], "--sizes"),
                       step = positive(range[2], "--sizes");
            if (to < from) usage_error("--sizes: range '" + item + "' ends before it starts");
            if ((to - from) / step > 10000) usage_error("--sizes: range '" + item + "' has too many points");
            for (long v = from; v <= to; v += step) sizes.push_back({v});
        } else {
            sizes.push_back(dims_of(item));
        }
    }
    return sizes;
}

std::vector<Block2> parse_blocks(const std::string& text) {
    std::vector<Block2> blocks;
    if (text.empty()) usage_error("--block: empty list");
    for (const std::string& item : split(text, ',')) {
        const auto parts = split(item, 'x');
        if (item.empty() || parts.size() > 2) usage_error("--block: '" + item + "' is not a block (e.g. 16 or 32x8)");
        Block2 block;
        block.x = static_cast<int>(positive(parts[0], "--block"));
        block.y = parts.size() == 2 ? static_cast<int>(positive(parts[1], "--block")) : block.x;
        block.one_number = parts.size() == 1;
        if (block.x > 65535 || block.y > 65535) usage_error("--block: '" + item + "' is far too large");
        blocks.push_back(block);
    }
    return blocks;
}

std::size_t checked_bytes(std::size_t element_size, long a, long b, long c) {
    if (a < 0 || b < 0 || c < 0) usage_error("negative size");
    const unsigned long long limit = ULLONG_MAX;
    unsigned long long total = element_size;
    for (long factor : {a, b, c}) {
        if (factor != 0 && total > limit / static_cast<unsigned long long>(factor))
            usage_error("sizes " + std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c) +
                        " overflow the addressable memory");
        total *= static_cast<unsigned long long>(factor);
    }
    return static_cast<std::size_t>(total);
}

std::vector<int> square_orders(const Options& options, const std::vector<int>& fallback, long largest,
                               const std::string& who, const std::string& why) {
    if (options.sizes.empty()) return fallback;
    std::vector<int> orders;
    for (const std::vector<long>& dims : options.sizes) {
        bool square = true;
        for (long side : dims) square = square && side == dims[0];
        if (dims.size() > 3 || !square)
            usage_error("--sizes: " + who + " multiplies square matrices; give one order n per item");
        if (dims[0] > largest)
            usage_error("--sizes: " + std::to_string(dims[0]) + " is too large" + why + " (at most " +
                        std::to_string(largest) + ")");
        orders.push_back(static_cast<int>(dims[0]));
    }
    return orders;
}

std::vector<RowsCols> rows_by_cols(const Options& options, const std::vector<RowsCols>& fallback,
                                   const std::string& noun, const std::string& example) {
    if (options.sizes.empty()) return fallback;
    std::vector<RowsCols> sizes;
    for (const std::vector<long>& dims : options.sizes) {
        if (dims.size() != 2) usage_error("--sizes: give each " + noun + " as MxN (rows x columns), e.g. " + example);
        sizes.push_back(RowsCols{dims[0], dims[1]});
    }
    return sizes;
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
    const auto it = extra.find(name);
    return it == extra.end() ? fallback : it->second;
}

long Options::get_long(const std::string& name, long fallback, long lo, long hi) const {
    const auto it = extra.find(name);
    if (it == extra.end()) return fallback;
    long value = 0;
    if (!parse_long(it->second, value) || value < lo || value > hi)
        usage_error("--" + name + ": '" + it->second + "' must be a whole number in " + std::to_string(lo) + ".." +
                    std::to_string(hi));
    return value;
}

Options parse_args(int argc, char** argv, const LessonInfo& info) {
    Options options;
    options.seed = kDefaultSeed;
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);

    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const std::string& name) -> std::string {
            if (i + 1 >= argc) usage_error(name + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            print_help(info, argv[0]);
            std::exit(kExitPass);
        } else if (arg == "--check") {
            options.mode = Options::Mode::check;
        } else if (arg == "--bench") {
            options.mode = Options::Mode::bench;
        } else if (arg == "--sizes") {
            options.sizes = parse_sizes(value(arg));
        } else if (arg == "--block") {
            const std::string text = value(arg);
            if (!info.accepts_block)
                usage_error("--block: " + info.name + " chooses its thread blocks itself (see its page)");
            options.blocks = parse_blocks(text);
        } else if (arg == "--repeat") {
            long n = 0;
            const std::string text = value(arg);
            if (!parse_long(text, n) || n < 1 || n > 100000) usage_error("--repeat: '" + text + "' must be 1..100000");
            options.repeat = static_cast<int>(n);
        } else if (arg == "--seed") {
            const std::string text = value(arg);
            long n = 0;
            if (!parse_long(text, n)) usage_error("--seed: '" + text + "' is not a whole number");
            options.seed = static_cast<std::uint64_t>(n);
        } else if (arg == "--out") {
            options.out = value(arg);
            if (options.out.empty()) usage_error("--out: empty file name");
        } else if (arg == "--full") {
            options.full = true;
        } else {
            bool known = false;
            for (const auto& option : info.extra) {
                if (arg != "--" + option.name) continue;
                known = true;
                options.extra[option.name] = option.value_name.empty() ? "1" : value(arg);
            }
            if (!known) usage_error("unknown option '" + arg + "'");
        }
    }
    return options;
}

}  // namespace wb
