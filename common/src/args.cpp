#include "wb/args.h"

#include "wb/exit_codes.h"
#include "wb/random.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

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

// The common options this program takes (help text and spell checking list only these).
std::vector<std::string> common_options(const LessonInfo& info) {
    std::vector<std::string> names = {"--check", "--seed", "--help"};
    if (info.benchmarks) names.insert(names.end(), {"--bench", "--repeat", "--out", "--full"});
    if (!info.sizes_help.empty()) names.push_back("--sizes");
    if (info.accepts_block) names.push_back("--block");
    return names;
}

bool takes(const LessonInfo& info, const std::string& option) {
    for (const std::string& name : common_options(info))
        if (name == option) return true;
    return false;
}

// A number as %g writes it (1e+06, 0.5), for messages.
std::string shortest(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// The whole number `text` if it lies in [lo, hi]; otherwise a usage error that names the option.
long whole_number_in(const std::string& name, const std::string& text, long lo, long hi) {
    long value = 0;
    if (!parse_long(text, value) || value < lo || value > hi)
        usage_error("--" + name + ": '" + text + "' must be a whole number in " + std::to_string(lo) + ".." +
                    std::to_string(hi));
    return value;
}

// The finite number `text` if it lies in [lo, hi]; otherwise a usage error that names the option.
double number_in(const std::string& name, const std::string& text, double lo, double hi) {
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(value) || value < lo || value > hi)
        usage_error("--" + name + ": '" + text + "' must be a number in " + shortest(lo) + ".." + shortest(hi));
    return value;
}

// Checks the value of a declared integer or number against its bounds (text: any value).
void check_declared_value(const ExtraOption& option, const std::string& text) {
    if (option.kind == ExtraOption::Kind::integer)
        whole_number_in(option.name, text, static_cast<long>(option.lo), static_cast<long>(option.hi));
    else if (option.kind == ExtraOption::Kind::number)
        number_in(option.name, text, option.lo, option.hi);
}

// What --help adds to a numeric option's line: " (default 300; 1..100000)" or " (1..100000)".
std::string declared_bounds_help(const ExtraOption& option) {
    if (option.kind == ExtraOption::Kind::text) return "";
    auto show = [&](double value) {
        return option.kind == ExtraOption::Kind::integer ? std::to_string(static_cast<long>(value)) : shortest(value);
    };
    const std::string range = show(option.lo) + ".." + show(option.hi);
    return option.has_fallback ? " (default " + show(option.fallback) + "; " + range + ")" : " (" + range + ")";
}

// The declaration of lesson option `name`, which the driver reads as `kind`; a driver that reads
// an option it declared otherwise (or not at all) is at fault, not the command line.
const ExtraOption& declaration(const Options& options, const std::string& name, ExtraOption::Kind kind) {
    for (const ExtraOption& option : options.declared)
        if (option.name == name && option.kind == kind) return option;
    throw std::logic_error("--" + name + " is not declared as " +
                           (kind == ExtraOption::Kind::integer ? "an integer_option" : "a number_option"));
}

ExtraOption numeric_option(const std::string& name, const std::string& value_name, const std::string& help,
                           ExtraOption::Kind kind, double lo, double hi) {
    if (!(lo <= hi) || (kind == ExtraOption::Kind::integer && (lo < 0 || hi >= 9007199254740992.0)))
        throw std::invalid_argument("--" + name + ": bounds " + shortest(lo) + ".." + shortest(hi) + " are not valid");
    ExtraOption option{name, value_name, help};
    option.kind = kind;
    option.lo = lo;
    option.hi = hi;
    return option;
}

ExtraOption with_fallback(ExtraOption option, double fallback) {
    if (!(fallback >= option.lo && fallback <= option.hi))
        throw std::invalid_argument("--" + option.name + ": default " + shortest(fallback) + " is outside its bounds");
    option.has_fallback = true;
    option.fallback = fallback;
    return option;
}

// An item of --sizes as it was given ("40000x2"), or `side` repeated as often ("30000x30000").
std::string sides_text(const std::vector<long>& dims, long side = 0) {
    std::string text;
    for (long value : dims) text += (text.empty() ? "" : "x") + std::to_string(side ? side : value);
    return text;
}

