#include "wb/timeline.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using wb::Operation;
using wb::TimelineOp;

TimelineOp op(int stream, int chunk, Operation operation, double start, double end) {
    return TimelineOp{stream, chunk, operation, start, end};
}

// Two chunks on two streams, every engine free when its turn comes: copy in 2 ms, kernel 3 ms,
// copy out 1 ms per chunk; the second copy in waits for the first one (one copy engine).
std::vector<TimelineOp> two_chunks() {
    return {op(0, 0, Operation::h2d, 0, 2), op(0, 0, Operation::kernel, 2, 5), op(0, 0, Operation::d2h, 5, 6),
            op(1, 1, Operation::h2d, 0, 4), op(1, 1, Operation::kernel, 4, 8), op(1, 1, Operation::d2h, 8, 9)};
}

TEST(Timeline, EngineBusyCountsOverlappingBoxesOnce) {
    const std::vector<TimelineOp> ops = two_chunks();
    EXPECT_DOUBLE_EQ(wb::engine_busy_ms(ops, Operation::h2d), 4.0);     // [0,2] inside [0,4]
    EXPECT_DOUBLE_EQ(wb::engine_busy_ms(ops, Operation::kernel), 6.0);  // [2,5] and [4,8]
    EXPECT_DOUBLE_EQ(wb::engine_busy_ms(ops, Operation::d2h), 2.0);     // [5,6] and [8,9]
}

TEST(Timeline, EngineBusyOfNoOperationIsZero) {
    EXPECT_DOUBLE_EQ(wb::engine_busy_ms({}, Operation::kernel), 0.0);
    EXPECT_DOUBLE_EQ(wb::ideal_pipeline_ms({}), 0.0);
}

TEST(Timeline, IdealIsTheBusiestEngineWithOneChunkThroughTheOthers) {
    // Kernels are busiest (6 ms): the shortest copy in (2 ms) before, the shortest copy out after.
    EXPECT_DOUBLE_EQ(wb::ideal_pipeline_ms(two_chunks()), 2.0 + 6.0 + 1.0);
}

TEST(Timeline, IdealOfOneChunkIsItsThreeOperations) {
    const std::vector<TimelineOp> ops = {op(0, 0, Operation::h2d, 0, 1.5), op(0, 0, Operation::kernel, 1.5, 2),
                                         op(0, 0, Operation::d2h, 2, 3.25)};
    EXPECT_DOUBLE_EQ(wb::ideal_pipeline_ms(ops), 3.25);
}

TEST(Timeline, IdealWhenCopiesInAreBusiest) {
    // Four copies in of 2 ms back to back, kernels and copies out short.
    std::vector<TimelineOp> ops;
    for (int c = 0; c < 4; ++c) {
        ops.push_back(op(c % 2, c, Operation::h2d, 2.0 * c, 2.0 * c + 2));
        ops.push_back(op(c % 2, c, Operation::kernel, 2.0 * c + 2, 2.0 * c + 2.5));
        ops.push_back(op(c % 2, c, Operation::d2h, 2.0 * c + 2.5, 2.0 * c + 2.75));
    }
    EXPECT_DOUBLE_EQ(wb::ideal_pipeline_ms(ops), 8.0 + 0.5 + 0.25);
}

std::string read_all(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(Timeline, FileHoldsHeaderRowsSpanAndIdeal) {
    const std::string path = ::testing::TempDir() + "timeline-test-" + std::to_string(::getpid()) + ".csv";
    {
        wb::TimelineFile file(path);
        file.write("prog --bench --timeline t.csv", "Test GPU", {"streams: 2, chunks: 2"}, two_chunks());
    }
    const std::string text = read_all(path);
    std::remove(path.c_str());
    EXPECT_NE(text.find("# device: Test GPU\n"), std::string::npos);
    EXPECT_NE(text.find("# command: prog --bench --timeline t.csv\n"), std::string::npos);
    EXPECT_NE(text.find("# streams: 2, chunks: 2\n"), std::string::npos);
    EXPECT_NE(text.find("\nstream,chunk,operation,start_ms,end_ms\n0,0,h2d,0,2\n"), std::string::npos);
    EXPECT_NE(text.find("\n1,1,d2h,8,9\n-,-,span,0,9\n-,-,ideal,0,9\n"), std::string::npos);
}

TEST(Timeline, FileNotWrittenLeavesNothing) {
    const std::string path = ::testing::TempDir() + "timeline-unwritten-" + std::to_string(::getpid()) + ".csv";
    { wb::TimelineFile file(path); }  // the run stopped before write()
    EXPECT_FALSE(std::ifstream(path).good());
    EXPECT_FALSE(std::ifstream(path + ".partial." + std::to_string(::getpid())).good());
}

TEST(Timeline, FolderIsRefused) {
    EXPECT_EXIT({ wb::TimelineFile file(::testing::TempDir()); }, ::testing::ExitedWithCode(2), "Is a directory");
}

}  // namespace
