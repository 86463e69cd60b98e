#!/usr/bin/env python3
"""verify-wgmma-fence.py --nvcc NVCC --arch SM [-I DIR ...] [--replace FROM TO] SOURCE.cu:
the wgmma instructions of SOURCE are fenced by its own code, not by the compiler.

A wgmma reads and writes its accumulator registers asynchronously. The PTX ISA asks for a
wgmma.fence before the first wgmma of a warpgroup, and between any other access to those
registers and the next wgmma that uses them ("Warpgroup Level Matrix Multiply-Accumulate
Instructions", wgmma.fence). Where the PTX lacks one, ptxas adds it itself and says so (message
C7519, "warpgroup.arrive is injected ... to allow use of registers in GMMA"): the program then
runs right, and no result can show the missing fence. This check compiles SOURCE to a cubin
(NVCC -cubin -O3 -arch=sm_SM, which runs ptxas; with --replace, a copy of SOURCE with the text
FROM replaced by TO: a planted bug) and reads ptxas's messages. Exit 0 with "OK: ..." when the
PTX issues wgmma instructions and ptxas added no fence; 1 with one line "FAILED: ..." per function
where it added one (also when SOURCE issues no wgmma at all); 2 on bad usage or when FROM is not
in SOURCE; 3 when nvcc fails.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_reading import compiled, parse_arguments, readable  # noqa: E402  (after the path to it)

# ptxas's note that it added a fence the PTX lacked: group 1 is the function's mangled name.
INJECTED = re.compile(r"\(C7519\) warpgroup\.arrive is injected\b.*? in function '([\w$]+)'")
WGMMA = re.compile(r"^\s*(?:@!?%\w+\s+)?wgmma\.mma_async\b", re.M)


def main():
    args = parse_arguments(__doc__)  # --help prints the docstring above and exits 0
    name = os.path.basename(args.source)
    ptx, _ = compiled(args, "ptx", "wgmma-fence-")
    if not WGMMA.search(ptx):
        print(f"FAILED: {name}: no wgmma instruction (wgmma.mma_async) at all")
        return 1
    _, messages = compiled(args, "cubin", "wgmma-fence-")
    unfenced = sorted(set(INJECTED.findall(messages)))
    for function in unfenced:
        print(f"FAILED: {name}: {readable(function)}: the compiler had to add a wgmma fence (ptxas C7519): a "
              "wgmma uses accumulator registers that other instructions touched since the last wgmma.fence "
              "(wgmma_fence() comes before the first wgmma of each group)")
    if unfenced:
        return 1
    print(f"OK: {name}: every wgmma is fenced by the code itself (ptxas added no wgmma fence)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
