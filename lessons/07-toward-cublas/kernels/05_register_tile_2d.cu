// Kernel 05 (the first exercise): 2D register tiling. A block of 256 threads
// computes a 128 x 128 tile of C; each thread owns an 8 x 8 block of it in 64 registers.
// Per step k a thread loads 8 values of A and 8 of B from shared memory into registers and
// performs their outer product: 64 multiply-adds for 16 shared-memory loads.
#include "kernels.h"
#include "wb/register_array.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 8;
constexpr int kThreadM = 8, kThreadN = 8;                              // outputs per thread
constexpr int kThreads = (kBlockM / kThreadM) * (kBlockN / kThreadN);  // 256

__global__ void register_tile_2d(const double* a, const double* b, double* c, int n) {
    __shared__ double a_tile_t[kBlockK][kBlockM];  // k-major: a_tile_t[k][row]
    __shared__ double b_tile[kBlockK][kBlockN];
    const int tid = threadIdx.x;
    const int thread_row = tid / (kBlockN / kThreadN) * kThreadM;  // first of my 8 rows
    const int thread_col = tid % (kBlockN / kThreadN) * kThreadN;  // first of my 8 columns
    const double* a_block = a + blockIdx.y * kBlockM * n;
    const double* b_block = b + blockIdx.x * kBlockN;

    // Registers whose index is checked: one past the end traps instead of passing unseen.
    wb::RegisterArray<wb::RegisterArray<double, kThreadN>, kThreadM> acc = {};
    wb::RegisterArray<double, kThreadM> a_reg;
    wb::RegisterArray<double, kThreadN> b_reg;
    for (int k0 = 0; k0 < n; k0 += kBlockK) {
        // 256 threads load 128 x 8 of A and 8 x 128 of B: four doubles each, coalesced.
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int index = tid + i * kThreads;
            a_tile_t[index % kBlockK][index / kBlockK] = a_block[(index / kBlockK) * n + k0 + index % kBlockK];
            b_tile[index / kBlockN][index % kBlockN] = b_block[(k0 + index / kBlockN) * n + index % kBlockN];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kBlockK; ++k) {
            // >>> TODO 1: this thread's 8 values of column k of the A tile into registers
            // The thread's 8 rows of C need 8 values of the A tile at step k: copy them into a_reg.
            // <<< TODO 1
            // >>> TODO 2: this thread's 8 values of row k of the B tile into registers
            // Its 8 columns need 8 values of the B tile at step k: copy them into b_reg.
            // <<< TODO 2
            // >>> TODO 3: the outer product a_reg x b_reg added to the 8 x 8 accumulators
            // Each of the 64 accumulators gains one product of a value of a_reg and one of b_reg.
            // Index registers only with compile-time constants (loops with constant bounds,
            // fully unrolled), or the compiler moves acc to slow local memory.
            (void)a_reg;
            (void)b_reg;
            // <<< TODO 3
        }
        __syncthreads();
    }
    double* c_block = c + blockIdx.y * kBlockM * n + blockIdx.x * kBlockN;
#pragma unroll
    for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < kThreadN; ++j) c_block[(thread_row + i) * n + thread_col + j] = acc[i][j];
}

}  // namespace

void launch_register_tile_2d(const double* a, const double* b, double* c, int n) {
    require_multiple("register_tile_2d", n, kBlockM);
    const dim3 grid(n / kBlockN, n / kBlockM);
    register_tile_2d<<<grid, kThreads>>>(a, b, c, n);
    WB_CHECK_LAUNCH("register_tile_2d");
}
