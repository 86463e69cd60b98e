#include "harness/unfused.h"

#include "wb/ceilings.h"
#include "wb/cuda_check.h"

#include <cmath>

namespace {

constexpr int kRowsPerBlock = 8;  // one warp per row

__device__ float warp_max(float x) {
    for (int offset = 16; offset > 0; offset /= 2) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
    return x;
}
__device__ float warp_sum(float x) {
    for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
    return x;
}

// P = softmax(scale * S) along each row, in three passes over the row: its max, the sum of the
// exponentials, then the probabilities. With causal, keys after the row's query get 0.
__global__ void softmax_rows(const float* scores, bf16* probabilities, long rows, int seq, bool causal, float scale) {
    const long row = static_cast<long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
    if (row >= rows) return;
    const int lane = threadIdx.x % 32, keys = causal ? static_cast<int>(row % seq) + 1 : seq;
    const float* s = scores + row * seq;
    bf16* p = probabilities + row * seq;
    float largest = -INFINITY;
    for (int j = lane; j < keys; j += 32) largest = fmaxf(largest, s[j]);
    largest = warp_max(largest);
    float sum = 0.0f;
    for (int j = lane; j < keys; j += 32) sum += expf(scale * (s[j] - largest));
    const float inverse = 1.0f / warp_sum(sum);
    for (int j = lane; j < seq; j += 32)
        p[j] = __float2bfloat16(j < keys ? expf(scale * (s[j] - largest)) * inverse : 0.0f);
}

}  // namespace

std::size_t UnfusedAttention::workspace_bytes(int heads, int seq) {
    return static_cast<std::size_t>(heads) * seq * seq * (sizeof(float) + sizeof(bf16));
}

void UnfusedAttention::run(const AttentionArgs& args) {
    const std::size_t scores = static_cast<std::size_t>(args.heads) * args.seq * args.seq;
    if (scores_.count() < scores) {
        scores_ = wb::DeviceBuffer<float>(scores);
        probabilities_ = wb::DeviceBuffer<bf16>(scores);
        // compute-sanitizer's initcheck does not count cuBLASLt's writes of S as initializing it:
        // it flagged every read of S in softmax_rows while O came out right. Zeroed once here
        // (cuBLASLt overwrites it on every run), S leaves the tool's report to the course's kernels.
        WB_CUDA_CHECK(cudaMemset(scores_.get(), 0, scores_.bytes()));
    }
    // S_h (seq x seq) = Q_h K_h^T: K_h is the transposed operand, seq x d.
    wb::cublas_gemm_bf16_batched(args.seq, args.seq, args.head_dim, args.q, args.k, true, scores_.get(), args.heads);
    const long rows = static_cast<long>(args.heads) * args.seq;
    const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
    softmax_rows<<<blocks, 32 * kRowsPerBlock>>>(scores_.get(), probabilities_.get(), rows, args.seq, args.causal,
                                                 args.scale);
    WB_CHECK_LAUNCH("softmax_rows");
    // O_h (seq x d) = P_h V_h.
    wb::cublas_gemm_bf16_batched(args.seq, args.head_dim, args.seq, probabilities_.get(), args.v, false, args.o,
                                 args.heads);
}
