#include "wb/args.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include <unistd.h>

namespace {

// A lesson with a declared whole number, a declared number up to the largest double, and a flag.
wb::Options parse(std::vector<const char*> args) {
    args.insert(args.begin(), "prog");
    wb::LessonInfo info{"00-test",
                        "unit test",
                        "sizes",
                        {wb::integer_option("steps", "N", "steps", 1, 1, 1000),
                         wb::number_option("scale", "X", "a factor", 1.0, 0.0, std::numeric_limits<double>::max()),
                         {"quick", "", "a flag"}}};
    return wb::parse_args(static_cast<int>(args.size()), const_cast<char**>(args.data()), info);
}

TEST(Args, DefaultsToCheckWithDefaultSeed) {
    const wb::Options o = parse({});
    EXPECT_EQ(o.mode, wb::Options::Mode::check);
    EXPECT_TRUE(o.sizes.empty());
    EXPECT_EQ(o.seed, 20241122u);
}

TEST(Args, ParsesCommonOptions) {
    const wb::Options o = parse({"--bench", "--sizes", "1,7,61x37x53", "--block", "16,32x8", "--repeat", "5", "--seed",
                                 "42", "--out", "x.csv", "--full"});
    EXPECT_EQ(o.mode, wb::Options::Mode::bench);
    ASSERT_EQ(o.sizes.size(), 3u);
    EXPECT_EQ(o.sizes[2], (std::vector<long>{61, 37, 53}));
    ASSERT_EQ(o.blocks.size(), 2u);
    EXPECT_EQ(o.blocks[0].x, 16);
    EXPECT_EQ(o.blocks[0].y, 16);
    EXPECT_EQ(o.blocks[1].str(), "32x8");
    EXPECT_EQ(o.repeat, 5);
    EXPECT_EQ(o.seed, 42u);
    EXPECT_EQ(o.out, "x.csv");
    EXPECT_TRUE(o.full);
}

TEST(Args, ExpandsRanges) {
    const auto sizes = wb::parse_sizes("1000:3000:1000");
    ASSERT_EQ(sizes.size(), 3u);
    EXPECT_EQ(sizes[2][0], 3000);
}

TEST(Args, LessonOptions) {
    const wb::Options o = parse({"--steps", "100", "--quick"});
    EXPECT_EQ(o.integer("steps"), 100);
    EXPECT_TRUE(o.has("quick"));
    EXPECT_FALSE(parse({}).has("quick"));
    EXPECT_EQ(parse({}).integer("steps"), 1);
}

using ArgsDeath = ::testing::Test;

TEST(ArgsDeath, BadValuesExitWithCode2) {
    EXPECT_EXIT(parse({"--sizes", "0"}), ::testing::ExitedWithCode(2), "out of range");
    EXPECT_EXIT(parse({"--sizes", "12a"}), ::testing::ExitedWithCode(2), "not a positive whole number");
    EXPECT_EXIT(parse({"--sizes", "-5"}), ::testing::ExitedWithCode(2), "not a positive whole number");
    EXPECT_EXIT(parse({"--sizes", "5,,6"}), ::testing::ExitedWithCode(2), "empty item");
    EXPECT_EXIT(parse({"--block", "16x"}), ::testing::ExitedWithCode(2), "block");
    EXPECT_EXIT(parse({"--block", "8x8x8"}), ::testing::ExitedWithCode(2), "not a block");
    EXPECT_EXIT(parse({"--repeat", "0"}), ::testing::ExitedWithCode(2), "repeat");
    EXPECT_EXIT(parse({"--seed"}), ::testing::ExitedWithCode(2), "needs a value");
    EXPECT_EXIT(parse({"--frobnicate"}), ::testing::ExitedWithCode(2), "unknown option");
    EXPECT_EXIT(parse({"--steps", "x"}), ::testing::ExitedWithCode(2), "--steps: 'x' must be a whole number");
}

TEST(ArgsDeath, BlockRejectedWhereTheLessonFixesIt) {
    const char* args[] = {"prog", "--block", "16"};
    wb::LessonInfo info{"00-fixed", "blocks fixed", "sizes", {}};
    info.accepts_block = false;
    EXPECT_EXIT(wb::parse_args(3, const_cast<char**>(args), info), ::testing::ExitedWithCode(2),
                "--block: 00-fixed chooses");
}

TEST(Args, RemembersTheOneNumberShorthand) {
    EXPECT_TRUE(wb::parse_blocks("64")[0].one_number);
    EXPECT_FALSE(wb::parse_blocks("64x64")[0].one_number);
}

TEST(ArgsDeath, HelpExitsZero) { EXPECT_EXIT(parse({"--help"}), ::testing::ExitedWithCode(0), ""); }

TEST(ArgsDeath, CheckedBytesCatchesOverflow) {
    EXPECT_EQ(wb::checked_bytes(8, 1000, 1000), 8000000u);
    EXPECT_EXIT(wb::checked_bytes(8, 1L << 30, 1L << 30, 1L << 30), ::testing::ExitedWithCode(2), "overflow");
}

TEST(Args, RowsByCols) {
    const auto sizes = wb::rows_by_cols(parse({"--sizes", "160000x8,7x1"}), {}, "shape", "160000x8");
    ASSERT_EQ(sizes.size(), 2u);
    EXPECT_EQ(sizes[0].rows, 160000);
    EXPECT_EQ(sizes[0].cols, 8);
    EXPECT_EQ(sizes[1].str(), "7x1");
    EXPECT_EQ(wb::rows_by_cols(parse({}), {{3, 4}}, "shape", "3x4")[0].str(), "3x4");
}

// --repeat, else the lesson's default; a lesson without one (0) chooses as it measures.
TEST(Args, RepeatsDefaultToTheLessons) {
    wb::LessonInfo info{"00-test", "unit test", "sizes", {}};
    const char* none[] = {"prog", "--bench"};
    const char* two[] = {"prog", "--bench", "--repeat", "2"};
    EXPECT_EQ(wb::parse_args(2, const_cast<char**>(none), info).repeat, 0);
    info.default_repeats = 7;
    EXPECT_EQ(wb::parse_args(2, const_cast<char**>(none), info).repeat, 7);
    EXPECT_EQ(wb::parse_args(4, const_cast<char**>(two), info).repeat, 2);
}

TEST(Args, OneTimedShape) {
    EXPECT_EQ(wb::one_timed_shape(parse({}), {8192, 4096}, "grid", "grid", 256, 40000).str(), "8192x4096");
    EXPECT_EQ(wb::one_timed_shape(parse({"--sizes", "256x40000"}), {8, 8}, "grid", "grid", 256, 40000).str(),
              "256x40000");
}

TEST(ArgsDeath, OneTimedShapeBounds) {
    EXPECT_EXIT(wb::one_timed_shape(parse({"--sizes", "300x300,400x400"}), {8, 8}, "grid", "grid", 256, 40000),
                ::testing::ExitedWithCode(2), "--sizes: give one grid for the benchmark");
    EXPECT_EXIT(wb::one_timed_shape(parse({"--sizes", "255x300"}), {8, 8}, "grid", "grid", 256, 40000),
                ::testing::ExitedWithCode(2), "255x300 is too small to time \\(at least 256x256\\)");
    EXPECT_EXIT(wb::one_timed_shape(parse({"--sizes", "300x40001"}), {8, 8}, "grid", "grid", 256, 40000),
                ::testing::ExitedWithCode(2), "300x40001 is too large \\(at most 40000x40000\\)");
}

TEST(ArgsDeath, RowsByColsWantsTwoNumbers) {
    EXPECT_EXIT(wb::rows_by_cols(parse({"--sizes", "1000"}), {}, "shape", "160000x8"), ::testing::ExitedWithCode(2),
                "give each shape as MxN \\(rows x columns\\), e.g. 160000x8");
    EXPECT_EXIT(wb::rows_by_cols(parse({"--sizes", "2x3x4"}), {}, "grid", "100x80"), ::testing::ExitedWithCode(2),
                "give each grid as MxN");
}

}  // namespace

