#include "wb/column_sums.h"
#include "wb/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

TEST(Compare, AllCorrect) {
    const std::vector<double> got{1.0, 2.0, 3.0};
    const wb::CompareReport r = wb::compare(got.data(), got.data(), 3, wb::Tolerance{0, 1e-12});
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.wrong, 0);
}

TEST(Compare, ReportsFirstWrongAndCount) {
    const std::vector<float> got{1, 2, 12, 4, 9};
    const std::vector<double> expected{1, 2, 14, 4, 5};
    const wb::CompareReport r = wb::compare(got.data(), expected.data(), 5, wb::Tolerance{1e-6, 1e-6});
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.wrong, 2);
    EXPECT_EQ(r.first_wrong, 2);
    EXPECT_EQ(r.first_got, 12);
    EXPECT_EQ(r.first_expected, 14);
    EXPECT_DOUBLE_EQ(r.max_abs_error, 4.0);
}

TEST(Compare, NaNNeverPasses) {
    const std::vector<double> got{NAN, 1.0};
    const std::vector<double> expected{0.0, 1.0};
    const wb::CompareReport r = wb::compare(got.data(), expected.data(), 2, wb::Tolerance{1e300, 1e300});
    EXPECT_EQ(r.wrong, 1);
    EXPECT_EQ(r.first_wrong, 0);
}

TEST(Compare, ScaleArrayIsUsed) {
    // expected is 0 after cancellation, but the terms were large: the error is acceptable.
    const std::vector<double> got{1e-14}, expected{0.0}, scale{100.0};
    EXPECT_FALSE(wb::compare(got.data(), expected.data(), 1, wb::Tolerance{0, 1e-15}).ok());
    EXPECT_TRUE(wb::compare(got.data(), expected.data(), 1, wb::Tolerance{0, 1e-15}, scale.data()).ok());
}

TEST(Compare, SummationToleranceGrowsWithTermsAndPrecision) {
    const auto f = wb::summation_tolerance<float>(1000);
    const auto d = wb::summation_tolerance<double>(1000);
    EXPECT_GT(f.rel, d.rel);
    EXPECT_GT(wb::summation_tolerance<double>(4000).rel, d.rel);
    EXPECT_NEAR(d.rel, 2 * 1000 * 1.11e-16, 1e-15);
}

TEST(Compare, PrintsTheFamiliarLine) {
    const std::vector<double> got{14, 14, 12}, expected{14, 14, 14};
    const wb::CompareReport r = wb::compare(got.data(), expected.data(), 3, wb::Tolerance{0, 0});
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* out = open_memstream(&buffer, &size);
    wb::print_report(r, "C", 2, out);
    std::fclose(out);
    const std::string text(buffer, size);
    std::free(buffer);
    EXPECT_NE(text.find("C[1][0] = 12 (expected 14); 1 of 3 wrong"), std::string::npos) << text;
}

TEST(Compare, ElementNames) {
    EXPECT_EQ(wb::element_name("C", 7, 5), "C[1][2]");
    EXPECT_EQ(wb::element_name("v", 7, 0), "v[7]");
}

TEST(ColumnSums, ReferenceAndScale) {
    // 3 x 2, row-major: columns {1, -2, 4} and {0.5, 0.25, -1}.
    const std::vector<double> matrix{1, 0.5, -2, 0.25, 4, -1};
    const wb::ColumnSumsReference reference = wb::column_sums_reference(matrix, 3, 2);
    EXPECT_EQ(reference.rows, 3);
    EXPECT_EQ(reference.expected, (std::vector<double>{3, -0.25}));
    EXPECT_EQ(reference.scale, (std::vector<double>{7, 1.75}));
    EXPECT_TRUE(reference.compare({3, -0.25}).ok());
    const wb::CompareReport wrong = reference.compare({3, std::nan("")});
    EXPECT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.first_wrong, 1);
}

}  // namespace
