#!/usr/bin/env python3
"""verify-flag-ordering.py --nvcc NVCC --arch SM [-I DIR ...] [--replace FROM TO] SOURCE.cu:
a flag that publishes other memory is stored with release and read with acquire, in the PTX.

Compiles SOURCE to PTX (NVCC -ptx -O3 -arch=sm_SM; with --replace, a copy of SOURCE with the
text FROM replaced by TO, which must be there: a planted bug) and reads each kernel and device
function in the order of its instructions (branches not followed, which the unrolled loops of a
message-passing test need not):
  - an ordinary store to global memory (st.global, or a generic st) followed by a relaxed or
    volatile store (a flag) with no fence between is a flag stored without release: the model
    orders nothing between the two stores, so the flag may become visible first;
  - a relaxed or volatile load (a flag) followed by an ordinary load from global memory with no
    fence between is a read without acquire: it may return what was there before the flag.
A release store (st.release) or acquire load (ld.acquire) carries its own ordering; a fence
(fence.acq_rel, fence.sc, membar) orders everything before it against everything after.
Atomic read-modify-writes (atom, red) are neither.

A run cannot be relied on to show a missing release: two stores of one thread to two addresses
rarely overtake each other in the hardware, so this reads the compiled code instead. Exit 0 with
"OK: ..." when nothing is out of order; 1 with one line "FAILED: ..." per finding; 2 on bad
usage or when FROM is not in SOURCE; 3 when nvcc fails.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_reading import functions, parse_arguments, ptx_of, readable  # noqa: E402  (after the path to it)

INSTRUCTION = re.compile(r"^\s*(?:@!?%\w+\s+)?(ld|st|fence|membar)(?=[.\s])")
SPACE_OTHER = re.compile(r"\.(shared|param|local|const|tex)\b")
STRONG = re.compile(r"\.(relaxed|volatile)\b")


def kind_of(line):
    """'weak store', 'flag store', 'release store', 'weak load', 'flag load', 'acquire load',
    'fence', or None, for one line of PTX."""
    match = INSTRUCTION.match(line)
    if not match:
        return None
    word = line.split()[0] if not line.lstrip().startswith("@") else line.split()[1]
    op = match.group(1)
    if op in ("fence", "membar"):
        return None if word.startswith("fence.proxy") else "fence"
    if SPACE_OTHER.search(word):
        return None
    verb = "store" if op == "st" else "load"
    if ".release" in word or ".acquire" in word:
        return f"{'release' if op == 'st' else 'acquire'} {verb}"
    return f"{'flag' if STRONG.search(word) else 'weak'} {verb}"


def findings(ptx):
    """The instructions out of order: [(function, what, first PTX line, how many such places)]."""
    found = {}  # (function, what) -> [first line, count]
    for function, instructions in functions(ptx):
        pending_store = pending_load = None
        for number, line in instructions:
            kind = kind_of(line)
            what = None
            if kind == "fence":
                pending_store = pending_load = None
            elif kind == "weak store":
                pending_store = pending_store or number
            elif kind == "flag store" and pending_store:
                what, pending_store = "an ordinary store, then a flag stored without release: the flag may " \
                                      "become visible first", None
            elif kind == "flag load":
                pending_load = number
            elif kind == "weak load" and pending_load:
                what, pending_load = "a flag loaded, then an ordinary load without an acquire between: it may " \
                                     "read what was there before", None
            if what:
                found.setdefault((function, what), [number, 0])[1] += 1
    return [(function, what, first, count) for (function, what), (first, count) in found.items()]


def main():
    args = parse_arguments(__doc__)  # --help prints the docstring above and exits 0
    problems = findings(ptx_of(args, "flag-ordering-"))
    for function, what, first, count in problems:
        print(f"FAILED: {readable(function)}: {what} (PTX line {first}; {count} such place(s))")
    if problems:
        return 1
    print(f"OK: {os.path.basename(args.source)}: every flag stored after ordinary stores is a release, and every "
          "ordinary load after a flag's load follows an acquire")
    return 0


if __name__ == "__main__":
    sys.exit(main())
