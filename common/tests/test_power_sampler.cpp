#include "wb/csv.h"
#include "wb/power_sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace {

// Never inside a timed stretch.
long no_stretch() { return -1; }

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
    sampler.start(no_stretch);
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
    summary.sm_clock_min_mhz = 1740;
    summary.sm_clock_max_mhz = 1770;
    summary.power_w = 690.5;
    summary.power_min_w = 681;
    summary.power_max_w = 701;
    summary.power_limit_w = 700;
    summary.events_known = true;
    summary.events = wb::kClockEventSwPowerCap;
    const std::vector<std::string> expected = {"1755", "1740", "1770",         "690.5", "681",
                                               "701",  "700",  "sw-power-cap", "12"};
    EXPECT_EQ(summary.fields(), expected);
    const std::vector<std::string> columns = {"sm_clock_mhz",  "sm_clock_min_mhz", "sm_clock_max_mhz",
                                              "power_w",       "power_min_w",      "power_max_w",
                                              "power_limit_w", "clock_events",     "timed_samples"};
    EXPECT_EQ(wb::power_columns(), columns);
    EXPECT_EQ(summary.describe(), "SM 1755 MHz (1740..1770), 690.5 W (681..701), limit 700 W, clock events: "
                                  "sw-power-cap, 12 readings while timed");
    // The CSV says what the columns hold: readings while timed runs were on the GPU, and how often.
    const std::string comment = wb::power_columns_comment(1.0);
    EXPECT_EQ(comment.rfind("clock and power: NVML read every 1 ms while a timed run", 0), 0u) << comment;
    EXPECT_NE(comment.find("timed_samples how many readings"), std::string::npos) << comment;
}

#ifdef WB_FAKE_NVML
// The fake NVML of the tests (common/tests/fake_nvml.cpp): the sampler loads it by its path, and
// the test sets what its next readings give.
using SetReadings = void (*)(unsigned clock_mhz, unsigned milliwatts, int power_status, unsigned long long events);

SetReadings fake_readings() {
    void* library = dlopen(WB_FAKE_NVML, RTLD_NOW | RTLD_LOCAL);
    return library ? reinterpret_cast<SetReadings>(dlsym(library, "fake_nvml_set")) : nullptr;
}

void wait_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Readings taken before, between and after the timed stretches (an idle clock, a low power) never
// reach the figures: only those read inside a stretch do.
TEST(PowerSampler, KeepsOnlyReadingsInsideTimedStretches) {
    const SetReadings set = fake_readings();
    ASSERT_NE(set, nullptr) << dlerror();
    std::atomic<long> stretch{-1};
    set(999, 50000, 0, wb::kClockEventIdle);
    wb::PowerSampler sampler("0000:00:00.0", 1.0, WB_FAKE_NVML);
    ASSERT_TRUE(sampler.available()) << sampler.why_unavailable();
    // One timed stretch at a clock and a power held at the cap, then 20 ms idle between stretches.
    const auto timed_stretch = [&](long number, unsigned clock_mhz, unsigned milliwatts) {
        set(clock_mhz, milliwatts, 0, wb::kClockEventSwPowerCap);
        stretch = number;
        wait_ms(40);
        stretch = -1;
        set(345, 50000, 0, wb::kClockEventIdle);
        wait_ms(20);
    };
    sampler.start([&stretch] { return stretch.load(); });
    wait_ms(20);
    timed_stretch(1, 1500, 600000);
    timed_stretch(2, 1700, 650000);
    const wb::PowerSummary summary = sampler.stop();
    ASSERT_GE(summary.samples, 2);
    EXPECT_EQ(summary.sm_clock_min_mhz, 1500);
    EXPECT_EQ(summary.sm_clock_max_mhz, 1700);
    EXPECT_GE(summary.sm_clock_mhz, 1500);
    EXPECT_LE(summary.sm_clock_mhz, 1700);
    EXPECT_EQ(summary.power_min_w, 600);
    EXPECT_EQ(summary.power_max_w, 650);
    EXPECT_EQ(summary.power_limit_w, 700);
    EXPECT_EQ(summary.events_text(), "sw-power-cap") << "the idle readings outside the stretches were kept";
}

// A reading during which the stretch changed (one ended, the next began) is dropped: with a
// stretch that changes at every question, nothing is kept and every column stays empty.
TEST(PowerSampler, DropsReadingsAcrossTwoStretches) {
    const SetReadings set = fake_readings();
    ASSERT_NE(set, nullptr) << dlerror();
    set(1500, 600000, 0, 0);
    std::atomic<long> asked{0};
    wb::PowerSampler sampler("0000:00:00.0", 1.0, WB_FAKE_NVML);
    sampler.start([&asked] { return asked++; });
    wait_ms(30);
    const wb::PowerSummary summary = sampler.stop();
    EXPECT_GT(asked.load(), 2) << "the sampler never asked which stretch ran";
    EXPECT_EQ(summary.samples, 0);
    for (const std::string& field : summary.fields()) EXPECT_EQ(field, "");
}

// Where NVML has no instantaneous power (only its average over about a second, longer than the
// timed runs), the power columns stay empty; the clock is still read.
TEST(PowerSampler, NoInstantaneousPowerLeavesPowerEmpty) {
    const SetReadings set = fake_readings();
    ASSERT_NE(set, nullptr) << dlerror();
    set(1600, 640000, 3, 0);  // 3: NVML_ERROR_NOT_SUPPORTED for the power field
    wb::PowerSampler sampler("0000:00:00.0", 1.0, WB_FAKE_NVML);
    sampler.start([] { return 7L; });
    wait_ms(20);
    const wb::PowerSummary summary = sampler.stop();
    ASSERT_GE(summary.samples, 1);
    EXPECT_EQ(summary.sm_clock_mhz, 1600);
    EXPECT_LT(summary.power_w, 0);
    EXPECT_LT(summary.power_max_w, 0);
    EXPECT_EQ(summary.fields()[3], "");
    EXPECT_EQ(summary.events_text(), "none");
}
// A scope that ends, by an exception or not, stops the sampling: the timer whose stretches it
// asks about may be gone after it.
TEST(PowerSampler, ScopeStopsSampling) {
    const SetReadings set = fake_readings();
    ASSERT_NE(set, nullptr) << dlerror();
    set(1600, 640000, 0, 0);
    wb::PowerSampler sampler("0000:00:00.0", 1.0, WB_FAKE_NVML);
    try {
        sampler.start([] { return 7L; });
        const wb::SamplingScope sampling(sampler);
        wait_ms(5);
        throw std::runtime_error("a failed measurement");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(sampler.stop().samples, 0) << "the sampler still ran after its scope";
}
#endif

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