// The lesson's declared bounds of --sizes (LessonInfo::sizes_least and the two largest sides).
void check_size_bounds(const Options& options, const LessonInfo& info) {
    const bool check = options.mode == Options::Mode::check;
    for (const std::vector<long>& dims : options.sizes) {
        const long least = *std::min_element(dims.begin(), dims.end()),
                   most = *std::max_element(dims.begin(), dims.end());
        if (least < info.sizes_least)
            usage_error("--sizes: " + sides_text(dims) + " is too small (at least " +
                        sides_text(dims, info.sizes_least) + ")");
        if (info.sizes_most > 0 && most > info.sizes_most)
            usage_error("--sizes: " + sides_text(dims) + " is too large (at most " + sides_text(dims, info.sizes_most) +
                        ")");
        if (check && info.sizes_most_in_check > 0 && most > info.sizes_most_in_check)
            usage_error("--sizes: " + sides_text(dims) + " is too large for the check (at most " +
                        sides_text(dims, info.sizes_most_in_check) + ")");
    }
}

// What --help adds to --sizes for the declared bounds: " (each side 3..4096; in --check at most 100)".
std::string size_bounds_help(const LessonInfo& info) {
    std::string bounds;
    if (info.sizes_least > 1 || info.sizes_most > 0)
        bounds = "each side " + std::to_string(info.sizes_least) + ".." +
                 std::to_string(info.sizes_most > 0 ? info.sizes_most : kMaxDimension);
    if (info.sizes_most_in_check > 0)
        bounds += (bounds.empty() ? "" : "; ") + std::string("in --check at most ") +
                  std::to_string(info.sizes_most_in_check);
    return bounds.empty() ? "" : " (" + bounds + ")";
}

// Levenshtein distance, for "did you mean": small words only, so the plain table is fine.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The option the user most likely meant, or "" when none is close.
std::string closest_option(const LessonInfo& info, const std::string& typed) {
    std::vector<std::string> names = common_options(info);
    for (const auto& option : info.extra) names.push_back("--" + option.name);
    std::string best;
    std::size_t best_distance = 3;  // at most two letters off
    for (const std::string& name : names) {
        const std::size_t distance = edit_distance(typed, name);
        if (distance < best_distance) best = name, best_distance = distance;
    }
    return best;
}

