#include "wb/timeline.h"

#include "wb/csv.h"
#include "wb/exit_codes.h"
#include "wb/temporary_files.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include <sys/stat.h>

namespace wb {

const char* operation_name(Operation operation) {
    switch (operation) {
        case Operation::h2d: return "h2d";
        case Operation::kernel: return "kernel";
        case Operation::d2h: return "d2h";
    }
    return "?";
}

double engine_busy_ms(const std::vector<TimelineOp>& ops, Operation operation) {
    std::vector<std::pair<double, double>> spans;
    for (const TimelineOp& op : ops)
        if (op.operation == operation) spans.emplace_back(op.start_ms, op.end_ms);
    std::sort(spans.begin(), spans.end());
    double busy = 0.0;
    double covered_until = -std::numeric_limits<double>::infinity();
    for (const auto& [start, end] : spans) {
        // Only the part after everything counted so far is new busy time.
        const double from = std::max(start, covered_until);
        if (end > from) busy += end - from;
        covered_until = std::max(covered_until, end);
    }
    return busy;
}

namespace {

double shortest_ms(const std::vector<TimelineOp>& ops, Operation operation) {
    double shortest = std::numeric_limits<double>::infinity();
    for (const TimelineOp& op : ops)
        if (op.operation == operation) shortest = std::min(shortest, op.end_ms - op.start_ms);
    return shortest == std::numeric_limits<double>::infinity() ? 0.0 : shortest;
}

std::string number(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

}  // namespace

double ideal_pipeline_ms(const std::vector<TimelineOp>& ops) {
    const Operation kinds[] = {Operation::h2d, Operation::kernel, Operation::d2h};
    double ideal = 0.0;
    for (Operation busiest : kinds) {
        // The busiest engine back to back, plus one chunk through each of the other engines.
        double bound = engine_busy_ms(ops, busiest);
        for (Operation other : kinds)
            if (other != busiest) bound += shortest_ms(ops, other);
        ideal = std::max(ideal, bound);
    }
    return ideal;
}

TimelineFile::TimelineFile(std::string path) : path_(std::move(path)) {
    make_parent_folders(path_);
    struct stat info {};
    const bool exists = stat(path_.c_str(), &info) == 0;
    if (exists && S_ISDIR(info.st_mode)) fail("Is a directory");
    errno = 0;
    if (exists && !S_ISREG(info.st_mode)) {
        file_ = std::fopen(path_.c_str(), "w");  // a device or a pipe: a rename would replace it
    } else {
        temporary_ = temporary_name(path_);
        slot_ = remember_temporary(temporary_);
        file_ = std::fopen(temporary_.c_str(), "w");
    }
    if (!file_) fail(std::strerror(errno));
}

TimelineFile::~TimelineFile() {
    if (file_) std::fclose(file_);
    if (!temporary_.empty()) {
        std::remove(temporary_.c_str());
        forget_temporary(slot_);
    }
}

void TimelineFile::fail(const std::string& cause) {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    if (!temporary_.empty()) {
        std::remove(temporary_.c_str());
        forget_temporary(slot_);
        temporary_.clear();
    }
    std::fflush(stdout);
    std::fprintf(stderr, "error: cannot write %s: %s (no timeline written)\n", path_.c_str(), cause.c_str());
    std::exit(kExitUsage);
}

void TimelineFile::write(const std::string& command, const std::string& device, const std::vector<std::string>& notes,
                         const std::vector<TimelineOp>& ops) {
    if (!file_) return;
    errno = 0;
    std::fprintf(file_, "# cuda-workbook timeline\n# device: %s\n# date: %s\n# command: %s\n", device.c_str(),
                 utc_timestamp().c_str(), command.c_str());
    for (const std::string& note : notes) std::fprintf(file_, "# %s\n", note.c_str());
    std::fprintf(file_, "stream,chunk,operation,start_ms,end_ms\n");
    double first = ops.empty() ? 0.0 : ops.front().start_ms;
    double last = first;
    for (const TimelineOp& op : ops) {
        std::fprintf(file_, "%d,%d,%s,%s,%s\n", op.stream, op.chunk, operation_name(op.operation),
                     number(op.start_ms).c_str(), number(op.end_ms).c_str());
        first = std::min(first, op.start_ms);
        last = std::max(last, op.end_ms);
    }
    std::fprintf(file_, "-,-,span,%s,%s\n", number(first).c_str(), number(last).c_str());
    std::fprintf(file_, "-,-,ideal,%s,%s\n", number(first).c_str(), number(first + ideal_pipeline_ms(ops)).c_str());
    if (std::ferror(file_) || std::fflush(file_) != 0) fail(errno ? std::strerror(errno) : "write error");
    const std::string cause = close_into_place(file_, temporary_, path_, slot_);
    if (!cause.empty()) fail(cause);
    std::printf("timeline written to %s\n", path_.c_str());
}

}  // namespace wb
