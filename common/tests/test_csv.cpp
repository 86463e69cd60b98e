#include "wb/csv.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace
