#include "wb/csv.h"

#include "files_in.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>

namespace {

int count_fields(const std::string& line) {
    int fields = 1;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) ++fields;
    }
    return fields;
}

wb::BenchRow sample_row() {
    wb::BenchRow row;
    row.lesson = "03-tiled-matmul";
    row.kernel = "tiled";
    row.precision = "double";
    row.shape = "1000x1000x1000";
    row.n = 1000;
    row.block = "32x32";
    row.time.median_ms = 2.0;
    row.time.min_ms = 1.9;
    row.time.max_ms = 2.5;
    row.time.repeats = 5;
    row.rate = 1000.0;
    row.rate_unit = "GFLOP/s";
    row.ceiling = "cublas-dgemm";
    row.ceiling_rate = 4000.0;
    row.baseline = "cpu-ikj";
    row.baseline_ms = 200.0;
    row.device = "NVIDIA H100 80GB HBM3";
    return row;
}

TEST(Csv, RowMatchesHeader) {
    const std::string row = wb::csv_row(sample_row());
    EXPECT_EQ(count_fields(row), count_fields(wb::csv_header()));
    EXPECT_NE(row.find(",0.25,"), std::string::npos) << row;  // ratio
    EXPECT_NE(row.find(",100,"), std::string::npos) << row;   // speedup
}

TEST(Csv, MissingNumbersAreEmpty) {
    wb::BenchRow row = sample_row();
    row.ceiling.clear();
    row.ceiling_rate = -1;
    row.baseline.clear();
    row.baseline_ms = -1;
    const std::string line = wb::csv_row(row);
    EXPECT_NE(line.find("GFLOP/s,,,,,,,"), std::string::npos) << line;
}

// Each row with floating-point work names the units whose per-cycle peak bounds it (data/specs/).
TEST(Csv, RowNamesItsArithmetic) {
    wb::BenchRow row = sample_row();
    EXPECT_EQ(wb::csv_row(row).back(), ',') << "no flops declared: no arithmetic";
    row.flops = 2e9;
    EXPECT_EQ(wb::csv_row(row).substr(wb::csv_row(row).rfind(',')), ",fp64");
    row.tensor_cores = true;
    EXPECT_EQ(wb::csv_row(row).substr(wb::csv_row(row).rfind(',')), ",fp64-tensor");
    EXPECT_EQ(wb::arithmetic_of("float", false), "fp32");
    EXPECT_EQ(wb::arithmetic_of("float", true), "tf32-tensor");
    EXPECT_EQ(wb::arithmetic_of("bf16", true), "bf16-tensor");
    EXPECT_EQ(wb::arithmetic_of("int", false), "");
    EXPECT_EQ(std::string(wb::csv_header()).substr(std::string(wb::csv_header()).rfind(',')), ",arithmetic");
}

TEST(Csv, DeviceNameWithCommaIsQuoted) {
    wb::BenchRow row = sample_row();
    row.device = "GPU, the fast one";
    const std::string line = wb::csv_row(row);
    EXPECT_NE(line.find("\"GPU, the fast one\""), std::string::npos);
    EXPECT_EQ(count_fields(line), count_fields(wb::csv_header()));
}

TEST(Csv, WriterWritesCommentsHeaderAndRows) {
    const std::string path = ::testing::TempDir() + "/wb-csv-test/sub/out.csv";
    {
        wb::CsvWriter writer(path, "prog --bench", "Test GPU");
        writer.write(sample_row());
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    EXPECT_EQ(content.rfind("# cuda-workbook benchmark\n# device: Test GPU\n# date: ", 0), 0u) << content;
    EXPECT_NE(content.find("# command: prog --bench\n"), std::string::npos);
    EXPECT_NE(content.find(std::string(wb::csv_header()) + "\n03-tiled-matmul,tiled,"), std::string::npos);
}

TEST(Csv, FinishSaysWrittenOnlyOnceTheFileIsInPlace) {
    const std::string path = ::testing::TempDir() + "/wb-csv-finish/out.csv";
    std::remove(path.c_str());
    wb::CsvWriter writer(path, "prog --bench", "Test CPU", wb::CsvWriter::Machine::cpu);
    writer.write(sample_row());
    EXPECT_FALSE(std::ifstream(path).good()) << "the CSV must appear only when complete";
    ::testing::internal::CaptureStdout();
    writer.finish();
    EXPECT_EQ(::testing::internal::GetCapturedStdout(), "CSV written to " + path + "\n");
    EXPECT_TRUE(std::ifstream(path).good());
}

// Files of this process may grow to `bytes`; a write beyond fails with EFBIG ("File too large").
void limit_file_size(rlim_t bytes) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
}

// A disk that fills up during the benchmark (here: the file-size limit, which fails a write the
// same way): the program says which file and why, exits 2 and leaves no file, not even the
// temporary one.
TEST(CsvDeathTest, FailedWriteExitsWithTheCauseAndLeavesNoFile) {
    const std::string folder = ::testing::TempDir() + "/wb-csv-limit";
    const std::string path = folder + "/out.csv";
    mkdir(folder.c_str(), 0755);
    for (const std::string& name : files_in(folder)) std::remove((folder + "/" + name).c_str());
    EXPECT_EXIT(
        {
            limit_file_size(2048);
            wb::CsvWriter writer(path, "prog --bench", "Test CPU", wb::CsvWriter::Machine::cpu);
            for (int i = 0; i < 100; ++i) writer.write(sample_row());
            writer.finish();
            std::exit(0);
        },
        ::testing::ExitedWithCode(2), "error: cannot write " + path + ": File too large");
    EXPECT_TRUE(files_in(folder).empty()) << "left behind: " << files_in(folder).front();
}

// A device that is always full (/dev/full) fails at the first flush: no "CSV written", exit 2.
TEST(CsvDeathTest, FullDeviceExitsWithTheCause) {
    struct stat info {};
    if (stat("/dev/full", &info) != 0 || !S_ISCHR(info.st_mode)) GTEST_SKIP() << "no /dev/full here";
    EXPECT_EXIT(
        {
            wb::CsvWriter writer("/dev/full", "prog --bench", "Test CPU", wb::CsvWriter::Machine::cpu);
            writer.write(sample_row());
            writer.finish();
            std::exit(0);
        },
        ::testing::ExitedWithCode(2), "error: cannot write /dev/full: No space left on device");
    ASSERT_EQ(stat("/dev/full", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode)) << "/dev/full was replaced by a plain file";
}

}  // namespace
