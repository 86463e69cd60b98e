/// @file cases.h
/// @brief Lesson 14 harness: the check's cases and the benchmark's rows for one input length.
#pragma once

#include "harness/problem.h"

#include "wb/lesson.h"

#include <cstdint>
#include <string>
#include <vector>

/// One contender of the --kernels table: who computes, and whether it compacts or scans.
struct Contender {
    Impl impl;
    bool compaction;
};

/// The --sizes lengths (one number per item), or `fallback`; a usage error when one needs more
/// host memory than this process may take (physical memory, or a lower ulimit -v).
std::vector<long long> lengths_from(const wb::Options& options, const std::vector<long long>& fallback);

/// Every chosen contender on random input of length n, integers and floats: exclusive and
/// inclusive scans, compactions keeping all, none and half. Prints one line per case; adds
/// each case to `tally`.
void check_length(long long n, std::uint64_t seed, const std::vector<wb::Version<Contender>>& contenders,
                  wb::CheckTally& tally);

/// The single-pass scan with tiles of 128 elements on 2^19 integers (4096 tiles), `repeats`
/// times: a look-back that reads a flag with another moment's value (a status word not stored
/// or loaded whole) gives a wrong sum now and then. Returns whether every run was right.
bool stress_look_back(int repeats, std::uint64_t seed);

/// The message-passing test (pass_messages), `repeats` launches of 32 pairs per multiprocessor:
/// a consumer that reads a sum without acquiring the flag that publishes it reads an older copy
/// now and then. Returns whether every sum was right; names the memory ordering otherwise.
bool stress_message_passing(int repeats, int multiprocessors);

/// The benchmark's rows for length n and element type `precision` ("int" or "float"): each
/// chosen contender checked once, then timed (median of `repeats` samples of back-to-back
/// runs), beside a device copy of the same bytes. Returns false when a contender was wrong.
bool bench_length(wb::CsvWriter& csv, long long n, const std::string& precision, std::uint64_t seed,
                  const std::vector<wb::Version<Contender>>& contenders, int repeats, const std::string& mark,
                  const std::string& device);
