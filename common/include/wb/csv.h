/// @file csv.h
/// @brief The one CSV schema every benchmark writes.
///
/// Lines starting with '#' are comments: the first ones say which device, when and with which
/// command the file was made. Then a header line and one row per measurement:
///
/// | column           | meaning                                                            |
/// |------------------|--------------------------------------------------------------------|
/// | lesson           | lesson directory name, e.g. 03-tiled-matmul                         |
/// | kernel           | what was timed: a kernel, a CPU loop, or a library call (cublas)   |
/// | precision        | float, double, ...                                                 |
/// | shape            | problem shape, e.g. 8192x8192x8192 or 610x496x4000                  |
/// | n                | the one number charts use on their x axis (matrix order, rows)     |
/// | block            | thread block (16x16) or tile; "-" when not applicable              |
/// | repeats          | timed repeats after warm-up                                        |
/// | median_ms        | median time of one run, milliseconds                               |
/// | min_ms, max_ms   | fastest and slowest run                                            |
/// | transfers        | 1 if host<->device copies (and allocation) are inside the time      |
/// | rate, rate_unit  | the figure of merit: GFLOP/s, GB/s, Mcells/s                       |
/// | ceiling          | the measured ceiling this row is compared with (cublas-dgemm,      |
/// |                  | copy-bandwidth, ...), measured in the same run; empty if none      |
/// | ceiling_rate     | that ceiling, in rate_unit                                         |
/// | ratio            | rate / ceiling_rate                                                |
/// | baseline         | what speedup is relative to (e.g. cpu-ikj, serial); may be empty   |
/// | baseline_ms      | the baseline's median time                                         |
/// | speedup          | baseline_ms / median_ms                                            |
/// | device           | the GPU (or CPU) that ran it                                       |
/// | flops            | floating-point operations one run does (an FMA counts 2), analytic |
/// | dram_bytes       | the fewest bytes one run must move to and from device memory       |
/// | intensity        | flops / dram_bytes                                                 |
/// | achieved_gflops  | flops / median time                                                |
/// | achieved_gbs     | dram_bytes / median time                                           |
/// | roof_gbs         | streaming bandwidth measured in the same run (wb/roofs.h)          |
/// | roof_gflops      | FMA peak of the row's precision measured in the same run (the      |
/// |                  | FP64 tensor-core peak for kernels that may use tensor cores)       |
/// | roof_fraction    | time the roofs allow (the larger of flops / roof_gflops and        |
/// |                  | dram_bytes / roof_gbs) over the median time: 1 is on the roof      |
/// | arithmetic       | the units that do the row's floating-point work, named as the      |
/// |                  | per-cycle peaks of data/specs/: fp64, fp64-tensor, fp32,           |
/// |                  | tf32-tensor, bf16-tensor (precision and tensor_cores); empty for   |
/// |                  | a row with no flops or of another precision (int, uint8 ...)       |
///
/// The roofline columns are empty for rows with transfers and rows that declare no work; the
/// `#` lines of a GPU run also name its clocks, driver, CUDA runtime and cuBLAS.
///
/// A benchmark may add columns of its own after these (CsvWriter's `extra_columns`, filled from
/// BenchRow::extra); the columns above keep their names and places, and a benchmark that adds
/// none writes exactly the schema above.
#pragma once

#include "wb/timer.h"

#include <cstdio>
#include <string>
#include <vector>

