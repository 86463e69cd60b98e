/// @file args.h
/// @brief Command-line options shared by every lesson program.
///
/// Every program accepts:
///   --check            run the correctness check (the default)
///   --bench            run the benchmark and write CSV rows
///   --sizes LIST       comma-separated sizes; each is N, AxB or AxBxC; a range A:B:STEP
///   --block LIST       thread blocks, e.g. 16 (meaning 16x16), 32x8, or 256
///   --repeat N         timed repeats (benchmarks)
///   --seed N           seed of the random inputs (printed in every run)
///   --out FILE         CSV file for --bench
///   --full             the long benchmark sweep (as in the source reports)
///   --help
/// plus the lesson's own options. A bad value prints one line "error: ..." and exits with 2.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb {

/// A 2D thread-block (or tile) shape.
struct Block2 {
    int x = 0;                ///< threads (or tile width) along x
    int y = 1;                ///< threads along y
    bool one_number = false;  ///< given as "N" (meaning NxN), not "XxY"
    std::string str() const;  ///< e.g. "32x8"
    /// Threads in the block.
    long threads() const { return static_cast<long>(x) * y; }
};

/// An option a lesson adds to the common ones. A numeric one is declared with integer_option or
/// number_option: parse_args then refuses a value outside its bounds, --help shows them, and
/// Options::integer or Options::number reads it back.
struct ExtraOption {
    /// What the value may be.
    enum class Kind { text, integer, number };
    std::string name;           ///< without the dashes, e.g. "steps"
    std::string value_name;     ///< e.g. "N"; empty for a flag without value
    std::string help;           ///< one line for --help
    Kind kind = Kind::text;     ///< text: any value; integer: a whole number; number: a finite number
    double lo = 0;              ///< the least value of an integer or number
    double hi = 0;              ///< the largest value of an integer or number
    bool has_fallback = false;  ///< false: the driver gives the default (it depends on the mode)
    double fallback = 0;        ///< the value when the option is absent
};

/// A lesson option whose value is a whole number from `lo` to `hi` (0 <= lo <= hi < 2^53),
/// `fallback` when it is absent; --help adds "(default F; LO..HI)" to `help`.
ExtraOption integer_option(const std::string& name, const std::string& value_name, const std::string& help,
                           long fallback, long lo, long hi);
/// The same without a default: the driver passes it to Options::integer (it depends on the mode,
/// which `help` then says); --help adds "(LO..HI)".
ExtraOption integer_option(const std::string& name, const std::string& value_name, const std::string& help, long lo,
                           long hi);
/// A lesson option whose value is a finite number from `lo` to `hi`, `fallback` when it is absent.
ExtraOption number_option(const std::string& name, const std::string& value_name, const std::string& help,
                          double fallback, double lo, double hi);
/// The same without a default (the driver gives it, or reads the option only when it is given).
ExtraOption number_option(const std::string& name, const std::string& value_name, const std::string& help, double lo,
                          double hi);

/// What the CSV of a lesson's --bench run holds besides the common columns (wb/csv.h). The
/// benchmark opens it through the BenchContext that lesson_main hands it (wb/lesson.h).
struct BenchCsv {
    bool host_cpu = false;                   ///< times the host CPU: no GPU environment lines or roofs
    std::vector<std::string> extra_columns;  ///< the benchmark's own columns, after the common ones
    /// Then the power and clock columns (wb::power_columns()), and the comment line saying what
    /// they hold.
    bool power_columns = false;
    /// Whether this process writes the file: a lesson of several processes (MPI ranks) writes it
    /// from one. Null: it does. The others still print their rows and write no file.
    bool (*writes_file)() = nullptr;
};

/// What a lesson tells the parser about itself (for --help and defaults).
struct LessonInfo {
    std::string name;                          ///< e.g. "02-naive-matmul"
    std::string summary;                       ///< one line
    std::string sizes_help = "matrix orders";  ///< what --sizes means; empty: the program takes no --sizes
    std::vector<ExtraOption> extra;            ///< the lesson's own options
    bool accepts_block = true;                 ///< false: --block is an error (the lesson fixes its blocks)
    /// Why --block is refused, after the program's name.
    std::string no_block_reason = "chooses its thread blocks itself (see its page)";
    bool benchmarks = true;  ///< false: --bench, --repeat, --out and --full are errors
    /// The timed repeats per benchmark point when --repeat is not given (Options::repeat); 0: the
    /// lesson chooses them as it measures (Options::repeat stays 0).
    int default_repeats = 0;
    /// The check's time limit in seconds: a check still running then ends as FAILED, naming the
    /// likely causes (an endless loop, a kernel that never finishes, an exchange only one side
    /// joins). Far above what a correct solution needs; WORKBOOK_CHECK_TIME_SCALE multiplies it
    /// (set by the tools that slow a program down, such as compute-sanitizer).
    double check_seconds = 120;
    /// The least side of every --sizes item, checked by parse_args ("--sizes: 2x2 is too small
    /// (at least 3x3)").
    long sizes_least = 1;
    /// The largest side of every --sizes item (0: the parser's own limit).
    long sizes_most = 0;
    /// In --check, the largest side of every --sizes item (0: no other limit), e.g. where the
    /// check's reference would take too long ("--sizes: 40000x2 is too large for the check (at
    /// most 30000x30000)").
    long sizes_most_in_check = 0;
    /// What its benchmark's CSV holds besides the common columns.
    BenchCsv csv{};
};

