// hold-device-memory FRACTION PROGRAM [ARGS...]
// Allocates FRACTION (0..1) of the GPU memory that is free now, runs PROGRAM while holding it,
// and exits with PROGRAM's exit code. It stands for "another job already uses most of the GPU",
// to prove that the course's programs then end with a clear message instead of a crash.
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/exit_codes.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: hold-device-memory FRACTION PROGRAM [ARGS...]\n");
        return wb::kExitUsage;
    }
    const double fraction = std::atof(argv[1]);
    if (!(fraction > 0.0 && fraction < 1.0)) {
        std::fprintf(stderr, "error: FRACTION must be between 0 and 1, not '%s'\n", argv[1]);
        return wb::kExitUsage;
    }
    wb::require_gpu();
    std::size_t free_bytes = 0, total_bytes = 0;
    WB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t held = static_cast<std::size_t>(fraction * static_cast<double>(free_bytes));
    void* block = nullptr;
    WB_CUDA_CHECK(cudaMalloc(&block, held));
    std::printf("holding %.1f of %.1f GiB of device memory while %s runs\n", wb::gib(held), wb::gib(total_bytes),
                argv[2]);
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        execvp(argv[2], argv + 2);
        std::perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    WB_CUDA_CHECK(cudaFree(block));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
