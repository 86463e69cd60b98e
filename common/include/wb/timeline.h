/// @file timeline.h
/// @brief A timeline of asynchronous work: when each copy and kernel of a pipeline ran, on which
/// stream, and the shortest time the same operations could take with every engine kept busy.
///
/// The times come from CUDA events recorded before and after each operation on its stream and
/// read with cudaEventElapsedTime against one start event (the recording is the lesson's own,
/// lesson 11's harness/timeline.cu); what is here is host code: the lower bound and the file.
///
/// The file: '#' lines (device, date, command, then the run's notes), the header
/// `stream,chunk,operation,start_ms,end_ms` and one row per operation (h2d, kernel, d2h), then
/// two rows without stream and chunk ("-"): `span`, from the first start to the last end, and
/// `ideal`, from the same start to the start plus ideal_pipeline_ms().
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace wb {

/// What an operation of the pipeline does; one engine of the GPU serves each kind.
enum class Operation { h2d, kernel, d2h };

/// "h2d", "kernel" or "d2h": the operation column of the file.
const char* operation_name(Operation operation);

/// One operation: from the event recorded before it to the event recorded after it on its stream.
struct TimelineOp {
    int stream = 0;                        ///< the stream's index in the pipeline's array
    int chunk = 0;                         ///< the chunk of the job it works on
    Operation operation = Operation::h2d;  ///< copy in, kernel or copy out
    double start_ms = 0.0;                 ///< since the start event
    double end_ms = 0.0;                   ///< since the start event
};

/// The time during which at least one operation of this kind ran: the length of the union of
/// their [start, end] intervals. An operation queued behind another of its kind (one copy engine
/// per direction) shows the wait in its own box; the union counts that time once, as the engine's.
double engine_busy_ms(const std::vector<TimelineOp>& ops, Operation operation);

/// The lower bound of the pipeline from the durations measured in the same run. Each engine
/// (copy in, multiprocessors, copy out) is taken as one worker that does its operations one after
/// the other. The busiest engine, even kept busy back to back, needs its busy time
/// (engine_busy_ms), and cannot start before one chunk has passed through the engines before it,
/// nor end before one chunk has passed through those after it: at least the shortest operation of
/// each of those kinds. The ideal is the largest of the three bounds:
///
///     busy(h2d) + shortest(kernel) + shortest(d2h)
///     shortest(h2d) + busy(kernel) + shortest(d2h)
///     shortest(h2d) + shortest(kernel) + busy(d2h)
///
/// 0 for no operation; a kind with no operation counts 0.
double ideal_pipeline_ms(const std::vector<TimelineOp>& ops);

/// The timeline's CSV file, written whole or not at all. The constructor opens a temporary file
/// beside PATH at once (creating folders), so that a path that cannot be written fails before
/// any work: "error: cannot write PATH: CAUSE" and exit kExitUsage. The temporary file is removed
/// when the program stops before write() (an error, Ctrl-C). A PATH that exists and is not a
/// regular file (/dev/stdout) is written directly.
class TimelineFile {
public:
    /// Opens the temporary file beside `path` (see the class).
    explicit TimelineFile(std::string path);
    ~TimelineFile();
    TimelineFile(const TimelineFile&) = delete;
    TimelineFile& operator=(const TimelineFile&) = delete;
    /// Writes the '#' lines (device, date, command, then each note as "# NOTE"), the rows of
    /// `ops` with the span and the ideal, and moves the file into place; says "timeline written
    /// to PATH". A failed write exits as the constructor does, leaving no file at PATH.
    void write(const std::string& command, const std::string& device, const std::vector<std::string>& notes,
               const std::vector<TimelineOp>& ops);
    const std::string& path() const { return path_; }  ///< where the file goes

private:
    [[noreturn]] void fail(const std::string& cause);
    std::string path_;
    std::string temporary_;
    std::FILE* file_ = nullptr;
    int slot_ = -1;
};

}  // namespace wb
