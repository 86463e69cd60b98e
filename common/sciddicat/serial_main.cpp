// SciddicaT on one CPU core: the reference program of the SciddicaT lesson, and the terrain
// generator. It is that lesson's program NN-sciddicat-serial (its build names it, lesson_name.h):
//   NN-sciddicat-serial --input PREFIX --steps N --output FILE [--expect-max M --expect-cells C]
//   NN-sciddicat-serial --data-dir DIR --steps N ...   (the real grid, DIR/sciddicat/tessina_*)
//   NN-sciddicat-serial --generate PREFIX --rows R --cols C --seed S
#include "sciddicat/check.h"
#include "sciddicat/grid_io.h"
#include "sciddicat/model.h"
#include "sciddicat/serial.h"
#include "sciddicat/terrain.h"

#include "wb/lesson_name.h"
#include "wb/workbook.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>

// The fingerprint as 16 hexadecimal digits.
static std::string fingerprint_text(std::uint64_t fingerprint) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fingerprint));
    return text;
}

// The folder of the real grid: --data-dir, as the lessons' programs name it, or --tessina, its
// former name here, kept so that older commands still run.
static std::string real_grid_folder(const wb::Options& options) {
    if (options.has("data-dir") && options.has("tessina"))
        wb::usage_error("--tessina is the former name of --data-dir: give one of them");
    if (!options.has("tessina")) return options.get("data-dir", "");
    std::fprintf(stderr, "note: --tessina is now --data-dir (the lessons' name for the same folder)\n");
    return options.get("tessina", "");
}

int main(int argc, char** argv) {
    wb::LessonInfo info{
        wb::program_name(),
        "SciddicaT serial reference and synthetic terrain generator",
        "",
        {{"input", "PREFIX", "grid PREFIX_header.txt/_dem.txt/_source.txt (default: the committed synthetic grid)"},
         {"data-dir", "DIR", "folder holding sciddicat/tessina_* (the real grid); skipped (77) when absent"},
         {"tessina", "DIR", "the former name of --data-dir (still accepted, with a notice)"},
         wb::integer_option("steps", "N", "steps to simulate", sciddicat::kReferenceSteps, 0, 10000000),
         {"output", "FILE", "final thickness grid (a header and a .asc file are written beside it)"},
         wb::number_option("expect-max", "M", "fail unless the maximum thickness printed at 6 decimals is M", 0.0, 1e6),
         wb::integer_option("expect-cells", "C", "fail unless C cells have thickness > 0 at 6 decimals", 0, 1L << 40),
         {"expect-fingerprint", "HEX",
          "fail unless the final thickness has this bit fingerprint (printed by every run)"},
         {"generate", "PREFIX", "write a synthetic terrain to PREFIX_{header,dem,source}.txt and exit"},
         wb::integer_option("rows", "R", "--generate: rows", 100, 3, 100000),
         wb::integer_option("cols", "C", "--generate: columns", 80, 3, 100000)}};
    info.accepts_block = false;
    info.no_block_reason = "runs on the CPU: there are no thread blocks";
    info.benchmarks = false;  // the SciddicaT lessons time it as their baseline
    const wb::Options options = wb::parse_args(argc, argv, info);
    try {
        if (options.has("generate")) {
            const int rows = static_cast<int>(options.integer("rows"));
            const int cols = static_cast<int>(options.integer("cols"));
            const std::string prefix = options.get("generate", "");
            sciddicat::require_memory_for_grid(rows, cols, "--generate");
            sciddicat::write_terrain(prefix, sciddicat::make_synthetic_terrain(rows, cols, options.seed));
            std::printf("synthetic terrain %d x %d (seed %llu) written to %s_{header,dem,source}.txt\n", rows, cols,
                        static_cast<unsigned long long>(options.seed), prefix.c_str());
            return wb::kExitPass;
        }
        std::string input = options.get("input", SCIDDICAT_DEFAULT_INPUT);
        const std::string data_dir = real_grid_folder(options);
        if (options.has("data-dir") || options.has("tessina")) {
            input = data_dir + "/sciddicat/tessina";
            if (sciddicat::tessina_prefix(data_dir).empty()) {
                std::printf("SKIP: the tessina grid is not available (%s_*.txt)\n", input.c_str());
                return wb::kExitNoGpu;
            }
        }
        const int steps = static_cast<int>(options.integer("steps"));
        const double expected_max = options.number("expect-max", 0.0);
        const std::string output = options.get("output", "");
        const std::string expected_fingerprint = options.get("expect-fingerprint", "");
        if (options.has("expect-fingerprint") &&
            (expected_fingerprint.size() != 16 ||
             expected_fingerprint.find_first_not_of("0123456789abcdef") != std::string::npos))
            wb::usage_error("--expect-fingerprint: '" + expected_fingerprint + "' is not 16 hexadecimal digits");
        // A bad output path is found now, not after the whole simulation.
        if (options.has("output")) sciddicat::require_writable(output);
        const sciddicat::Terrain terrain = sciddicat::read_terrain(input);
        const int rows = terrain.header.rows, cols = terrain.header.cols;
        std::vector<double> sz, sh, sf;
        sciddicat::initial_state(terrain, sz, sh);
        wb::WallTimer timer;
        sciddicat::serial_run(rows, cols, sz.data(), sh.data(), sf, steps);
        const double seconds = timer.elapsed_ms() / 1000.0;
        double max = 0.0, volume = 0.0;
        long wet = 0;
        for (double h : sh) {
            max = std::max(max, h);
            volume += h;
            if (h >= 0.0000005) ++wet;  // > 0 when printed with 6 decimals
        }
        const std::string fingerprint = fingerprint_text(sciddicat::bit_fingerprint(sh));
        std::printf("%s %d x %d, %d steps in %.2f s: max thickness %.6f m, %ld cells > 0, volume %.9g, "
                    "fingerprint %s\n",
                    terrain.name.c_str(), rows, cols, steps, seconds, max, wet, volume, fingerprint.c_str());
        if (options.has("output")) {
            const std::string header = sciddicat::write_result(output, terrain.header, sh);
            std::printf("final thickness written to %s (header %s)\n", output.c_str(), header.c_str());
        }
        bool ok = true;
        if (options.has("expect-max")) {
            char printed[64];
            std::snprintf(printed, sizeof printed, "%.6f", max);
            const bool match = std::fabs(std::atof(printed) - expected_max) < 5e-7;
            std::printf("max thickness %s, expected %s: %s\n", printed, options.get("expect-max", "").c_str(),
                        match ? "ok" : "WRONG");
            ok = ok && match;
        }
        if (options.has("expect-cells")) {
            const long expected = options.integer("expect-cells");
            std::printf("cells > 0: %ld, expected %ld: %s\n", wet, expected, wet == expected ? "ok" : "WRONG");
            ok = ok && wet == expected;
        }
        if (options.has("expect-fingerprint")) {
            // The exact bits: a change of one rounding anywhere in the model changes them.
            const bool match = expected_fingerprint == fingerprint;
            std::printf("fingerprint %s, expected %s: %s\n", fingerprint.c_str(), expected_fingerprint.c_str(),
                        match ? "ok" : "WRONG (the serial model's results changed)");
            ok = ok && match;
        }
        return ok ? wb::kExitPass : wb::kExitCheckFailed;
    } catch (const sciddicat::InputError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return wb::kExitUsage;
    }
}
