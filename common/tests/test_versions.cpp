#include "wb/args.h"
#include "wb/lesson.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

const std::vector<wb::Version<int>> kTable = {{"01-a", "-", 1}, {"02-b", "-", 2}, {"03-c", "-", 3}};

wb::Options with_kernels(const char* list) {
    const char* args[] = {"prog", "--kernels", list};
    wb::LessonInfo info{"00-test", "unit test", "sizes", {{"kernels", "LIST", "kernels by number or name"}}};
    return wb::parse_args(3, const_cast<char**>(args), info);
}

TEST(Versions, ByNumberInTheOrderGivenEachOnce) {
    const auto chosen = wb::select_kernels(with_kernels("3,1,3"), kTable);
    ASSERT_EQ(chosen.size(), 2u);
    EXPECT_EQ(chosen[0].name, "03-c");
    EXPECT_EQ(chosen[1].name, "01-a");
}

TEST(Versions, ByNameOrNumberAndEveryRowOfAName) {
    const std::vector<wb::Version<int>> table = {{"mono", "8x8", 1}, {"fused", "-", 2}, {"mono", "16x16", 3}};
    const auto chosen = wb::select_kernels(with_kernels("mono"), table);
    ASSERT_EQ(chosen.size(), 2u);
    EXPECT_EQ(chosen[1].label, "16x16");
    const auto mixed = wb::select_kernels(with_kernels("02-b,1"), kTable);
    ASSERT_EQ(mixed.size(), 2u);
    EXPECT_EQ(mixed[0].name, "02-b");
    EXPECT_EQ(mixed[1].name, "01-a");
}

using VersionsDeath = ::testing::Test;

TEST(VersionsDeath, ByNumberRejectsOutOfRange) {
    EXPECT_EXIT(wb::select_kernels(with_kernels("4"), kTable), ::testing::ExitedWithCode(2),
                "--kernels: '4' is no kernel of this lesson \\(known: 01-a, 02-b, 03-c\\)");
}

TEST(Versions, RunnableLeavesOutWithTheReason) {
    testing::internal::CaptureStdout();
    const auto kept = wb::runnable_versions(
        kTable, [](const wb::Version<int>& v) { return v.config == 2 ? std::string("it needs more") : std::string(); });
    const std::string printed = testing::internal::GetCapturedStdout();
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_EQ(kept[0].name, "01-a");
    EXPECT_EQ(kept[1].name, "03-c");
    EXPECT_EQ(printed, "02-b left out: it needs more\n");
}

}  // namespace
