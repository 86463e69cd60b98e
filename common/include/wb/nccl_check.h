/// @file nccl_check.h
/// @brief Checking NCCL and MPI calls, for programs of several ranks (MPI processes) that
/// exchange data through NCCL. Needs the NCCL and MPI headers and libraries: only programs that
/// link them include it (lesson 08, through its nccl_for_lesson08 target), never the rest of the
/// harness, so the course builds where NCCL or MPI is missing.
#pragma once

#include <mpi.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>

namespace wb {

/// Prints the failed NCCL call and aborts every rank (one rank exiting alone would leave the
/// others waiting for it forever).
inline void nccl_check(ncclResult_t result, const char* call, const char* file, int line) {
    if (result == ncclSuccess) return;
    std::fprintf(stderr, "NCCL error at %s:%d\n  %s\n  -> %s\n", file, line, call, ncclGetErrorString(result));
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/// The same for MPI calls.
inline void mpi_check(int result, const char* call, const char* file, int line) {
    if (result == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(result, text, &length);
    std::fprintf(stderr, "MPI error at %s:%d\n  %s\n  -> %s\n", file, line, call, text);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

}  // namespace wb

/// Checks an NCCL call; on failure prints where and why and aborts all ranks.
#define WB_NCCL_CHECK(call) ::wb::nccl_check((call), #call, __FILE__, __LINE__)
/// Checks an MPI call; on failure prints where and why and aborts all ranks.
#define WB_MPI_CHECK(call) ::wb::mpi_check((call), #call, __FILE__, __LINE__)
