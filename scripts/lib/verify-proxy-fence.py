#!/usr/bin/env python3
"""verify-proxy-fence.py --nvcc NVCC --arch SM [-I DIR ...] [--replace FROM TO] SOURCE.cu:
shared memory that threads write and a TMA store then reads is handed over in order, in the PTX.

Threads write shared memory through the generic proxy (st.shared, stmatrix); a TMA store
(cp.async.bulk[.tensor] global from shared, or its reducing form) reads it through the async
proxy. PTX orders the two only through a proxy fence (fence.proxy.async.shared::cta, or
fence.proxy.async for every state space) by each writing thread, before the barrier after which
one thread issues the store (PTX ISA, "Memory Consistency Model", proxies; "Data Movement":
cp.async.bulk.tensor). Compiles SOURCE to PTX (NVCC -ptx -O3 -arch=sm_SM; with --replace, a copy
of SOURCE with the text FROM replaced by TO: a planted bug) and reads each kernel and device
function that issues such a store, in the order of its instructions (branches not followed, as
the unrolled loops of an epilogue need not), for four faults:
  - a store issued after this thread's writes with no proxy fence since them;
  - a store issued after a barrier that this thread reached with writes not yet fenced (a fence
    after the barrier orders nothing of the other threads' writes);
  - a store issued after writes with no barrier since them (the other threads' writes may not
    have happened yet);
  - no wait for every store (cp.async.bulk.wait_group 0) after the last one: the block may end
    while TMA still reads its shared memory;
  - a wait for every earlier store between two stores: the stores' reads of shared memory no
    longer overlap the writing of the next chunk, and a second buffer gains nothing (right
    results, slower: the one fault here that is not one of order).
A run cannot be relied on to show a missing proxy fence: the writes have almost always landed by
the time TMA reads. Exit 0 with "OK: ..." when the hand-over is in order; 1 with one line
"FAILED: ..." per finding (also when SOURCE issues no TMA store from shared memory at all); 2 on
bad usage or when FROM is not in SOURCE; 3 when nvcc fails.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_reading import functions, parse_arguments, ptx_of, readable  # noqa: E402  (after the path to it)

# An optional guard predicate ("@%p1 ", "@!%p2 "), then the instruction's name.
GUARD = re.compile(r"^(?:@!?%\w+\s+)?")
WRITE = re.compile(r"^(st\.shared\b|st\.volatile\.shared\b|st\.relaxed\.\w+\.shared\b|stmatrix\b)")
FENCE = re.compile(r"^fence\.proxy\.async(\.shared::cta)?\s*;")
BARRIER = re.compile(r"^(bar|barrier)\.(sync|red|arrive)\b|^bar\s")
STORE = re.compile(r"^(cp\.async\.bulk(\.tensor\.\d+d)?|cp\.reduce\.async\.bulk(\.tensor\.\d+d)?)\.global\.shared::cta\b")
WAIT_ALL = re.compile(r"^cp\.async\.bulk\.wait_group(\.read)?\s+0\s*;")

MISSING_FENCE = ("shared memory written, then handed to a TMA store with no fence.proxy.async.shared::cta "
                 "between: the store reads through the async proxy and may miss the writes")
FENCE_AFTER_BARRIER = ("shared memory written, then a barrier reached with no fence.proxy.async.shared::cta "
                       "before it, then a TMA store: each writing thread must fence before the barrier (a "
                       "fence after it does not order the other threads' writes)")
NO_BARRIER = ("shared memory written, then handed to a TMA store with no barrier between: the other "
              "threads' writes may not have happened yet")
SERIAL = ("a wait for every earlier TMA store (cp.async.bulk.wait_group 0) before the next one: while one "
          "buffer's store still reads, the other buffer could be filled; waiting for all makes the buffers take "
          "turns (right results, but the stores no longer overlap the writing)")
NO_FINAL_WAIT = ("no cp.async.bulk.wait_group 0 after the last TMA store: the block may end while TMA still "
                 "reads its shared memory")


def findings(instructions):
    """The faults of one function's instructions [(line, text)]: [(what, first PTX line, count)];
    None when it issues no TMA store from shared memory."""
    found = {}  # what -> [first line, count]
    dirty = False  # this thread wrote since its last proxy fence
    dirty_at_barrier = False  # ... when it reached the last barrier
    written_since_barrier = False
    waited_for_all = False  # since the last store
    last_store = last_wait = None
    for number, line in instructions:
        text = GUARD.sub("", line)
        what = []
        if WRITE.match(text):
            dirty = written_since_barrier = True
        elif FENCE.match(text):
            dirty = False
        elif BARRIER.match(text):
            dirty_at_barrier, written_since_barrier = dirty, False
        elif STORE.match(text):
            last_store_before, last_store = last_store is not None, number
            if dirty:
                what.append(MISSING_FENCE)
            elif dirty_at_barrier:
                what.append(FENCE_AFTER_BARRIER)
            if written_since_barrier:
                what.append(NO_BARRIER)
            if waited_for_all and last_store_before:
                what.append(SERIAL)
            waited_for_all = False
        elif WAIT_ALL.match(text):
            last_wait, waited_for_all = number, True
        for fault in what:
            found.setdefault(fault, [number, 0])[1] += 1
    if last_store is None:
        return None
    if last_wait is None or last_wait < last_store:
        found[NO_FINAL_WAIT] = [last_store, 1]
    return [(what, first, count) for what, (first, count) in found.items()]


def main():
    args = parse_arguments(__doc__)  # --help prints the docstring above and exits 0
    name = os.path.basename(args.source)
    checked, problems = 0, 0
    for function, instructions in functions(ptx_of(args, "proxy-fence-")):
        faults = findings(instructions)
        if faults is None:
            continue
        checked += 1
        for what, first, count in faults:
            print(f"FAILED: {name}: {readable(function)}: {what} (PTX line {first}; {count} such place(s))")
            problems += 1
    if not checked:
        print(f"FAILED: {name}: no TMA store from shared memory (cp.async.bulk ... .global.shared::cta) at all")
        return 1
    if problems:
        return 1
    print(f"OK: {name}: every TMA store from shared memory follows the writers' proxy fences and a barrier, "
          "and the last one is waited for")
    return 0


if __name__ == "__main__":
    sys.exit(main())