/// The parsed command line.
struct Options {
    /// What the program does.
    enum class Mode { check, bench };
    Mode mode = Mode::check;                   ///< --check (default) or --bench
    std::vector<std::vector<long>> sizes;      ///< empty: the lesson's default
    std::vector<Block2> blocks;                ///< empty: the lesson's default
    int repeat = 0;                            ///< --repeat, else LessonInfo::default_repeats
    std::uint64_t seed = 0;                    ///< seed of the random inputs
    std::string out;                           ///< CSV path for --bench (may be empty)
    bool full = false;                         ///< --full: the long sweep
    std::string command_line;                  ///< the whole command, for CSV headers
    std::map<std::string, std::string> extra;  ///< the lesson's own options, by name
    std::vector<ExtraOption> declared;         ///< the lesson's own options, as declared

    /// True when the lesson option was given.
    bool has(const std::string& name) const { return extra.count(name) != 0; }
    /// The lesson option's value, or `fallback`.
    std::string get(const std::string& name, const std::string& fallback) const;
    /// The value of an option declared with integer_option (checked by parse_args), else its
    /// declared default. Reading an option declared otherwise, or one without a default, throws
    /// std::logic_error: a fault of the driver, not of the command line.
    long integer(const std::string& name) const;
    /// The same, with `fallback` when the option is absent (a default that depends on the mode).
    long integer(const std::string& name, long fallback) const;
    /// The value of an option declared with number_option, else its declared default.
    double number(const std::string& name) const;
    /// The same, with `fallback` when the option is absent.
    double number(const std::string& name, double fallback) const;
};

/// Parses argv; prints help and exits 0 on --help; exits 2 on a bad option or value (an option
/// the program does not take, an empty value, or a misspelt name, with "did you mean ...?").
Options parse_args(int argc, char** argv, const LessonInfo& info);

/// Prints "error: <message> (try --help)" to stderr and exits with kExitUsage.
[[noreturn]] void usage_error(const std::string& message);

/// Splits "a,b,,c" at each separator into "a", "b", "", "c" (a trailing separator gives a
/// last empty part).
std::vector<std::string> split(const std::string& text, char separator);

/// Parses a list like "1,7,60", "1000:10000:1000" or "61x37x53,4096x3x4096".
std::vector<std::vector<long>> parse_sizes(const std::string& text);
/// Parses a list like "16,32x8,256".
std::vector<Block2> parse_blocks(const std::string& text);

/// Returns a*b*c*element_size, or exits with a usage error if that overflows size_t.
std::size_t checked_bytes(std::size_t element_size, long a, long b = 1, long c = 1);

/// The square matrix orders of --sizes, or `fallback` when it is absent, for programs that
/// multiply n x n matrices: each item is n, nxn or nxnxn. Any other item is a usage error
/// ("--sizes: <who> multiplies square matrices; ..."), and so is an order above `largest`
/// ("--sizes: 20000 is too large<why> (at most 12000)", e.g. why = " for the CPU").
std::vector<int> square_orders(const Options& options, const std::vector<int>& fallback, long largest,
                               const std::string& who, const std::string& why = "");

/// A matrix size given as MxN (rows x columns) on the command line, e.g. "160000x8".
struct RowsCols {
    long rows = 0;  ///< M
    long cols = 0;  ///< N
    /// e.g. "160000x8".
    std::string str() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

/// The items of --sizes read as MxN, or `fallback` when it is absent. An item of one or three
/// numbers is a usage error: "--sizes: give each <noun> as MxN (rows x columns), e.g. <example>".
std::vector<RowsCols> rows_by_cols(const Options& options, const std::vector<RowsCols>& fallback,
                                   const std::string& noun, const std::string& example);

/// The one MxN item of --sizes (or `fallback`) of a benchmark that times a single shape: a usage
/// error unless exactly one is given ("--sizes: give one <what> for the benchmark") with each side
/// from `least` ("too small to time") to `most` ("too large").
RowsCols one_timed_shape(const Options& options, const RowsCols& fallback, const std::string& noun,
                         const std::string& what, long least, long most);

}  // namespace wb
