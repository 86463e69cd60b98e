/// @file part_checks.h
/// @brief Lesson 14 harness: exercise parts 1, 2 and 5 checked alone, on the device.
#pragma once

#include <cstdint>

/// Part 1: warp_inclusive_scan on every warp of 32 values, integers and floats. Prints one
/// line per case; returns whether all were right.
bool check_warp_scans(std::uint64_t seed);

/// Part 2: block_exclusive_scan, with its block totals, in blocks of 32, 96, 256 and 1024
/// threads, each block called twice in a row. Prints one line per case.
bool check_block_scans(std::uint64_t seed);

/// Part 5: publish and wait_for_status on 32 status words (read at once, and published late by
/// another warp), look_back over statuses the harness prepares (the windows' edges, inclusive
/// prefixes near and far, predecessors published late) and tile_prefix (its aggregate published
/// before it looks back, its prefix, its last status), integers and floats. One line per case.
bool check_look_back_parts(std::uint64_t seed);