void print_help(const LessonInfo& info, const char* program) {
    std::printf("%s: %s\n\nUsage: %s %s[options]\n\n", info.name.c_str(), info.summary.c_str(), program,
                info.benchmarks ? "[--check | --bench] " : "");
    std::printf("  --check          run the correctness check (default)\n");
    if (info.benchmarks) std::printf("  --bench          run the benchmark; one CSV row per measurement\n");
    if (!info.sizes_help.empty())
        std::printf("  --sizes LIST     %s: comma-separated, each N or AxB or AxBxC; a range as FROM:TO:STEP%s\n",
                    info.sizes_help.c_str(), size_bounds_help(info).c_str());
    if (info.accepts_block) std::printf("  --block LIST     thread blocks, e.g. 16 (16x16), 32x8\n");
    if (info.benchmarks && info.default_repeats > 0)
        std::printf("  --repeat N       timed repeats per benchmark point (median reported; default %d)\n",
                    info.default_repeats);
    else if (info.benchmarks)
        std::printf("  --repeat N       timed repeats per benchmark point (median reported)\n");
    std::printf("  --seed N         seed of the random inputs (default %llu)\n",
                static_cast<unsigned long long>(kDefaultSeed));
    if (info.benchmarks)
        std::printf("  --out FILE       CSV file written by --bench\n"
                    "  --full           the long benchmark sweep of the source reports\n");
    for (const auto& option : info.extra) {
        std::string flag = "--" + option.name + (option.value_name.empty() ? "" : " " + option.value_name);
        std::printf("  %-16s %s%s\n", flag.c_str(), option.help.c_str(), declared_bounds_help(option).c_str());
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

RowsCols one_timed_shape(const Options& options, const RowsCols& fallback, const std::string& noun,
                         const std::string& what, long least, long most) {
    const std::vector<RowsCols> shapes = rows_by_cols(options, {fallback}, noun, fallback.str());
    if (shapes.size() != 1) usage_error("--sizes: give one " + what + " for the benchmark");
    const RowsCols shape = shapes[0];
    if (shape.rows > most || shape.cols > most)
        usage_error("--sizes: " + shape.str() + " is too large (at most " + RowsCols{most, most}.str() + ")");
    if (shape.rows < least || shape.cols < least)
        usage_error("--sizes: " + shape.str() + " is too small to time (at least " + RowsCols{least, least}.str() +
                    ")");
    return shape;
}

ExtraOption integer_option(const std::string& name, const std::string& value_name, const std::string& help,
                           long fallback, long lo, long hi) {
    return with_fallback(integer_option(name, value_name, help, lo, hi), static_cast<double>(fallback));
}

ExtraOption integer_option(const std::string& name, const std::string& value_name, const std::string& help, long lo,
                           long hi) {
    return numeric_option(name, value_name, help, ExtraOption::Kind::integer, static_cast<double>(lo),
                          static_cast<double>(hi));
}

ExtraOption number_option(const std::string& name, const std::string& value_name, const std::string& help,
                          double fallback, double lo, double hi) {
    return with_fallback(number_option(name, value_name, help, lo, hi), fallback);
}

ExtraOption number_option(const std::string& name, const std::string& value_name, const std::string& help, double lo,
                          double hi) {
    return numeric_option(name, value_name, help, ExtraOption::Kind::number, lo, hi);
}

long Options::integer(const std::string& name) const {
    const ExtraOption& option = declaration(*this, name, ExtraOption::Kind::integer);
    if (!option.has_fallback && !has(name))
        throw std::logic_error("--" + name + " has no declared default: pass the one of this mode");
    return integer(name, static_cast<long>(option.fallback));
}

long Options::integer(const std::string& name, long fallback) const {
    const ExtraOption& option = declaration(*this, name, ExtraOption::Kind::integer);
    const auto it = extra.find(name);
    if (it == extra.end()) return fallback;
    return whole_number_in(name, it->second, static_cast<long>(option.lo), static_cast<long>(option.hi));
}

double Options::number(const std::string& name) const {
    const ExtraOption& option = declaration(*this, name, ExtraOption::Kind::number);
    if (!option.has_fallback && !has(name))
        throw std::logic_error("--" + name + " has no declared default: pass the one of this mode");
    return number(name, option.fallback);
}

double Options::number(const std::string& name, double fallback) const {
    const ExtraOption& option = declaration(*this, name, ExtraOption::Kind::number);
    const auto it = extra.find(name);
    return it == extra.end() ? fallback : number_in(name, it->second, option.lo, option.hi);
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
    const auto it = extra.find(name);
    return it == extra.end() ? fallback : it->second;
}

Options parse_args(int argc, char** argv, const LessonInfo& info) {
    Options options;
    options.seed = kDefaultSeed;
    options.declared = info.extra;
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);

    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const std::string& name) -> std::string {
            if (i + 1 >= argc) usage_error(name + " needs a value");
            return argv[++i];
        };
        const bool common = arg == "--check" || arg == "--bench" || arg == "--sizes" || arg == "--block" ||
                            arg == "--repeat" || arg == "--seed" || arg == "--out" || arg == "--full";
        if (common && !takes(info, arg)) {
            if (arg == "--block") usage_error("--block: " + info.name + " " + info.no_block_reason);
            usage_error(arg + ": " + info.name + " does not take this option");
        }
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
            options.blocks = parse_blocks(value(arg));
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
                if (options.extra[option.name].empty()) usage_error(arg + ": empty value");
                check_declared_value(option, options.extra[option.name]);
            }
            if (!known) {
                const std::string guess = closest_option(info, arg);
                usage_error("unknown option '" + arg + "'" + (guess.empty() ? "" : " (did you mean " + guess + "?)"));
            }
        }
    }
    if (options.repeat == 0) options.repeat = info.default_repeats;
    check_size_bounds(options, info);
    return options;
}

}  // namespace wb
