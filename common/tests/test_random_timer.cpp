#include "wb/random.h"
#include "wb/timer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

TEST(Random, SameSeedSameValuesInRange) {
    std::vector<double> a(1000), b(1000), c(1000);
    wb::fill_random(a, 7);
    wb::fill_random(b, 7);
    wb::fill_random(c, 8);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    for (double v : a) {
        EXPECT_GE(v, -1.0);
        EXPECT_LT(v, 1.0);
    }
}

TEST(Random, PoisonIsNaNForFloatingPoint) {
    std::vector<float> f(3, 1.0f);
    wb::poison(f);
    for (float v : f) EXPECT_TRUE(std::isnan(v));
    EXPECT_EQ(wb::poison_value<int>(), 2147483647);
}

TEST(Timer, MedianOfOddAndEven) {
    EXPECT_DOUBLE_EQ(wb::summarize({5, 1, 3}).median_ms, 3.0);
    EXPECT_DOUBLE_EQ(wb::summarize({4, 1, 3, 2}).median_ms, 2.5);
    const wb::TimingStats s = wb::summarize({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.min_ms, 1.0);
    EXPECT_DOUBLE_EQ(s.max_ms, 4.0);
    EXPECT_EQ(s.repeats, 4);
}

TEST(Timer, MeasureRunsWarmupThenRepeats) {
    int calls = 0;
    const wb::TimingStats s = wb::measure(2, 5, [&] { return static_cast<double>(++calls); });
    EXPECT_EQ(calls, 7);
    EXPECT_DOUBLE_EQ(s.median_ms, 5.0);  // samples 3..7
}

TEST(Timer, WallTimerAdvances) {
    wb::WallTimer t;
    volatile double x = 0;
    for (int i = 0; i < 1000000; ++i) x = x + 1;
    EXPECT_GT(t.elapsed_ms(), 0.0);
}

}  // namespace
