/// @file lesson.h
/// @brief The skeleton every lesson driver shares: one main, one way to end a check, one way to
/// build benchmark rows, and a table of versions selected by name.
///
/// A driver declares its lesson (LessonInfo, with what its CSV holds), its reference, its versions
/// and its options, and writes two functions, `check` and `bench`; lesson_main() does the rest
/// (`bench` opens the CSV through the BenchContext it is given):
///
///     int main(int argc, char** argv) { return wb::lesson_main(argc, argv, kInfo, run_check, run_bench); }
///
/// Inside `check`, a CheckTally counts the cases and prints the one ending every lesson uses;
/// inside `bench`, a BenchRows writes rows whose shared fields (lesson, precision, shape,
/// ceiling, device ...) were set once.
#pragma once

#include "wb/args.h"
#include "wb/csv.h"
#include "wb/timer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// Bad input that the user must fix (a missing or malformed file, an impossible request): the
/// message names what is wrong; lesson_main prints "error: <message>" and exits with kExitUsage.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The CSV file of one --bench run, opened by the benchmark once its arguments are checked and
/// its device is known (bad input then leaves no file), as the lesson declared it
/// (LessonInfo::csv): path and command from the command line, the lesson's own columns.
class BenchContext {
public:
    /// The context of one run of the program with these options, of the lesson `info` describes.
    BenchContext(const Options& options, const LessonInfo& info) : options_(options), info_(info) {}
    BenchContext(const BenchContext&) = delete;
    BenchContext& operator=(const BenchContext&) = delete;
    /// Opens the CSV with `device` (the GPU's name, or the CPU's) in its header and returns its
    /// writer; the file is completed when the benchmark calls finish() on it, or when it returns.
    /// No file is written without --out, or in a process that LessonInfo::csv says writes none.
    /// A second call is a programming error (std::logic_error).
    CsvWriter& open_csv(const std::string& device);
    /// True once open_csv() was called.
    bool opened() const { return csv_ != nullptr; }
    /// The device named in the CSV's header ("" before open_csv()).
    const std::string& device() const { return device_; }

private:
    const Options& options_;
    const LessonInfo& info_;
    std::string device_;
    std::unique_ptr<CsvWriter> csv_;
};

/// A check function of a driver.
using LessonStep = int (*)(const Options&);
/// A benchmark function of a driver: it opens its CSV through `bench`.
using BenchStep = int (*)(const Options&, BenchContext& bench);

/// Parses the command line (exit 0 on --help, 2 on a bad option), runs `check` (--check, the
/// default) or `bench` (--bench) and returns its exit code. An InputError thrown by either ends
/// in one line "error: ..." and kExitUsage (a CSV opened meanwhile is removed). `bench` may be
/// null for a program without one: then --bench is a usage error.
int lesson_main(int argc, char** argv, const LessonInfo& info, LessonStep check, BenchStep bench);

/// The factor WORKBOOK_CHECK_TIME_SCALE sets on a check's time limits (1 when unset; the
/// sanitizer runs set 20, since kernels run far slower under them).
double check_time_scale();

/// True while lesson_main runs a check (not a benchmark).
bool checking();

/// "See the hints on the lesson 03 page." while lesson_main runs a check, else "".
std::string lesson_hints();

/// Marks, for its lifetime, a stretch of a check that runs the student's own CPU function
/// `function` (a name that outlives the object, such as a string literal). A check still running
/// at its time limit then names that function and only the causes that code on the CPU can have
/// (time_limit_verdict). A CPU program's driver declares one before each call into the exercise:
///
///     const wb::RunningExercise running("matmul_ikj");
///     matmul_ikj(a, b, c, n);
class RunningExercise {
public:
    /// Marks `function` as the exercise code running now, until this object is destroyed.
    explicit RunningExercise(const char* function);
    ~RunningExercise();
    RunningExercise(const RunningExercise&) = delete;
    RunningExercise& operator=(const RunningExercise&) = delete;

private:
    const char* previous_;  // the function marked before this one, restored at the end
};

/// The student's CPU function that a RunningExercise marks now (the innermost), or null.
const char* running_exercise();

/// The verdict of a check still running at its time limit of `limit_s` seconds, written into
/// `out` (at most `size` bytes) without allocating memory, since the main thread may hold any
/// lock then. `exercise`: the student's CPU function that was running (RunningExercise), or
/// null; with it the verdict names that function and lists the causes of code on the CPU (a loop
/// that never ends, or one far too long), else every likely cause (a loop, a kernel that never
/// finishes, an exchange that only one side joins). `lesson`: the lesson's number, "01".
void time_limit_verdict(char* out, std::size_t size, double limit_s, const char* lesson, const char* exercise);

