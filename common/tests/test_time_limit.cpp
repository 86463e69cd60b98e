// The verdict of a check still running at its time limit (wb::time_limit_verdict): for the
// student's CPU function that was running (marked by wb::RunningExercise), that function and only
// causes that code on the CPU can have; else every likely cause.
#include "wb/lesson.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string verdict(const char* exercise) {
    char text[1024];
    wb::time_limit_verdict(text, sizeof text, 3.0, "01", exercise);
    return text;
}

TEST(TimeLimitVerdict, NamesTheCpuFunctionAndOnlyCpuCauses) {
    const std::string text = verdict("matmul_ikj");
    EXPECT_EQ(text.rfind("\nFAILED: the check did not finish within 3 s: it was still running matmul_ikj, your code "
                         "on the CPU",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find("a loop that never ends"), std::string::npos) << text;
    EXPECT_NE(text.find("See the hints on the lesson 01 page.\n"), std::string::npos) << text;
    for (const char* gpu_cause : {"kernel", "barrier", "flag", "exchange", "send", "receive"})
        EXPECT_EQ(text.find(gpu_cause), std::string::npos) << gpu_cause << " in: " << text;
}

TEST(TimeLimitVerdict, WithoutAFunctionListsEveryLikelyCause) {
    const std::string text = verdict(nullptr);
    EXPECT_EQ(text.rfind("\nFAILED: the check did not finish within 3 s (", 0), 0u) << text;
    for (const char* cause : {"a loop that never ends", "a kernel that never finishes", "only one side joins"})
        EXPECT_NE(text.find(cause), std::string::npos) << cause << " missing from: " << text;
}

TEST(RunningExercise, MarksNestAndEnd) {
    EXPECT_EQ(wb::running_exercise(), nullptr);
    {
        const wb::RunningExercise outer("time_the_kernel");
        EXPECT_STREQ(wb::running_exercise(), "time_the_kernel");
        {
            const wb::RunningExercise inner("matmul_ikj");
            EXPECT_STREQ(wb::running_exercise(), "matmul_ikj");
        }
        EXPECT_STREQ(wb::running_exercise(), "time_the_kernel");
    }
    EXPECT_EQ(wb::running_exercise(), nullptr);
}

}  // namespace
