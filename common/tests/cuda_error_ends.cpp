// A check and a benchmark whose CUDA call returns the error that --error names, as a wait for a
// faulting kernel would (no GPU needed): in a check a kernel fault is the exercise's failure
// (FAILED, exit 1); any other error, and every error of a benchmark, is a CUDA error (exit 3).
#include "wb/cuda_check.h"
#include "wb/exit_codes.h"
#include "wb/lesson.h"

#include <string>

namespace {

int return_the_error(const wb::Options& options) {
    const std::string name = options.get("error", "illegal-address");
    WB_CUDA_CHECK(name == "illegal-address" ? cudaErrorIllegalAddress : cudaErrorMemoryAllocation);
    return wb::kExitPass;
}

int bench_the_error(const wb::Options& options, wb::BenchContext&) { return return_the_error(options); }

const wb::LessonInfo kInfo{"99-cuda-error-ends",
                           "a CUDA call that returns the error --error names",
                           "",
                           {{"error", "NAME", "illegal-address (a kernel fault) or out-of-memory"}}};

}  // namespace

int main(int argc, char** argv) { return wb::lesson_main(argc, argv, kInfo, return_the_error, bench_the_error); }