/// Counts the cases of a check and ends it the same way in every lesson:
///   "PASSED: <what>."  or  "FAILED: 3 of 24 cases wrong. See the hints on the lesson 02 page."
class CheckTally {
public:
    /// `lesson` is the lesson's folder name, e.g. "02-naive-matmul".
    explicit CheckTally(std::string lesson) : lesson_(std::move(lesson)) {}
    /// Records one case; returns `ok` so that callers can chain. With WB_STOP_AT_FIRST_WRONG=1 in
    /// the environment (the mutation tests', scripts/maintainer/mutate.py) a wrong case ends the
    /// check at once, FAILED: the verdict of the whole check, since no later case can undo it,
    /// without the time of the cases after it.
    bool record(bool ok);
    long cases() const { return cases_; }    ///< cases recorded
    long failed() const { return failed_; }  ///< cases that failed
    /// Prints the verdict line and returns kExitPass or kExitCheckFailed. With no case recorded
    /// the check fails (a check that checked nothing proves nothing).
    int finish(const std::string& passed_what) const;

private:
    std::string lesson_;
    long cases_ = 0;
    long failed_ = 0;
};

/// Writes the benchmark rows of one run. The fields every row shares are set once in
/// `shared()` (lesson, precision, shape, n, rate unit, ceiling, baseline, device); each write
/// adds what differs.
class BenchRows {
public:
    /// `shared` holds the common fields; `csv` receives every row.
    BenchRows(CsvWriter& csv, BenchRow shared) : csv_(csv), shared_(std::move(shared)) {}
    /// The shared fields, to change between problem sizes (shape, n, ceiling_rate ...).
    BenchRow& shared() { return shared_; }
    /// Writes the shared fields plus these; returns the row written.
    BenchRow write(const std::string& kernel, const std::string& block, const TimingStats& time, double rate,
                   bool transfers = false) {
        BenchRow row = shared_;
        row.kernel = kernel;
        row.block = block;
        row.time = time;
        row.rate = rate;
        row.transfers = transfers;
        csv_.write(row);
        return row;
    }
    /// Writes a row built from the shared fields by the caller (for the rare field set per row).
    void write(const BenchRow& row) { csv_.write(row); }

private:
    CsvWriter& csv_;
    BenchRow shared_;
};

/// One row of a lesson's table of versions: the name --kernels selects it by, a label for
/// output and CSV (a block or tile, e.g. "16x16"), and what the driver needs to run it.
template <class Config>
struct Version {
    std::string name;   ///< e.g. "monolithic"
    std::string label;  ///< e.g. "16x16" or "32x16/k4"
    Config config;      ///< how to launch it
};

/// The versions that can run here: `why_not(version)` says why one cannot, or returns an empty
/// string when it can. Each version left out is named on stdout with its reason
/// ("08-dmma left out: it needs compute capability 8.0, ...").
template <class Config, class WhyNot>
std::vector<Version<Config>> runnable_versions(const std::vector<Version<Config>>& versions, WhyNot why_not) {
    std::vector<Version<Config>> kept;
    for (const Version<Config>& version : versions) {
        const std::string why = why_not(version);
        if (why.empty())
            kept.push_back(version);
        else
            std::printf("%s left out: %s\n", version.name.c_str(), why.c_str());
    }
    return kept;
}

/// The versions chosen by the lesson option --kernels (every lesson that has several kernels or
/// versions takes it): a comma-separated list of names ("monolithic,fused-graph") or numbers
/// ("3,1": the version whose name begins with that number, "03-..."), in the order given, each
/// version once; all of them when the option is absent. An item that names no version, or an
/// empty list, is a usage error that lists the known names.
template <class Config>
std::vector<Version<Config>> select_kernels(const Options& options, const std::vector<Version<Config>>& table) {
    if (!options.has("kernels")) return table;
    std::vector<Version<Config>> chosen;
    for (const std::string& item : split(options.get("kernels", ""), ',')) {
        char* end = nullptr;
        const long number = item.empty() ? 0 : std::strtol(item.c_str(), &end, 10);
        const bool by_number = !item.empty() && *end == '\0' && number > 0;
        char prefix[16];
        std::snprintf(prefix, sizeof prefix, "%02ld-", number);
        bool found = false;
        for (const auto& version : table) {
            if (by_number ? version.name.rfind(prefix, 0) != 0 : version.name != item) continue;
            found = true;
            const bool seen = std::any_of(chosen.begin(), chosen.end(), [&](const Version<Config>& kept) {
                return kept.name == version.name && kept.label == version.label;
            });
            if (!seen) chosen.push_back(version);
        }
        if (!found) {
            std::string known;
            for (const auto& version : table)
                if (known.find(" " + version.name + ",") == std::string::npos) known += " " + version.name + ",";
            if (!known.empty()) known.pop_back();
            usage_error("--kernels: '" + item + "' is no kernel of this lesson (known:" + known + ")");
        }
    }
    if (chosen.empty()) usage_error("--kernels: empty list");
    return chosen;
}

}  // namespace wb
