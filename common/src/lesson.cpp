#include "wb/lesson.h"

#include "wb/exit_codes.h"
#include "wb/power_sampler.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>

namespace wb {

namespace {

// "02-naive-matmul" -> "02"
std::string lesson_number(const std::string& lesson) { return lesson.substr(0, lesson.find('-')); }

// Writes text to standard output without taking stdout's lock (the main thread may hold it
// forever, or a signal may have interrupted it): only write(2), which is async-signal-safe.
void write_out(const char* text) {
    std::size_t left = std::strlen(text);
    while (left > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, text, left);
        if (written <= 0) return;
        text += written;
        left -= static_cast<std::size_t>(written);
    }
}

// Flushes what the check printed so far, unless another thread holds stdout (then that output
// is lost, but the verdict still appears).
void flush_if_free() {
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
}

// The end of the crash verdict, in a page made read-only once written: code that writes far
// outside its arrays may overwrite the program's writable data before it faults.
const char* g_crash_message = "";

// A stack of its own for the handler: the crash may come from a stack that is exhausted.
alignas(16) char g_crash_stack[64 * 1024];

// A crash in check mode (the exercise read or wrote outside an array, divided by zero, or
// corrupted the heap so that the C library aborts) is a failed check with its likely cause,
// not a bare "Segmentation fault".
extern "C" void on_crash(int signal) {
    if (signal == SIGFPE)
        write_out("\nFAILED: the check crashed with an arithmetic error (an integer division by zero?). ");
    else if (signal == SIGABRT)
        write_out("\nFAILED: the check stopped on corrupted memory (the line above says what the C library found): "
                  "the code wrote outside an array (a loop bound or an index off by one?). ");
    else
        write_out("\nFAILED: the check crashed (segmentation fault or bus error): the code read or wrote outside an "
                  "array (a loop bound or an index off by one?). ");
    write_out(g_crash_message);
    ::_exit(kExitCheckFailed);
}

void install_crash_handlers(const std::string& lesson) {
    const long page = ::sysconf(_SC_PAGESIZE);
    void* message =
        ::mmap(nullptr, static_cast<std::size_t>(page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (message != MAP_FAILED) {
        std::snprintf(static_cast<char*>(message), static_cast<std::size_t>(page),
                      "See the hints on the lesson %s page.\n", lesson_number(lesson).c_str());
        ::mprotect(message, static_cast<std::size_t>(page), PROT_READ);
        g_crash_message = static_cast<const char*>(message);
    }
    stack_t stack{};
    stack.ss_sp = g_crash_stack;
    stack.ss_size = sizeof g_crash_stack;
    ::sigaltstack(&stack, nullptr);
    struct sigaction action {};
    action.sa_handler = on_crash;
    sigemptyset(&action.sa_mask);
    // SA_RESETHAND: a crash inside the handler ends the process; SA_ONSTACK: the stack above.
    action.sa_flags = static_cast<int>(SA_RESETHAND | SA_ONSTACK);
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT}) sigaction(signal, &action, nullptr);
}

// The check's time limit: LessonInfo::check_seconds times check_time_scale().
double time_limit_s(const LessonInfo& info) { return info.check_seconds * check_time_scale(); }

bool g_checking = false;
std::string g_hints;

// The student's CPU function that the check is running (RunningExercise), or null.
std::atomic<const char*> g_running_exercise{nullptr};

// Ends a check that runs past its time limit with a failed verdict naming the likely causes. A
// background thread sleeps until the limit; it cannot stop the main thread (a loop that never
// ends, a kernel or a halo exchange that never finishes), so it ends the whole process without
// clean-up, which also stops any kernel still running.
void start_watchdog(const LessonInfo& info) {
    const double limit_s = time_limit_s(info);
    static char number[16];
    std::snprintf(number, sizeof number, "%s", lesson_number(info.name).c_str());
    std::thread([limit_s] {
        std::this_thread::sleep_for(std::chrono::duration<double>(limit_s));
        static char message[1024];
        time_limit_verdict(message, sizeof message, limit_s, number, running_exercise());
        flush_if_free();
        write_out(message);
        std::_Exit(kExitCheckFailed);
    }).detach();
}

}  // namespace

double check_time_scale() {
    double scale = 1.0;  // WORKBOOK_CHECK_TIME_SCALE: a positive number; anything else is ignored
    if (const char* text = std::getenv("WORKBOOK_CHECK_TIME_SCALE")) {
        char* end = nullptr;
        const double value = std::strtod(text, &end);
        if (end != text && *end == '\0' && value > 0 && value < 1e6) scale = value;
    }
    return scale;
}

