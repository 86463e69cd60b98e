#include "wb/csv.h"
#include "wb/power_sampler.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

TEST(PowerSampler, NamesEventBits) {
    EXPECT_EQ(wb::clock_event_names(0), "none");
    EXPECT_EQ(wb::clock_event_names(wb::kClockEventIdle), "idle");
    EXPECT_EQ(wb::clock_event_names(wb::kClockEventSwPowerCap), "sw-power-cap");
    EXPECT_EQ(wb::clock_event_names(0x4 | 0x8), "sw-power-cap+hw-slowdown");
    EXPECT_EQ(wb::clock_event_names(0x1 | 0x2 | 0x10 | 0x20 | 0x40 | 0x80),
              "idle+app-clocks+sync-boost+sw-thermal+hw-thermal+hw-power-brake");
    // A bit NVML may add later is kept as its value, not dropped.
    EXPECT_EQ(wb::clock_event_names(0x4 | 0x400), "sw-power-cap+0x400");
}

TEST(PowerSampler, EventsTextEmptyWhenNeverRead) {
    wb::PowerSummary summary;
    EXPECT_EQ(summary.events_text(), "");
    summary.events_known = true;
    EXPECT_EQ(summary.events_text(), "none");
}

TEST(PowerSampler, MissingLibraryLeavesColumnsEmpty) {
    wb::PowerSampler sampler("0000:00:00.0", 10, "libwb-no-such-nvml.so.1");
    EXPECT_FALSE(sampler.available());
    EXPECT_NE(sampler.why_unavailable().find("libwb-no-such-nvml.so.1"), std::string::npos);
    sampler.start();
    const wb::PowerSummary summary = sampler.stop();
    EXPECT_EQ(summary.samples, 0);
    EXPECT_EQ(summary.describe(), "");
    const std::vector<std::string> fields = summary.fields();
    ASSERT_EQ(fields.size(), wb::power_columns().size());
    for (const std::string& field : fields) EXPECT_EQ(field, "") << "an unmeasured figure must be empty, not zero";
}

TEST(PowerSampler, SummaryFieldsFollowColumns) {
    wb::PowerSummary summary;
    summary.samples = 12;
    summary.sm_clock_mhz = 1755;
    summary.power_w = 690.5;
    summary.power_max_w = 701;
    summary.power_limit_w = 700;
    summary.events_known = true;
    summary.events = wb::kClockEventSwPowerCap;
    const std::vector<std::string> expected = {"1755", "690.5", "701", "700", "sw-power-cap", "12"};
    EXPECT_EQ(summary.fields(), expected);
    EXPECT_EQ(summary.describe(), "SM 1755 MHz, 690.5 W (max 701 W, limit 700 W), clock events: sw-power-cap");
}

// A writer with extra columns appends them after the common schema; a writer without writes the
// common header unchanged.
TEST(PowerSampler, CsvExtraColumnsAfterCommonOnes) {
    const std::string path = "/tmp/wb-power-csv-" + std::to_string(getpid()) + ".csv";
    {
        wb::CsvWriter csv(path, "test", "cpu", wb::CsvWriter::Machine::cpu, {"inputs", "power_w"});
        wb::BenchRow row;
        row.kernel = "k";
        row.time.median_ms = 1.0;
        row.extra = {"random"};
        csv.write(row);
        row.extra = {"a", "b", "c"};
        EXPECT_THROW(csv.write(row), std::invalid_argument);
        csv.finish(false);
    }
    std::ifstream in(path);
    std::string line, header, data;
    while (std::getline(in, line))
        if (line.empty() || line[0] != '#') (header.empty() ? header : data) = line;
    std::remove(path.c_str());
    EXPECT_EQ(header, std::string(wb::csv_header()) + ",inputs,power_w");
    ASSERT_GE(data.size(), std::string(",random,").size());
    EXPECT_EQ(data.substr(data.size() - std::string(",random,").size()), ",random,");
}

}  // namespace