TEST(ArgsDeath, SuggestsTheOptionMeant) {
    EXPECT_EXIT(parse({"--size", "5"}), ::testing::ExitedWithCode(2),
                "unknown option '--size' \\(did you mean --sizes\\?\\)");
    EXPECT_EXIT(parse({"--step", "5"}), ::testing::ExitedWithCode(2), "did you mean --steps\\?");
    EXPECT_EXIT(parse({"--frobnicate"}), ::testing::ExitedWithCode(2), "unknown option '--frobnicate' \\(try");
}

TEST(ArgsDeath, EmptyValuesAndNumbers) {
    EXPECT_EXIT(parse({"--steps", ""}), ::testing::ExitedWithCode(2), "--steps: empty value");
    EXPECT_EXIT(parse({"--scale", "banana"}), ::testing::ExitedWithCode(2), "--scale: 'banana' must be a number");
    // Beyond the largest double: refused for overflowing, as no bound of --scale lies below it.
    EXPECT_EXIT(parse({"--scale", "1e400"}), ::testing::ExitedWithCode(2), "--scale: '1e400' must be a number");
    EXPECT_DOUBLE_EQ(parse({"--scale", "2.5"}).number("scale"), 2.5);
}

TEST(ArgsDeath, OptionsTheProgramDoesNotTake) {
    wb::LessonInfo info{"00-cpu", "no benchmark, no sizes", "", {}};
    info.accepts_block = false;
    info.benchmarks = false;
    for (const char* option : {"--sizes", "--bench", "--repeat", "--out", "--full"}) {
        const char* args[] = {"prog", option, "1"};
        EXPECT_EXIT(wb::parse_args(3, const_cast<char**>(args), info), ::testing::ExitedWithCode(2),
                    "00-cpu does not take this option");
    }
}

