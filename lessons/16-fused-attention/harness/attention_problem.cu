#include "harness/attention_problem.h"

#include "wb/compare.h"
#include "wb/kernel_watchdog.h"
#include "wb/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

std::string AttentionShape::str() const {
    return "B" + std::to_string(batch) + " H" + std::to_string(heads) + " S" + std::to_string(seq) + " d" +
           std::to_string(head_dim) + (causal ? " causal" : "");
}

bool large_logit_row(int query) { return query % 7 == 3; }

namespace {

std::vector<float> random_bf16_values(long count, std::uint64_t seed) {
    std::vector<float> values(count);
    wb::fill_random(values, seed);
    for (float& value : values) value = __bfloat162float(__float2bfloat16(value));
    return values;
}

std::vector<bf16> to_bf16(const std::vector<float>& values) {
    std::vector<bf16> converted(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) converted[i] = __float2bfloat16(values[i]);
    return converted;
}

// The tolerance, per output row i. The inputs are bf16 values, which the reference uses exactly,
// so every difference comes from the version's arithmetic:
//  - a score s_ij is a sum of d exact products accumulated in FP32 (tensor cores may truncate:
//    u = 2^-23 per addition), off by at most gamma_d * scale * sum_k |q_ik k_jk|; its conversion to
//    log2 units and exp2 add a few units of 2^-23 of |s|, and exp2's own error (2^-22) comes again
//    with every rescale of the running max (once per tile). An error e in every exponent changes
//    each weight p_ij / l_i by at most 2e;
//  - each weight is rounded to bf16 (2^-8) before it multiplies V;
//  - the sums over the keys (P V and the sum of weights) are FP32 sums of seq terms: gamma_seq.
// Every term is relative to sigma_id = sum_j w_ij |v_jd| (w the exact weights), the largest O_id
// can be; the bound is twice their sum, times sigma_id.
double row_relative_error(double largest_abs_dot, double scale, int head_dim, int seq) {
    const double u = std::ldexp(1.0, -23);
    auto gamma = [u](double n) { return n * u / (1 - n * u); };
    const double tiles = std::ceil(seq / 64.0);
    const double exponent = gamma(head_dim) * scale * largest_abs_dot + 4 * u * scale * largest_abs_dot +
                            std::ldexp(1.0, -22) * (tiles + 1);
    return 2.0 * (std::ldexp(1.0, -8) + 2 * exponent + gamma(seq));
}

// One row of the reference: O_i and its bounds, from query i of one head.
void reference_row(const AttentionProblem& problem, long head, int i, Reference& out) {
    const AttentionShape& s = problem.shape;
    const int d = s.head_dim, keys = s.causal ? i + 1 : s.seq;
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    const float* q = &problem.q[(head * s.seq + i) * d];
    std::vector<double> score(keys);
    double largest = -INFINITY, largest_abs_dot = 0;
    for (int j = 0; j < keys; ++j) {
        const float* k = &problem.k[(head * s.seq + j) * d];
        double dot = 0, abs_dot = 0;
        for (int c = 0; c < d; ++c) dot += static_cast<double>(q[c]) * k[c], abs_dot += std::fabs(q[c] * k[c]);
        score[j] = dot * scale;
        largest = std::max(largest, score[j]);
        largest_abs_dot = std::max(largest_abs_dot, abs_dot);
    }
    double sum = 0;
    for (double& value : score) sum += (value = std::exp(value - largest));
    const double relative = row_relative_error(largest_abs_dot, scale, d, s.seq);
    double* o = &out.o[(head * s.seq + i) * d];
    double* bound = &out.bound[(head * s.seq + i) * d];
    for (int c = 0; c < d; ++c) {
        double value = 0, magnitude = 0;
        for (int j = 0; j < keys; ++j) {
            const double v = problem.v[(head * s.seq + j) * d + c];
            value += score[j] * v, magnitude += score[j] * std::fabs(v);
        }
        o[c] = value / sum;
        bound[c] = relative * magnitude / sum;
    }
}

}  // namespace

AttentionProblem make_problem(const AttentionShape& shape, std::uint64_t seed) {
    AttentionProblem problem{shape, random_bf16_values(shape.elements(), seed),
                             random_bf16_values(shape.elements(), seed + 1),
                             random_bf16_values(shape.elements(), seed + 2)};
    const int d = shape.head_dim;
    for (long head = 0; head < shape.problems(); ++head)
        for (int i = 0; i < shape.seq; ++i)
            if (large_logit_row(i))
                for (int c = 0; c < d; ++c)  // times 64: exact in bf16
                    problem.q[(head * shape.seq + i) * d + c] = 64.0f * problem.k[(head * shape.seq + i) * d + c];
    return problem;
}

