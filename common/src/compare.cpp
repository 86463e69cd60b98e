#include "wb/compare.h"

#include <cinttypes>

namespace wb {

std::string element_name(const char* name, long index, long cols) {
    char buffer[128];
    if (cols > 0) {
        std::snprintf(buffer, sizeof buffer, "%s[%ld][%ld]", name, index / cols, index % cols);
    } else {
        std::snprintf(buffer, sizeof buffer, "%s[%ld]", name, index);
    }
    return buffer;
}

void print_report(const CompareReport& report, const char* name, long cols, std::FILE* out) {
    if (report.ok()) {
        std::fprintf(out, "%s: all %ld elements correct (max abs error %.3g, max rel error %.3g)\n", name, report.total,
                     report.max_abs_error, report.max_rel_error);
        return;
    }
    if (report.total == 0) {
        std::fprintf(out, "%s: nothing was compared\n", name);
        return;
    }
    std::fprintf(out, "%s = %.10g (expected %.10g); %ld of %ld wrong; max abs error %.3g, max rel error %.3g\n",
                 element_name(name, report.first_wrong, cols).c_str(), report.first_got, report.first_expected,
                 report.wrong, report.total, report.max_abs_error, report.max_rel_error);
}

}  // namespace wb
