/// @file sm_limit.h
/// @brief WB_SM_LIMIT=N: a program runs on N of the GPU's SMs, as on a smaller GPU.
///
/// Students' GPUs have far fewer SMs than the reference H200's 132 (a T4 has 40, an RTX 3050
/// 20). With `WB_SM_LIMIT=N` in the environment, wb::require_gpu makes a CUDA green context of N
/// SMs current on the calling thread after it selects the device, and prints one line:
/// @code
///   note: WB_SM_LIMIT=16: running on 16 of 132 SMs (green context)
/// @endcode
/// Every runtime call of that thread then uses that context: kernels launched on the legacy
/// default stream, and on streams made afterwards with cudaStreamCreate, run on those SMs only
/// (cuStreamGetCtx_v2 in cuda.h: a stream, the NULL stream included, belongs to the green context
/// that was current when it was made or used); wb::apply_sm_limit checks it on each call with a
/// stream of its own and the legacy default stream (cuStreamGetGreenCtx), and ends the program
/// (exit 3) if the runtime's streams are not in the green context. Memory is the device's,
/// shared with the primary context.
///
/// What it does not change:
/// - the count is rounded up to the driver's granularity (at least 8 SMs, in steps of 8, on
///   compute capability 9.0; 4 and 2 on 8.x): the note prints the count granted;
/// - memory bandwidth, L2 and clocks stay the big GPU's: only the SMs are fewer;
/// - wb::DeviceInfo::sm_count and wb::multiprocessor_count() (wb/device.h) say the SMs granted,
///   but cudaGetDeviceProperties and cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)
///   still say the whole GPU's: a kernel whose grid is sized from those (a persistent or
///   grid-stride kernel) runs its blocks in several waves on the SMs granted, so the course
///   sizes such grids from wb::multiprocessor_count();
/// - CUDA graphs replayed through wb::Graph wait for the stream's earlier work and finish before
///   the next call (wb/cuda_graph.h says why): slower than a plain replay;
/// - other threads' CUDA calls use the device's primary context (all SMs): a green context is
///   current on one thread only;
/// - a program that calls cudaSetDevice itself after wb::require_gpu leaves the green context.
#pragma once

namespace wb {

/// A green context made for WB_SM_LIMIT (all zero where the limit is not set).
struct SmLimit {
    void* context = nullptr;  ///< the CUcontext of the green context
    void* green = nullptr;    ///< the green context itself (CUgreenCtx)
    int granted = 0;          ///< SMs the green context holds (N rounded up to the granularity)
    int total = 0;            ///< SMs of the whole GPU
};

/// The SM count WB_SM_LIMIT asks for, 0 where it is unset or empty. A value that is no whole
/// number of at least 1 ends the program with a one-line error and exit code 2 (kExitUsage),
/// before any GPU is looked for.
int requested_sm_limit();

/// With WB_SM_LIMIT set, makes the green context of that many SMs of `device` current on the
/// calling thread (made once per device and process; the note printed then) and returns it;
/// otherwise returns an empty SmLimit. A count above the GPU's SMs, or one the driver cannot cut,
/// ends the program with exit code 2; a driver without green contexts (older than CUDA 12.4) too.
/// Called by wb::require_gpu right after cudaSetDevice.
SmLimit apply_sm_limit(int device);

/// The SMs of WB_SM_LIMIT's green context for the current device when that context is current
/// on the calling thread, else 0 (no limit, or a thread that runs on the whole GPU).
int granted_sms_here();

}  // namespace wb
