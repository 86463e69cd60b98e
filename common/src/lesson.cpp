#include "wb/lesson.h"

#include "wb/exit_codes.h"

#include <cstdio>

namespace wb {

int lesson_main(int argc, char** argv, const LessonInfo& info, LessonStep check, LessonStep bench) {
    // A program without a benchmark neither lists nor accepts --bench, --repeat, --out, --full.
    LessonInfo effective = info;
    if (!bench) effective.benchmarks = false;
    const Options options = parse_args(argc, argv, effective);
    const LessonStep step = options.mode == Options::Mode::check ? check : bench;
    if (!step) usage_error(info.name + " has no " + (check ? "--bench" : "--check") + " mode");
    try {
        return step(options);
    } catch (const InputError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
}

int CheckTally::finish(const std::string& passed_what) const {
    if (cases_ == 0) {
        std::printf("FAILED: no case was checked.\n");
        return kExitCheckFailed;
    }
    if (failed_) {
        // "02-naive-matmul" -> "lesson 02"
        const std::string number = lesson_.substr(0, lesson_.find('-'));
        std::printf("FAILED: %ld of %ld cases wrong. See the hints on the lesson %s page.\n", failed_, cases_,
                    number.c_str());
        return kExitCheckFailed;
    }
    std::printf("PASSED: %s.\n", passed_what.c_str());
    return kExitPass;
}

}  // namespace wb
