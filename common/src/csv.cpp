#include "wb/csv.h"

#include "wb/exit_codes.h"
#include "wb/roofs.h"
#include "wb/temporary_files.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <sys/stat.h>

namespace wb {

namespace {

std::string number(double value) {
    if (!(value >= 0.0)) return "";  // negative or NaN: not measured
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

// CSV fields here never contain commas or quotes except the device name; quote it to be safe.
std::string field(const std::string& text) {
    if (text.find_first_of(",\"") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// A row's place under the roofline; every field -1 where it cannot be known.
struct Roofline {
    double intensity = -1.0, achieved_gflops = -1.0, achieved_gbs = -1.0, fraction = -1.0;
};

Roofline roofline_of(const BenchRow& r) {
    Roofline place;
    const double seconds = r.time.median_ms * 1e-3;
    if (r.transfers || !(seconds > 0)) return place;
    if (r.flops >= 0 && r.dram_bytes > 0) place.intensity = r.flops / r.dram_bytes;
    if (r.flops >= 0) place.achieved_gflops = r.flops / seconds / 1e9;
    if (r.dram_bytes >= 0) place.achieved_gbs = r.dram_bytes / seconds / 1e9;
    // The time the roofs allow: the memory and the arithmetic each take at least this long.
    double roof_seconds = -1.0;
    if (r.dram_bytes >= 0 && r.roof_gbs > 0) roof_seconds = r.dram_bytes / (r.roof_gbs * 1e9);
    if (r.flops > 0) {
        if (!(r.roof_gflops > 0)) return place;  // arithmetic with no known roof: no fraction
        roof_seconds = std::max(roof_seconds, r.flops / (r.roof_gflops * 1e9));
    }
    if (roof_seconds >= 0) place.fraction = roof_seconds / seconds;
    return place;
}

}  // namespace

std::string arithmetic_of(const std::string& precision, bool tensor_cores) {
    if (precision == "double") return tensor_cores ? "fp64-tensor" : "fp64";
    if (precision == "float") return tensor_cores ? "tf32-tensor" : "fp32";
    if (precision == "bf16" && tensor_cores) return "bf16-tensor";
    return "";
}

const char* csv_header() {
    return "lesson,kernel,precision,shape,n,block,repeats,median_ms,min_ms,max_ms,transfers,rate,rate_unit,"
           "ceiling,ceiling_rate,ratio,baseline,baseline_ms,speedup,device,"
           "flops,dram_bytes,intensity,achieved_gflops,achieved_gbs,roof_gbs,roof_gflops,roof_fraction,arithmetic";
}

std::string csv_row(const BenchRow& r) {
    const double ratio = (r.rate >= 0 && r.ceiling_rate > 0) ? r.rate / r.ceiling_rate : -1.0;
    const double speedup = (r.baseline_ms > 0 && r.time.median_ms > 0) ? r.baseline_ms / r.time.median_ms : -1.0;
    std::string line;
    line += field(r.lesson) + "," + field(r.kernel) + "," + field(r.precision) + "," + field(r.shape) + ",";
    line += std::to_string(r.n) + "," + field(r.block) + "," + std::to_string(r.time.repeats) + ",";
    line += number(r.time.median_ms) + "," + number(r.time.min_ms) + "," + number(r.time.max_ms) + ",";
    line += std::string(r.transfers ? "1" : "0") + "," + number(r.rate) + "," + field(r.rate_unit) + ",";
    line += field(r.ceiling) + "," + number(r.ceiling_rate) + "," + number(ratio) + ",";
    line += field(r.baseline) + "," + number(r.baseline_ms) + "," + number(speedup) + "," + field(r.device);
    const Roofline place = roofline_of(r);
    line += "," + number(r.flops) + "," + number(r.dram_bytes) + "," + number(place.intensity) + "," +
            number(place.achieved_gflops) + "," + number(place.achieved_gbs) + "," + number(r.roof_gbs) + "," +
            number(r.roof_gflops) + "," + number(place.fraction);
    line += "," + (r.flops > 0 ? arithmetic_of(r.precision, r.tensor_cores) : std::string());
    return line;
}

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm_utc{};
    gmtime_r(&now, &tm_utc);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm_utc);
    return buffer;
}

CsvWriter::CsvWriter(const std::string& path, const std::string& command, const std::string& device, Machine machine,
                     std::vector<std::string> extra_columns, const std::vector<std::string>& comments)
    : path_(path), device_(device), machine_(machine), extra_columns_(std::move(extra_columns)) {
    if (path_.empty()) return;
    make_parent_folders(path_);
    struct stat info {};
    const bool exists = stat(path_.c_str(), &info) == 0;
    if (exists && S_ISDIR(info.st_mode)) {
        std::fprintf(stderr, "error: cannot write %s: Is a directory\n", path_.c_str());
        std::exit(kExitUsage);
    }
    if (exists && !S_ISREG(info.st_mode)) {
        // A device, a pipe or a terminal (/dev/stdout, /dev/full): written directly, since
        // renaming a temporary file over it would replace it with a plain file.
        file_ = std::fopen(path_.c_str(), "w");
    } else {
        // Rows go to a temporary file, renamed to `path` by finish(): an interrupted or failed run
        // leaves no partial CSV (wb/temporary_files.h removes the temporary file).
        temporary_ = temporary_name(path_);
        slot_ = remember_temporary(temporary_);
        file_ = std::fopen(temporary_.c_str(), "w");
    }
    if (!file_) fail(std::strerror(errno));
    errno = 0;
    std::fprintf(file_, "# cuda-workbook benchmark\n# device: %s\n# date: %s\n# command: %s\n", device.c_str(),
                 utc_timestamp().c_str(), command.c_str());
    if (machine_ == Machine::gpu) {
        for (const std::string& line : gpu_environment_lines()) std::fprintf(file_, "# %s\n", line.c_str());
        // The roofs every row is placed under, measured now (wb/roofs.h).
        const Roofs& roofs = measured_roofs();
        if (roofs.stream_gbs > 0)
            std::fprintf(file_,
                         "# roofs: stream_gbs=%.6g copy_gbs=%.6g fp64_gflops=%.6g fp32_gflops=%.6g "
                         "fp64_tensor_gflops=%.6g (measured in this run)\n",
                         roofs.stream_gbs, roofs.copy_gbs, roofs.fp64_gflops, roofs.fp32_gflops,
                         roofs.fp64_tensor_gflops);
    }
    for (const std::string& line : comments) std::fprintf(file_, "# %s\n", line.c_str());
    std::string header = csv_header();
    for (const std::string& column : extra_columns_) header += "," + field(column);
    std::fprintf(file_, "%s\n", header.c_str());
    // A full disk or an unwritable device shows here, before the benchmark spends any time.
    check_written();
}

CsvWriter::~CsvWriter() {
    if (!file_) return;
    if (std::uncaught_exceptions() > 0) {
        discard();
        std::fprintf(stderr, "error: %s not written (the benchmark did not complete)\n", path_.c_str());
        return;
    }
    // The benchmark ended without finish(): the file is still completed, or the program stops
    // with the reason, never losing the rows silently.
    finish(false);
}

void CsvWriter::check_written() {
    if (!file_) return;
    if (std::ferror(file_) || std::fflush(file_) != 0) fail(errno ? std::strerror(errno) : "write error");
}

void CsvWriter::finish(bool say_written) {
    if (!file_) return;
    errno = 0;
    check_written();
    const std::string cause = close_into_place(file_, temporary_, path_, slot_);
    if (!cause.empty()) fail(cause);
    if (say_written) std::printf("CSV written to %s\n", path_.c_str());
}

void CsvWriter::discard() {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    if (!temporary_.empty()) {
        std::remove(temporary_.c_str());
        forget_temporary(slot_);
        slot_ = -1;
        temporary_.clear();
    }
}

void CsvWriter::fail(const std::string& cause) {
    discard();
    std::fflush(stdout);
    std::fprintf(stderr, "error: cannot write %s: %s (no CSV written)\n", path_.c_str(), cause.c_str());
    std::exit(kExitUsage);
}

void CsvWriter::write(const BenchRow& row) {
    if (row.extra.size() > extra_columns_.size())
        throw std::invalid_argument("CSV row of " + row.kernel + " has " + std::to_string(row.extra.size()) +
                                    " extra values, the file " + std::to_string(extra_columns_.size()) +
                                    " extra columns");
    BenchRow r = row;
    // A GPU row that declares its work is placed under the roofs measured in this run (rows of
    // the host CPU in a GPU benchmark, such as a serial baseline, are not).
    if (machine_ == Machine::gpu && r.device == device_ && !r.transfers && (r.flops >= 0 || r.dram_bytes >= 0)) {
        const Roofs& roofs = measured_roofs();
        if (r.roof_gbs < 0) r.roof_gbs = roofs.stream_gbs;
        if (r.roof_gflops < 0) r.roof_gflops = arithmetic_roof_gflops(roofs, r.precision, r.tensor_cores);
    }
    std::printf("  %-22s %-7s %-18s %-7s %10.4f ms", r.kernel.c_str(), r.precision.c_str(), r.shape.c_str(),
                r.block.c_str(), r.time.median_ms);
    if (r.rate >= 0) std::printf("  %10.2f %s", r.rate, r.rate_unit.c_str());
    if (r.rate >= 0 && r.ceiling_rate > 0)
        std::printf("  %5.1f%% of %s", 100.0 * r.rate / r.ceiling_rate, r.ceiling.c_str());
    if (r.baseline_ms > 0 && r.time.median_ms > 0)
        std::printf("  %.1fx vs %s", r.baseline_ms / r.time.median_ms, r.baseline.c_str());
    const Roofline place = roofline_of(r);
    if (place.fraction >= 0) std::printf("  %3.0f%% of roof", 100.0 * place.fraction);
    std::printf("%s\n", r.transfers ? "  (with transfers)" : "");
    std::fflush(stdout);
    if (!file_) return;
    errno = 0;
    std::string line = csv_row(r);
    for (std::size_t i = 0; i < extra_columns_.size(); ++i) line += "," + (i < r.extra.size() ? field(r.extra[i]) : "");
    std::fprintf(file_, "%s\n", line.c_str());
    check_written();
}

int finish_benchmark(CsvWriter& csv, bool all_correct, const std::string& what) {
    csv.finish();  // says "CSV written to FILE", or why it could not be written (exit 2)
    if (all_correct) return kExitPass;
    std::printf("FAILED: some %s gave wrong results and were not timed.\n", what.c_str());
    return kExitCheckFailed;
}

}  // namespace wb
