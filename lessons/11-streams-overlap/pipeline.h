/// @file pipeline.h
/// @brief Lesson 11: a job split into chunks, each copied in, transformed and copied out on one
/// of several streams, so that copies and kernels of different chunks overlap.
#pragma once

#include <cuda_runtime.h>

/// The job: y[i] = transform(x[i]) for i = 0 .. count-1. host_x and host_y are pinned host
/// memory; dev_x and dev_y are device buffers of `count` doubles.
struct Job {
    const double* host_x;
    double* host_y;
    double* dev_x;
    double* dev_y;
    long long count;
    int work;  ///< multiply-adds per element in the kernel (sets how long the kernel takes)
};

/// Elements begin .. end-1 of the job (end = begin: an empty chunk).
struct ChunkRange {
    long long begin;
    long long end;
};

/// Chunk `chunk` (0 .. chunks-1) of `chunks` nearly equal, consecutive chunks that together
/// cover 0 .. count-1 exactly once. (Exercise, TODO 1.)
ChunkRange chunk_of(long long count, int chunk, int chunks);

/// Runs the job in `chunks` chunks, chunk c on streams[c % stream_count]: its x copied in, the
/// kernel on it, its y copied back. Returns when host_y holds every result. (Exercise, TODO 2-3.)
void run_pipelined(const Job& job, const cudaStream_t* streams, int stream_count, int chunks);

/// Enqueues the kernel y[i] = transform(x[i]) on `count` elements on `stream` (given).
void launch_transform(const double* dev_x, double* dev_y, long long count, int work, cudaStream_t stream);

/// The same transform on the CPU, with the same operations in the same order: the reference.
double transform_on_cpu(double x, int work);

/// Enqueues on `stream` a kernel that only waits about `ms` milliseconds: the check runs it
/// first on every stream, so that a missing wait at the end reads unfinished results.
void hold_stream(cudaStream_t stream, double ms);
