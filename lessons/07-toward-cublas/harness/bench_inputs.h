/// @file bench_inputs.h
/// @brief Lesson 07 harness: what the benchmark multiplies (--inputs: random doubles, small
/// whole numbers, or both in turns), each kind's matrices on the GPU, and its CSV rows with the
/// inputs and power columns.
#pragma once

#include "wb/csv.h"
#include "wb/device_buffer.h"
#include "wb/args.h"
#include "wb/matmul_harness.h"
#include "wb/power_sampler.h"

#include <cstdint>
#include <string>
#include <vector>

/// What the benchmark multiplies (--inputs): random doubles, small whole numbers, or both in turns.
enum class Inputs { random, small_integers };
/// The CSV's inputs column: "random" or "small-integers".
const char* name_of(Inputs kind);
/// The kinds --inputs asks for (random by default); anything else is a usage error.
std::vector<Inputs> inputs_from(const wb::Options& options);
/// The inputs as the benchmark's header names them ("random in [-1, 1)" ...).
const char* describe(const std::vector<Inputs>& inputs);

/// One kind of inputs at one order: the matrices on the GPU, the reference, the rows' shared fields.
struct Operands {
    Operands(Inputs kind_, const wb::MatmulShape& shape, std::uint64_t seed)
        : kind(kind_),
          problem(kind == Inputs::random ? wb::random_problem<double>(shape, seed)
                                         : wb::small_integer_problem<double>(shape, seed)),
          a(problem.a),
          b(problem.b) {}
    Inputs kind;
    wb::MatmulProblem<double> problem;
    const wb::DeviceBuffer<double> a, b;
    wb::BenchRow shared;        ///< the common fields, with cuBLAS on these inputs as the ceiling
    double baseline_ms = -1.0;  ///< kernel 02 on these inputs
};

/// Writes a row with its inputs and power columns, and says what the sampler saw.
void write_row(wb::CsvWriter& csv, wb::BenchRow row, Inputs kind, const wb::PowerSummary& power);
