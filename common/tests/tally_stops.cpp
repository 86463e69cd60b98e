// A check whose second case is wrong and whose third would abort: with WB_STOP_AT_FIRST_WRONG=1 it
// must end at the wrong case, FAILED (exit 1), and never reach the third
// (common.tally-stops-at-first-wrong).
#include "wb/lesson.h"

#include <cstdlib>

int main() {
    wb::CheckTally tally("99-tally-stops");
    tally.record(true);
    tally.record(false);
    std::abort();  // the third case: reached only by a check that goes on
}