Reference reference_attention(const AttentionProblem& problem) {
    const AttentionShape& s = problem.shape;
    Reference reference{std::vector<double>(s.elements()), std::vector<double>(s.elements())};
    const long rows = static_cast<long>(s.problems()) * s.seq;
    const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w)
        threads.emplace_back([&, w] {
            for (long row = w; row < rows; row += workers)
                reference_row(problem, row / s.seq, static_cast<int>(row % s.seq), reference);
        });
    for (std::thread& thread : threads) thread.join();
    return reference;
}

DeviceAttention::DeviceAttention(const AttentionProblem& problem)
    : q(to_bf16(problem.q)), k(to_bf16(problem.k)), v(to_bf16(problem.v)), o(problem.shape.elements()) {
    const AttentionShape& s = problem.shape;
    args = {q.get(),    k.get(),      v.get(),
            o.get(),    s.problems(), s.seq,
            s.head_dim, s.causal,     static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.head_dim)))};
}

std::size_t device_bytes(const AttentionShape& shape) {
    return static_cast<std::size_t>(shape.elements()) * (3 * sizeof(bf16) + sizeof(float));
}

namespace {

// The likely cause of a wrong row (O_i of one head), from what the row holds.
std::string likely_cause(const AttentionShape& shape, int query, const float* got, const double* expected) {
    const int d = shape.head_dim;
    bool all_zero = true, finite = true, same_ratio = true;
    const double ratio = got[0] / expected[0];
    for (int c = 0; c < d; ++c) {
        all_zero = all_zero && got[c] == 0.0f;
        finite = finite && std::isfinite(got[c]);
        same_ratio = same_ratio && std::fabs(got[c] / expected[c] - ratio) < 1e-3 * std::fabs(ratio);
    }
    if (all_zero) return "the row holds nothing: likely no tile of keys is visited, or P V is never added";
    if (!finite && large_logit_row(query))
        return "not finite where one score is near 170: likely exp of a score without the running max "
               "subtracted (it overflows a float)";
    if (same_ratio)
        return "the row is the expected one times " + std::to_string(ratio) +
               ": likely the final division by the row's sum is missing or uses a part of the sum";
    if (shape.causal && query < 64)
        return "a causal row of the first tile: likely the mask lets it see keys after its query";
    if (large_logit_row(query))
        return "one key's score is far above the others: likely the accumulator is not rescaled when the "
               "running max grows";
    if (query / 64 == (shape.seq - 1) / 64 && shape.seq % 64 != 0)
        return "a row of the last, partial tile: likely keys past the end of the sequence are not masked";
    return "likely the accumulator (or the sum) is not rescaled when the running max grows, or the causal "
           "mask or tile skip is wrong";
}

}  // namespace

bool check_version(const std::string& name, const Run& run, DeviceAttention& device, const AttentionProblem& problem,
                   const Reference& reference) {
    device.o.poison();
    run(device.args);
    wb::wait_for_kernel(name, wb::check_kernel_limit_s(), wb::general_kernel_text());
    const std::vector<float> o = device.o.to_host();
    const wb::CompareReport report = wb::compare(o.data(), reference.o.data(), static_cast<long>(o.size()),
                                                 wb::Tolerance{0.0, 1.0}, reference.bound.data());
    std::printf("  %-12s ", name.c_str());
    if (report.ok()) {
        wb::print_report(report, "O", problem.shape.head_dim);
        return true;
    }
    // One line (scripts/progress quotes the first with "(expected"): the element, the count, the row
    // and the likely cause.
    const long row = report.first_wrong / problem.shape.head_dim;
    const int query = static_cast<int>(row % problem.shape.seq);
    const long start = row * problem.shape.head_dim;
    std::printf("%s = %.7g (expected %.7g); %ld of %ld wrong; row %ld is query %d of head %ld: %s\n",
                wb::element_name("O", report.first_wrong, problem.shape.head_dim).c_str(), report.first_got,
                report.first_expected, report.wrong, report.total, row, query, row / problem.shape.seq,
                likely_cause(problem.shape, query, &o[start], &reference.o[start]).c_str());
    return false;
}