namespace {

// A lesson with declared numeric options: one with a default, one whose default the driver gives.
wb::Options parse_declared(std::vector<const char*> args) {
    args.insert(args.begin(), "prog");
    wb::LessonInfo info{"00-declared",
                        "declared bounds",
                        "sizes",
                        {wb::integer_option("steps", "N", "steps to run", 300, 1, 100000),
                         wb::integer_option("work", "N", "work per element (check: 50, bench: 2000)", 1, 100000),
                         wb::number_option("expect-max", "M", "expected maximum", 0.0, 0.0, 1e6),
                         {"label", "NAME", "any text"}}};
    return wb::parse_args(static_cast<int>(args.size()), const_cast<char**>(args.data()), info);
}

}  // namespace

TEST(Args, DeclaredOptionsReadBackWithTheirDefaults) {
    const wb::Options absent = parse_declared({});
    EXPECT_EQ(absent.integer("steps"), 300);
    EXPECT_EQ(absent.integer("work", 2000), 2000);
    EXPECT_DOUBLE_EQ(absent.number("expect-max"), 0.0);
    const wb::Options given = parse_declared({"--steps", "100000", "--work", "1", "--expect-max", "2.5e3"});
    EXPECT_EQ(given.integer("steps"), 100000);
    EXPECT_EQ(given.integer("work", 2000), 1);
    EXPECT_DOUBLE_EQ(given.number("expect-max"), 2500.0);
}

TEST(ArgsDeath, DeclaredBoundsAreCheckedWhenParsing) {
    EXPECT_EXIT(parse_declared({"--steps", "0"}), ::testing::ExitedWithCode(2),
                "error: --steps: '0' must be a whole number in 1..100000 \\(try --help\\)");
    EXPECT_EXIT(parse_declared({"--steps", "100001"}), ::testing::ExitedWithCode(2), "in 1..100000");
    EXPECT_EXIT(parse_declared({"--steps", "-3"}), ::testing::ExitedWithCode(2), "'-3' must be a whole number");
    EXPECT_EXIT(parse_declared({"--steps", "2.5"}), ::testing::ExitedWithCode(2), "'2.5' must be a whole number");
    EXPECT_EXIT(parse_declared({"--work", "x"}), ::testing::ExitedWithCode(2), "--work: 'x' must be a whole number");
    EXPECT_EXIT(parse_declared({"--expect-max", "banana"}), ::testing::ExitedWithCode(2),
                "--expect-max: 'banana' must be a number in 0..1e\\+06");
    EXPECT_EXIT(parse_declared({"--expect-max", "nan"}), ::testing::ExitedWithCode(2), "must be a number");
    EXPECT_EXIT(parse_declared({"--expect-max", "-1"}), ::testing::ExitedWithCode(2), "must be a number in 0..");
}