bool checking() { return g_checking; }

RunningExercise::RunningExercise(const char* function) : previous_(g_running_exercise.exchange(function)) {}

RunningExercise::~RunningExercise() { g_running_exercise.store(previous_); }

const char* running_exercise() { return g_running_exercise.load(); }

void time_limit_verdict(char* out, std::size_t size, double limit_s, const char* lesson, const char* exercise) {
    if (exercise)
        std::snprintf(out, size,
                      "\nFAILED: the check did not finish within %.0f s: it was still running %s, your code on "
                      "the CPU (a correct solution needs a small part of that time). Likely causes: a loop that "
                      "never ends (a counter that never reaches its bound, or moves the wrong way), or one that "
                      "runs far too many times (a bound multiplied where it should be divided). See the hints on "
                      "the lesson %s page.\n",
                      limit_s, exercise, lesson);
    else
        std::snprintf(out, size,
                      "\nFAILED: the check did not finish within %.0f s (a correct solution needs a small part of "
                      "that). Likely causes: a loop that never ends (a counter that never reaches its bound, or "
                      "moves the wrong way), a kernel that never finishes (threads waiting at a barrier or for a "
                      "flag that is never released), or an exchange that only one side joins (a send without its "
                      "receive). See the hints on the lesson %s page.\n",
                      limit_s, lesson);
}

std::string lesson_hints() { return g_hints; }

CsvWriter& BenchContext::open_csv(const std::string& device) {
    if (csv_) throw std::logic_error(info_.name + ": the benchmark's CSV is opened twice");
    const BenchCsv& spec = info_.csv;
    const bool writes = !spec.writes_file || spec.writes_file();
    std::vector<std::string> columns = spec.extra_columns;
    std::vector<std::string> comments;
    if (spec.power_columns) {
        columns.insert(columns.end(), power_columns().begin(), power_columns().end());
        comments.push_back(power_columns_comment());
    }
    device_ = device;
    csv_ = std::make_unique<CsvWriter>(writes ? options_.out : "", options_.command_line, device,
                                       spec.host_cpu ? CsvWriter::Machine::cpu : CsvWriter::Machine::gpu,
                                       std::move(columns), comments);
    return *csv_;
}

int lesson_main(int argc, char** argv, const LessonInfo& info, LessonStep check, BenchStep bench) {
    // A program without a benchmark neither lists nor accepts --bench, --repeat, --out, --full.
    LessonInfo effective = info;
    if (!bench) effective.benchmarks = false;
    const Options options = parse_args(argc, argv, effective);
    const bool checks = options.mode == Options::Mode::check;
    if (checks ? !check : !bench) usage_error(info.name + " has no " + (check ? "--bench" : "--check") + " mode");
    if (checks) {
        install_crash_handlers(info.name);
        start_watchdog(info);
        g_checking = true;  // also fills fresh device memory with NaN (wb/watched_device_calls.h)
        g_hints = "See the hints on the lesson " + lesson_number(info.name) + " page.";
    }
    try {
        if (checks) return check(options);
        // Inside the try: an InputError removes a CSV opened meanwhile before saying what is wrong.
        BenchContext context(options, info);
        return bench(options, context);
    } catch (const InputError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
}

bool CheckTally::record(bool ok) {
    ++cases_;
    if (ok) return true;
    ++failed_;
    const char* stop = std::getenv("WB_STOP_AT_FIRST_WRONG");
    if (stop && std::string(stop) == "1") {
        std::printf("FAILED: a case is wrong; the check stops at the first (WB_STOP_AT_FIRST_WRONG=1). See the hints "
                    "on the lesson %s page.\n",
                    lesson_number(lesson_).c_str());
        std::fflush(stdout);
        std::exit(kExitCheckFailed);
    }
    return false;
}

int CheckTally::finish(const std::string& passed_what) const {
    if (cases_ == 0) {
        std::printf("FAILED: no case was checked.\n");
        return kExitCheckFailed;
    }
    if (failed_) {
        std::printf("FAILED: %ld of %ld cases wrong. See the hints on the lesson %s page.\n", failed_, cases_,
                    lesson_number(lesson_).c_str());
        return kExitCheckFailed;
    }
    std::printf("PASSED: %s.\n", passed_what.c_str());
    return kExitPass;
}

}  // namespace wb
