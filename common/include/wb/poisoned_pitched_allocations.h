// Fresh device memory often comes back zeroed, so a program that forgets to zero-fill padding
// can pass by luck. A lesson that teaches zero-filled padding compiles its files with this
// header included first (nvcc --pre-include, see lessons/04-nonsquare-matmul/CMakeLists.txt):
// every cudaMallocPitch then fills the new block with 0xFF bytes, a NaN in every double, before
// the caller sees it. The call keeps its signature and its error codes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace wb::detail {

template <class T>
cudaError_t malloc_pitch_poisoned(T** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
    cudaError_t status = ::cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width, height);
    if (status == cudaSuccess) status = cudaMemset2D(*pointer, *pitch, 0xFF, width, height);
    return status;
}

}  // namespace wb::detail

#define cudaMallocPitch wb::detail::malloc_pitch_poisoned
