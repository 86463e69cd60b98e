// Lesson 07 harness: the benchmark's kinds of inputs and their rows (see bench_inputs.h).
#include "harness/bench_inputs.h"

#include "wb/args.h"

#include <cstdio>

const char* name_of(Inputs kind) { return kind == Inputs::random ? "random" : "small-integers"; }

std::vector<Inputs> inputs_from(const wb::Options& options) {
    const std::string inputs = options.get("inputs", "random");
    if (inputs == "random") return {Inputs::random};
    if (inputs == "small-integers") return {Inputs::small_integers};
    if (inputs == "both") return {Inputs::random, Inputs::small_integers};
    wb::usage_error("--inputs: '" + inputs + "' must be random, small-integers or both");
}

const char* describe(const std::vector<Inputs>& inputs) {
    return inputs.size() > 1             ? "random in [-1, 1) and whole numbers in [-2, 2], in turns"
           : inputs[0] == Inputs::random ? "random in [-1, 1)"
                                         : "whole numbers in [-2, 2]";
}

void write_row(wb::CsvWriter& csv, wb::BenchRow row, Inputs kind, const wb::PowerSummary& power) {
    row.extra = {name_of(kind)};
    for (const std::string& field : power.fields()) row.extra.push_back(field);
    csv.write(row);
    if (power.samples > 0) std::printf("  %-22s %s inputs: %s\n", "", name_of(kind), power.describe().c_str());
}
