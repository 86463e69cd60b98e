/// @file timeline.h
/// @brief Lesson 11: a timeline of one run of your pipeline, from a CUDA event before and after
/// each copy in, kernel and copy out it enqueues (harness/timeline_hooks.h).
#pragma once

#include "pipeline.h"

#include "wb/timeline.h"

#include <string>

/// Runs run_pipelined once more with an event around each operation, every time measured from
/// one start event that all streams wait for; prints the measured span and the ideal, and writes
/// the timeline to `file` (wb::TimelineFile, with the ideal of wb::ideal_pipeline_ms).
void write_timeline(wb::TimelineFile& file, const std::string& command, const std::string& device, const Job& job,
                    const cudaStream_t* streams, int stream_count, int chunks);
