// The CSV that lesson_main hands a benchmark (BenchContext): the file is the one a CsvWriter
// given the same path, command, device, columns and comments writes; bad input removes it; a
// process that writes no file still prints its rows.
#include "wb/exit_codes.h"
#include "wb/lesson.h"
#include "wb/power_sampler.h"

#include "files_in.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::string g_folder;  // where the benchmarks below write their files

wb::BenchRow cpu_row() {
    wb::BenchRow row;
    row.lesson = "99-bench-context";
    row.kernel = "ikj";
    row.precision = "double";
    row.shape = "200x200x200";
    row.n = 200;
    row.time.median_ms = 2.0;
    row.time.min_ms = 1.5;
    row.time.max_ms = 3.0;
    row.time.repeats = 3;
    row.rate = 8.0;
    row.rate_unit = "GFLOP/s";
    row.device = "Test CPU";
    row.extra = {"random", "250"};
    return row;
}

// The text of `path` without its "# date:" line (the minute may change between two files).
std::string without_date(const std::string& path) {
    std::ifstream in(path);
    std::string line, text;
    while (std::getline(in, line))
        if (line.rfind("# date: ", 0) != 0) text += line + "\n";
    return text;
}

wb::LessonInfo cpu_lesson() {
    wb::LessonInfo info{"99-bench-context", "a benchmark that writes one row", "", {}};
    info.csv.host_cpu = true;
    info.csv.extra_columns = {"inputs"};
    info.csv.power_columns = true;
    return info;
}

// Writes one row through the opened CSV, and the same row through a writer built the way the
// drivers built theirs, in the same folder.
int bench_both_ways(const wb::Options& options, wb::BenchContext& bench) {
    wb::CsvWriter& csv = bench.open_csv("Test CPU");
    csv.write(cpu_row());
    std::vector<std::string> columns = {"inputs"};
    columns.insert(columns.end(), wb::power_columns().begin(), wb::power_columns().end());
    wb::CsvWriter direct(g_folder + "/direct.csv", options.command_line, "Test CPU", wb::CsvWriter::Machine::cpu,
                         columns, {wb::power_columns_comment()});
    direct.write(cpu_row());
    return bench.device() == "Test CPU" ? wb::kExitPass : wb::kExitCheckFailed;
}

int bench_then_bad_input(const wb::Options&, wb::BenchContext& bench) {
    bench.open_csv("Test CPU").write(cpu_row());
    throw wb::InputError("the terrain file ends early");
}

int bench_without_csv(const wb::Options&, wb::BenchContext& bench) {
    return bench.opened() ? wb::kExitCheckFailed : wb::kExitPass;
}

int bench_opening_twice(const wb::Options&, wb::BenchContext& bench) {
    bench.open_csv("Test CPU");
    try {
        bench.open_csv("Test CPU");
    } catch (const std::logic_error&) {
        return wb::kExitPass;
    }
    return wb::kExitCheckFailed;
}

int run(const wb::LessonInfo& info, wb::BenchStep bench, const std::string& out) {
    std::vector<std::string> words = {"99-bench-context", "--bench", "--out", out};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    return wb::lesson_main(static_cast<int>(words.size()), argv.data(), info, nullptr, bench);
}

std::string fresh_folder(const std::string& name) {
    const std::string folder = ::testing::TempDir() + "/" + name;
    for (const std::string& file : files_in(folder)) std::remove((folder + "/" + file).c_str());
    return folder;
}

TEST(BenchContext, WritesTheFileTheDriversWrote) {
    g_folder = fresh_folder("wb-bench-context-same");
    const wb::LessonInfo info = cpu_lesson();
    ASSERT_EQ(run(info, bench_both_ways, g_folder + "/opened.csv"), wb::kExitPass);
    const std::string opened = without_date(g_folder + "/opened.csv");
    EXPECT_NE(opened.find("# device: Test CPU\n"), std::string::npos) << opened;
    EXPECT_NE(opened.find(",inputs,sm_clock_mhz,"), std::string::npos) << opened;
    EXPECT_EQ(opened, without_date(g_folder + "/direct.csv"));
}

TEST(BenchContext, BadInputLeavesNoFile) {
    const std::string folder = fresh_folder("wb-bench-context-bad");
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(run(cpu_lesson(), bench_then_bad_input, folder + "/out.csv"), wb::kExitUsage);
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("error: the terrain file ends early\n"), std::string::npos) << said;
    EXPECT_TRUE(files_in(folder).empty()) << "neither the CSV nor its temporary file may remain";
}

TEST(BenchContext, AProcessThatWritesNoFileStillPrintsItsRows) {
    const std::string folder = fresh_folder("wb-bench-context-rank");
    wb::LessonInfo info = cpu_lesson();
    info.csv.writes_file = [] { return false; };
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(run(info, bench_then_bad_input, folder + "/out.csv"), wb::kExitUsage);
    EXPECT_NE(::testing::internal::GetCapturedStdout().find("ikj"), std::string::npos);
    EXPECT_TRUE(files_in(folder).empty());
}

TEST(BenchContext, ABenchmarkThatOpensNothingWritesNoFile) {
    const std::string folder = fresh_folder("wb-bench-context-none");
    EXPECT_EQ(run(cpu_lesson(), bench_without_csv, folder + "/out.csv"), wb::kExitPass);
    EXPECT_TRUE(files_in(folder).empty());
}

TEST(BenchContext, OpensOnce) {
    const std::string folder = fresh_folder("wb-bench-context-twice");
    EXPECT_EQ(run(cpu_lesson(), bench_opening_twice, folder + "/out.csv"), wb::kExitPass);
}

}  // namespace
