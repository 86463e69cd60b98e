/// @file shapes.h
/// @brief Lesson 05: the matrix shapes of --sizes, each checked against the lesson's limits.
#pragma once

#include "versions.h"

#include "wb/args.h"

#include <vector>

/// The shapes of --sizes (MxN), or `fallback` without it. Each has at most `max_columns` columns
/// and fits the host's memory twice (the matrix and the reference); a usage error otherwise.
std::vector<Shape> shapes_from(const wb::Options& options, const std::vector<Shape>& fallback, long max_columns);