// --help goes to stdout; the death test matches stderr, so the child sends one to the other.
static void help_to_stderr(const char* option) {
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    parse_declared({option});
}

TEST(ArgsDeath, HelpShowsDeclaredDefaultsAndBounds) {
    EXPECT_EXIT(help_to_stderr("--help"), ::testing::ExitedWithCode(0),
                "--steps N +steps to run \\(default 300; 1..100000\\)");
    EXPECT_EXIT(help_to_stderr("--help"), ::testing::ExitedWithCode(0),
                "work per element \\(check: 50, bench: 2000\\) \\(1..100000\\)");
    EXPECT_EXIT(help_to_stderr("--help"), ::testing::ExitedWithCode(0), "expected maximum \\(default 0; 0..1e\\+06\\)");
}

TEST(Args, DriverFaultsAreNotUsageErrors) {
    const wb::Options o = parse_declared({});
    EXPECT_THROW(o.integer("expect-max"), std::logic_error);  // declared as a number
    EXPECT_THROW(o.integer("label"), std::logic_error);       // declared as text
    EXPECT_THROW(o.integer("no-such"), std::logic_error);     // not declared
    EXPECT_THROW(o.integer("work"), std::logic_error);        // no declared default
    EXPECT_THROW(o.number("steps"), std::logic_error);
    EXPECT_THROW(wb::integer_option("n", "N", "", 5, 1, 4), std::invalid_argument);  // default outside
    EXPECT_THROW(wb::integer_option("n", "N", "", 4, 1), std::invalid_argument);     // lo > hi
    EXPECT_THROW(wb::number_option("x", "X", "", 0.5, 1, 2), std::invalid_argument);
}

namespace {

// A program whose sides are 3..4096, at most 100 in the check.
wb::Options parse_bounded_sizes(std::vector<const char*> args) {
    args.insert(args.begin(), "prog");
    wb::LessonInfo info{"00-bounded", "declared size bounds", "grids RxC", {}};
    info.sizes_least = 3;
    info.sizes_most = 4096;
    info.sizes_most_in_check = 100;
    return wb::parse_args(static_cast<int>(args.size()), const_cast<char**>(args.data()), info);
}

}  // namespace

TEST(Args, DeclaredSizeBoundsLetTheirEndsThrough) {
    EXPECT_EQ(parse_bounded_sizes({"--sizes", "3x100"}).sizes[0], (std::vector<long>{3, 100}));
    EXPECT_EQ(parse_bounded_sizes({"--bench", "--sizes", "4096x3"}).sizes[0], (std::vector<long>{4096, 3}));
    EXPECT_EQ(parse_bounded_sizes({"--bench", "--sizes", "101x5"}).sizes[0][0], 101);  // the check's limit only
}

TEST(ArgsDeath, DeclaredSizeBoundsAreCheckedWhenParsing) {
    EXPECT_EXIT(parse_bounded_sizes({"--sizes", "2x8"}), ::testing::ExitedWithCode(2),
                "error: --sizes: 2x8 is too small \\(at least 3x3\\) \\(try --help\\)");
    EXPECT_EXIT(parse_bounded_sizes({"--bench", "--sizes", "8,4097"}), ::testing::ExitedWithCode(2),
                "--sizes: 4097 is too large \\(at most 4096\\)");
    EXPECT_EXIT(parse_bounded_sizes({"--sizes", "101x5"}), ::testing::ExitedWithCode(2),
                "--sizes: 101x5 is too large for the check \\(at most 100x100\\)");
    // The check's limit is checked once the mode is known, wherever --bench or --check stands.
    EXPECT_EXIT(parse_bounded_sizes({"--bench", "--sizes", "101x5", "--check"}), ::testing::ExitedWithCode(2),
                "too large for the check");
}

TEST(ArgsDeath, HelpShowsDeclaredSizeBounds) {
    auto help = [] {
        ::dup2(STDERR_FILENO, STDOUT_FILENO);
        parse_bounded_sizes({"--help"});
    };
    EXPECT_EXIT(help(), ::testing::ExitedWithCode(0), "FROM:TO:STEP \\(each side 3..4096; in --check at most 100\\)");
}
