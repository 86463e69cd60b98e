#!/usr/bin/env python3
"""validate-timeline-csv.py FILE --streams S --chunks C -- PROGRAM ARGS...: runs a program that
writes a pipeline's timeline to FILE (lesson 11's --bench --timeline FILE) and checks the file.

Succeeds only when
  - the program exits with 0 (exit 77, "skipped: no GPU", is passed on, so CTest skips the test);
  - FILE starts with the comment lines naming the device, the date and the command, and a
    '# pipeline: S streams x C chunks, N doubles, ...' line with the expected S and C;
  - its header is stream,chunk,operation,start_ms,end_ms;
  - every chunk that holds elements (of N in C nearly equal chunks) has exactly one h2d, one
    kernel and one d2h row, on stream chunk % S, in that order, and no other chunk has any;
  - every operation ends at or after it starts, at or after the start event (time 0);
  - the operations of one stream do not overlap (a stream runs its work in order);
  - the span row runs from the first start to the last end, and the ideal row starts with it and
    ends after it starts and no later than the span's end (a lower bound cannot exceed a run).
"""
import math
import os
import re
import subprocess
import sys

import bench_csv

SKIP = 77
TOLERANCE_MS = 1e-3  # CUDA events resolve about half a microsecond
KINDS = ["h2d", "kernel", "d2h"]


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def number(row, column):
    value = bench_csv.number(row.get(column))
    if value is None or not math.isfinite(value):
        fail(f"row {row}: {column} is not a number")
    return value


def check_timeline(path, streams, chunks):
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        fail(f"the program wrote no timeline ({path})")
    table = bench_csv.read(path)
    for key in ("device", "date", "command", "pipeline"):
        if key not in table.comments:
            fail(f"the timeline has no '# {key}:' comment line")
    plan = re.match(r"(\d+) streams x (\d+) chunks, (\d+) doubles", table.comments["pipeline"])
    if not plan or (int(plan[1]), int(plan[2])) != (streams, chunks):
        fail(f"'# pipeline: {table.comments['pipeline']}': expected {streams} streams x {chunks} chunks")
    count = int(plan[3])
    if table.columns != ["stream", "chunk", "operation", "start_ms", "end_ms"]:
        fail(f"the header is {','.join(table.columns)}, not stream,chunk,operation,start_ms,end_ms")
    length = -(-count // chunks)  # nearly equal chunks, the last ones possibly empty
    filled = [c for c in range(chunks) if c * length < count]
    ops, summary = {}, {}
    for row in table.rows:
        if row["operation"] in ("span", "ideal"):
            summary[row["operation"]] = (number(row, "start_ms"), number(row, "end_ms"))
            continue
        if row["operation"] not in KINDS:
            fail(f"unknown operation '{row['operation']}' in {row}")
        key = (int(row["chunk"]), row["operation"])
        if key in ops:
            fail(f"chunk {key[0]} has two {key[1]} rows")
        start, end = number(row, "start_ms"), number(row, "end_ms")
        if start < -TOLERANCE_MS or end < start:
            fail(f"chunk {key[0]} {key[1]}: from {start} to {end} ms (an operation ends after it starts, after 0)")
        ops[key] = (int(row["stream"]), start, end)
    for chunk in range(chunks):
        for kind in KINDS:
            if chunk in filled and (chunk, kind) not in ops:
                fail(f"chunk {chunk} has no {kind} row")
            if chunk not in filled and (chunk, kind) in ops:
                fail(f"chunk {chunk} holds no element but has a {kind} row")
    if len(ops) != 3 * len(filled):
        fail(f"{len(ops)} operations for {len(filled)} chunks: rows of chunks outside 0..{chunks - 1}")
    for chunk in filled:
        times = [ops[(chunk, kind)] for kind in KINDS]
        for (stream, _, _), kind in zip(times, KINDS):
            if stream != chunk % streams:
                fail(f"chunk {chunk} {kind} on stream {stream}, not on stream {chunk % streams}")
        for (_, _, end), (_, start, _), kind in zip(times, times[1:], KINDS[1:]):
            if start < end - TOLERANCE_MS:
                fail(f"chunk {chunk}: its {kind} starts at {start} ms, before the operation before it ends ({end} ms)")
    for stream in range(streams):
        lane = sorted((start, end, chunk, kind) for (chunk, kind), (s, start, end) in ops.items() if s == stream)
        for before, after in zip(lane, lane[1:]):
            if after[0] < before[1] - TOLERANCE_MS:
                fail(f"stream {stream}: chunk {after[2]} {after[3]} starts at {after[0]} ms, before chunk "
                     f"{before[2]} {before[3]} ends ({before[1]} ms): the operations of a stream overlap")
    for name in ("span", "ideal"):
        if name not in summary:
            fail(f"the timeline has no {name} row")
    first = min(start for _, start, _ in ops.values())
    last = max(end for _, _, end in ops.values())
    span, ideal = summary["span"], summary["ideal"]
    if abs(span[0] - first) > TOLERANCE_MS or abs(span[1] - last) > TOLERANCE_MS:
        fail(f"the span row {span} is not the first start and last end ({first}, {last})")
    if abs(ideal[0] - span[0]) > TOLERANCE_MS or not (ideal[0] < ideal[1] <= span[1] + TOLERANCE_MS):
        fail(f"the ideal row {ideal} must start with the span {span} and end within it")
    print(f"timeline: {len(ops)} operations of {len(filled)} chunks on {streams} streams, span "
          f"{span[1] - span[0]:.3f} ms, ideal {ideal[1] - ideal[0]:.3f} ms: well-formed")


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        split = argv.index("--")
        path, options, command = argv[1], argv[2:split], argv[split + 1:]
        settings = dict(zip(options[::2], options[1::2]))
        streams, chunks = int(settings["--streams"]), int(settings["--chunks"])
    except (ValueError, KeyError, IndexError):
        print("usage: validate-timeline-csv.py FILE --streams S --chunks C -- PROGRAM ARGS...", file=sys.stderr)
        return 2
    if os.path.exists(path):
        os.remove(path)  # an earlier run's file must not pass for this one's
    result = subprocess.run(command)
    if result.returncode == SKIP:
        print("skipped: the program found no GPU")
        return SKIP
    if result.returncode != 0:
        fail(f"the program exited with {result.returncode}")
    check_timeline(path, streams, chunks)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
