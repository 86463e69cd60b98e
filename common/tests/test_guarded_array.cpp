#include "wb/guarded_array.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(GuardedArray, HoldsACopyOfTheValues) {
    const std::vector<double> values = {1.5, -2.0, 3.25};
    const wb::GuardedArray<double> guarded(values);
    EXPECT_EQ(guarded.to_vector(), values);
    guarded.data()[1] = 7.0;
    EXPECT_EQ(guarded.to_vector()[1], 7.0);
}

// The element one past the end is the first byte of the trailing guard page.
TEST(GuardedArrayDeathTest, WriteOnePastTheEndFaults) {
    const wb::GuardedArray<double> guarded(std::vector<double>(5, 0.0));
    volatile double* past_end = guarded.data() + 5;
    EXPECT_DEATH(*past_end = 1.0, "");
}

// A loop that walks down from the first element reaches the leading guard page within a page.
TEST(GuardedArrayDeathTest, WalkingBelowTheStartFaults) {
    const wb::GuardedArray<double> guarded(std::vector<double>(3, 0.0));
    volatile double* below = guarded.data();
    EXPECT_DEATH(
        {
            for (long j = 0;; --j) below[j] = 1.0;
        },
        "");
}

}  // namespace
