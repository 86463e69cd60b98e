#!/usr/bin/env python3
"""torch_compare.py [--seq S] [--heads H] [--head-dim D] [--causal]: your kernel, called from PyTorch.

Compiles flash_forward.cu (the exercise beside this folder, or the file --source names) into a
Python module with torch.utils.cpp_extension.load_inline, calls launch_flash_forward on bf16
torch tensors, and compares O with torch.nn.functional.scaled_dot_product_attention. The
reference is SDPA in FP32 on the same bf16 inputs; the kernel passes when its largest error is
at most twice that of SDPA's own bf16 run plus 1e-3, the rule FlashAttention's tests use (both
round P to bf16 before P V; this kernel keeps O in FP32). Prints PASSED or FAILED, exits 0 or 1;
77 (skipped) where PyTorch or a CUDA GPU is absent.
"""
import argparse
import hashlib
import os
import sys

BF16_OFF = ["HALF_OPERATORS", "HALF_CONVERSIONS", "HALF2_OPERATORS", "BFLOAT16_CONVERSIONS",
            "BFLOAT16_OPERATORS", "BFLOAT162_OPERATORS"]
HERE = os.path.dirname(os.path.abspath(__file__))
LESSON = os.path.dirname(HERE)
COMMON_INCLUDE = os.path.join(LESSON, "..", "..", "common", "include")

# The binding: AttentionArgs from torch tensors, and the two checks of wb/cuda_check.h that the
# kernel's file calls, raising a Python exception instead of ending the process.
BINDING = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cmath>
#include <stdexcept>
#include <string>
#include "attention.h"

namespace wb {
[[noreturn]] void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
    throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                             cudaGetErrorString(err));
}
void check_launch(const char* kernel_name, const char*, int) {
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) throw std::runtime_error(std::string(kernel_name) + ": " + cudaGetErrorString(err));
}
}  // namespace wb

// q, k, v: bf16 [batch, heads, seq, head_dim], contiguous on the GPU; returns O in FP32.
torch::Tensor flash_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v, bool causal) {
    TORCH_CHECK(q.is_cuda() && q.scalar_type() == torch::kBFloat16 && q.dim() == 4 && q.is_contiguous(),
                "q: a contiguous bf16 CUDA tensor [batch, heads, seq, head_dim]");
    TORCH_CHECK(k.sizes() == q.sizes() && v.sizes() == q.sizes() && k.is_contiguous() && v.is_contiguous(),
                "k and v: the shape of q, contiguous");
    torch::Tensor o = torch::empty(q.sizes(), q.options().dtype(torch::kFloat32));
    AttentionArgs args;
    args.q = reinterpret_cast<const bf16*>(q.data_ptr());
    args.k = reinterpret_cast<const bf16*>(k.data_ptr());
    args.v = reinterpret_cast<const bf16*>(v.data_ptr());
    args.o = o.data_ptr<float>();
    args.heads = static_cast<int>(q.size(0) * q.size(1));
    args.seq = static_cast<int>(q.size(2));
    args.head_dim = static_cast<int>(q.size(3));
    args.causal = causal;
    args.scale = 1.0f / std::sqrt(static_cast<float>(args.head_dim));
    launch_flash_forward(args);  // on the default stream, PyTorch's current one unless changed
    return o;
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.path.join(LESSON, "flash_forward.cu"), help="the kernel's file")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--seq", type=int, default=1000, help="no multiple of a tile: the tail is checked too")
    parser.add_argument("--head-dim", type=int, default=64, choices=[64, 128])
    parser.add_argument("--causal", action="store_true")
    options = parser.parse_args()
    try:
        import torch
        from torch.nn.attention import SDPBackend, sdpa_kernel
        from torch.utils.cpp_extension import load_inline
    except ImportError:
        print("SKIP: python3 cannot import torch")
        return 77
    if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] < 8:
        print("SKIP: PyTorch sees no CUDA GPU of compute capability 8.0 or later")
        return 77

    with open(options.source, encoding="utf-8") as f:
        kernel_source = f.read()
    # One module a file (the exercise's and the solution's builds are cached apart); PyTorch
    # compiles for the GPU it sees (TORCH_CUDA_ARCH_LIST unset). Its flags turn off bf16's
    # conversions and operators, which the kernel uses: -U turns them back on (as FlashAttention's
    # own build does).
    name = "flash_forward_" + hashlib.sha1(os.path.abspath(options.source).encode()).hexdigest()[:8]
    flags = ["-O3"] + [f"-U__CUDA_NO_{what}__" for what in BF16_OFF]
    module = load_inline(name=name, cpp_sources=BINDING, cuda_sources=kernel_source, functions=["flash_forward"],
                         extra_include_paths=[LESSON, COMMON_INCLUDE], extra_cuda_cflags=flags)

    torch.manual_seed(0)
    shape = (options.batch, options.heads, options.seq, options.head_dim)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    with sdpa_kernel(SDPBackend.MATH):  # plain FP32 products (TF32 is off by default)
        reference = sdpa(q.float(), k.float(), v.float(), is_causal=options.causal)
    fused = module.flash_forward(q, k, v, options.causal)
    library = sdpa(q, k, v, is_causal=options.causal)
    torch.cuda.synchronize()
    error = (fused - reference).abs().max().item()
    library_error = (library.float() - reference).abs().max().item()
    tolerance = 2 * library_error + 1e-3
    print(f"B={shape[0]} H={shape[1]} S={shape[2]} d={shape[3]} causal={int(options.causal)}: "
          f"max |O - O_fp32| {error:.3g}, SDPA bf16 {library_error:.3g}, tolerance {tolerance:.3g}")
    if error <= tolerance:  # a NaN fails too
        print("PASSED: flash_forward agrees with scaled_dot_product_attention")
        return 0
    print("FAILED: flash_forward is further from the FP32 reference than the tolerance")
    return 1


if __name__ == "__main__":
    sys.exit(main())
