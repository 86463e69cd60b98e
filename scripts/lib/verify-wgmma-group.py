#!/usr/bin/env python3
"""verify-wgmma-group.py --nvcc NVCC --arch SM [-I DIR ...] [--replace FROM TO] SOURCE.cu:
the wgmma instructions of SOURCE are fenced and committed by its own code.

A wgmma reads and writes its accumulator registers asynchronously. The PTX ISA ("Warpgroup Level
Matrix Multiply-Accumulate Instructions") asks for two things that no result can show:
- a wgmma.fence before the first wgmma of a warpgroup, and between any other access to the
  accumulator registers and the next wgmma that uses them. Where the PTX lacks one, ptxas adds it
  itself and says so (message C7519, "warpgroup.arrive is injected ... to allow use of registers
  in GMMA"), and the program runs right;
- a wgmma.commit_group that puts the wgmmas into a group before wgmma.wait_group waits: the wait
  covers committed groups only, and reading the accumulators before a wait on the group of the
  wgmma that writes them is undefined. Without the commit the runs on an H200 still came out
  right.
This check compiles SOURCE (NVCC -ptx, then -cubin, which runs ptxas, -O3 -arch=sm_SM; with
--replace, a copy of SOURCE with the text FROM replaced by TO: a planted bug), follows each
function's PTX in order (a wgmma.mma_async leaves the group open until a wgmma.commit_group) and
reads ptxas's messages. Exit 0 with "OK: ..." when the PTX issues wgmma instructions, commits each
before any wait and at the function's end, and ptxas added no fence; 1 with one line
"FAILED: ..." per problem (also when SOURCE issues no wgmma at all); 2 on bad usage or when FROM
is not in SOURCE; 3 when nvcc fails.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_reading import compiled, functions, parse_arguments, readable  # noqa: E402  (after the path to it)

# ptxas's note that it added a fence the PTX lacked: group 1 is the function's mangled name.
INJECTED = re.compile(r"\(C7519\) warpgroup\.arrive is injected\b.*? in function '([\w$]+)'")
WGMMA = re.compile(r"^(?:@!?%\w+\s+)?wgmma\.mma_async\b")
COMMIT = re.compile(r"^(?:@!?%\w+\s+)?wgmma\.commit_group\b")
WAIT = re.compile(r"^(?:@!?%\w+\s+)?wgmma\.wait_group\b")


def uncommitted_waits(instructions):
    """The PTX line numbers where a wgmma.wait_group (or the function's end, line None) finds
    wgmmas issued since the last wgmma.commit_group, in the text's order."""
    found, open_since = [], None
    for number, text in instructions:
        if WGMMA.match(text):
            open_since = open_since or number
        elif COMMIT.match(text):
            open_since = None
        elif WAIT.match(text) and open_since:
            found.append(number)
            open_since = None
    return found + ([None] if open_since else [])


def main():
    args = parse_arguments(__doc__)  # --help prints the docstring above and exits 0
    name = os.path.basename(args.source)
    ptx, _ = compiled(args, "ptx", "wgmma-group-")
    issuing = [(f, body) for f, body in functions(ptx) if any(WGMMA.match(text) for _, text in body)]
    if not issuing:
        print(f"FAILED: {name}: no wgmma instruction (wgmma.mma_async) at all")
        return 1
    problems = 0
    for function, body in issuing:
        for line in uncommitted_waits(body):
            where = f"PTX line {line}, a wgmma.wait_group" if line else "the function's end"
            print(f"FAILED: {name}: {readable(function)}: wgmmas reach {where} without a wgmma.commit_group: "
                  "the wait covers committed groups only (wgmma_commit() closes the group after the last wgmma)")
            problems += 1
    _, messages = compiled(args, "cubin", "wgmma-group-")
    for function in sorted(set(INJECTED.findall(messages))):
        print(f"FAILED: {name}: {readable(function)}: the compiler had to add a wgmma fence (ptxas C7519): a "
              "wgmma uses accumulator registers that other instructions touched since the last wgmma.fence "
              "(wgmma_fence() comes before the first wgmma of each group)")
        problems += 1
    if problems:
        return 1
    print(f"OK: {name}: every wgmma is fenced and committed by the code itself (ptxas added no wgmma fence)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
