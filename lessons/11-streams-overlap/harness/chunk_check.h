/// @file chunk_check.h
/// @brief Lesson 11: the check of chunk_of on its own, on the CPU (no GPU needed).
#pragma once

/// Runs chunk_of for several counts and chunk counts; prints the first chunk that is wrong, or
/// one line saying all are right. True when every chunk is right.
bool check_chunks();