namespace wb {

/// One benchmark measurement. Numbers left negative are written as empty fields.
struct BenchRow {
    std::string lesson;          ///< e.g. "03-tiled-matmul"
    std::string kernel;          ///< what was timed
    std::string precision;       ///< "float", "double", ...
    std::string shape;           ///< e.g. "8192x8192x8192"
    long n = 0;                  ///< the chart's x value
    std::string block = "-";     ///< thread block or tile, "-" if none
    TimingStats time;            ///< median, min, max, repeats
    bool transfers = false;      ///< host<->device copies inside the time
    double rate = -1.0;          ///< figure of merit
    std::string rate_unit;       ///< "GFLOP/s", "GB/s", ...
    std::string ceiling;         ///< name of the measured ceiling
    double ceiling_rate = -1.0;  ///< the ceiling, in rate_unit
    std::string baseline;        ///< what the speedup is relative to
    double baseline_ms = -1.0;   ///< the baseline's median time
    std::string device;          ///< GPU or CPU name
    double flops = -1.0;         ///< floating-point operations of one run (FMA = 2), analytic
    double dram_bytes = -1.0;    ///< fewest device-memory bytes one run must read and write
    bool tensor_cores = false;   ///< the kernel may use tensor cores (their roof applies)
    double roof_gbs = -1.0;      ///< streaming roof (set by CsvWriter for GPU runs)
    double roof_gflops = -1.0;   ///< FMA roof of the precision (set by CsvWriter for GPU runs)
    /// Values of the writer's extra columns, in order ("" for an empty field).
    std::vector<std::string> extra;
};

/// The arithmetic column of a row of `precision` that may (`tensor_cores`) or may not use tensor
/// cores: "fp64", "fp64-tensor", "fp32", "tf32-tensor", "bf16-tensor", or "" for another precision.
std::string arithmetic_of(const std::string& precision, bool tensor_cores);

/// The CSV header line (without newline).
const char* csv_header();

/// Formats one row (without newline); ratio and speedup are derived here.
std::string csv_row(const BenchRow& row);

/// Writes the CSV file: comment lines, header, then rows. Also echoes a readable line per row
/// to stdout. With an empty path nothing is written to disk. The rows go to a temporary file
/// that becomes `path` in finish() (or when the writer is destroyed normally); an exception, an
/// exit after an error or Ctrl-C leave no file at `path` (and no temporary file). A failed write,
/// flush, close or rename (a full disk) prints "error: cannot write PATH: CAUSE", removes the
/// temporary file and exits with kExitUsage: rows are never lost silently. A PATH that exists and
/// is not a regular file (/dev/stdout, a pipe) is written directly.
class CsvWriter {
public:
    /// Where the benchmark runs: a GPU run's rows are placed under the GPU's measured roofs.
    enum class Machine { gpu, cpu };
    /// Opens `path` (creating folders) and writes the comment lines, then `comments` (each a
    /// "# " line: what a benchmark's own columns hold), and the header, followed by
    /// `extra_columns` (a benchmark's own columns, after the common ones).
    CsvWriter(const std::string& path, const std::string& command, const std::string& device,
              Machine machine = Machine::gpu, std::vector<std::string> extra_columns = {},
              const std::vector<std::string>& comments = {});
    ~CsvWriter();
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;
    /// Writes one row to the file and a readable line to stdout. A row with fewer `extra` values
    /// than the writer has extra columns leaves the rest empty; more throws std::invalid_argument.
    void write(const BenchRow& row);
    /// Completes the file (flush, close, rename into place) and says "CSV written to PATH"; on a
    /// failure prints the cause and exits with kExitUsage. Does nothing with an empty path.
    void finish(bool say_written = true);
    /// The CSV path (empty: stdout only).
    const std::string& path() const { return path_; }

private:
    void check_written();                              // exits (via fail) if a write or flush failed
    void discard();                                    // closes and removes the temporary file
    [[noreturn]] void fail(const std::string& cause);  // message, discard, exit kExitUsage
    std::string path_;
    std::string temporary_;
    std::FILE* file_ = nullptr;
    int slot_ = -1;
    std::string device_;
    Machine machine_ = Machine::gpu;
    std::vector<std::string> extra_columns_;
};

/// Ends a benchmark: completes `csv` (CsvWriter::finish) and returns kExitPass, or, when some of
/// its `what` ("versions", "contenders") gave wrong results and were left untimed, says so
/// ("FAILED: some WHAT gave wrong results and were not timed.") and returns kExitCheckFailed.
int finish_benchmark(CsvWriter& csv, bool all_correct, const std::string& what);

/// "YYYY-MM-DD HH:MM UTC" now, for CSV headers.
std::string utc_timestamp();

}  // namespace wb
