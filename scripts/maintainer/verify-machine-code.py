#!/usr/bin/env python3
"""verify-machine-code.py NVCC [KEY ...]: the mutation reports' claims that a mutant compiles to
the solution's machine code still hold.

Some survivors of solutions/*/mutation-report.tsv keep their reason by the compiled code: a write
past a register array that nvcc drops (undefined behaviour, so "not killed", yet no run can show
it), or a moved barrier or an unused array element that changes nothing ("equivalent"). Such a
reason says "the solution's machine code". For every survivor whose reason says so, this compiles
the solution file and the mutant alike (NVCC -cubin -O3 -arch=sm_90a -std=c++17, from the same
temporary path, with the file's own folder, its lesson's folder and common/include to find its
headers) and compares the machine code of each function (the cubins' .text sections) byte for
byte. Each KEY (a report row's "file|position|operator") is checked as if its reason made the
claim too: a planted false claim. Exit 0 with "OK: ..." when every claim holds; 1 with one line
"FAILED: ..." per mutant whose code differs or does not compile; 2 on bad usage.
"""
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402  (after the path to it; it puts scripts/lib on the path)
from ptx_reading import nvcc_output  # noqa: E402

ROOT = mutate.ROOT
CLAIM = "the solution's machine code"
ARCH = "90a"  # sm_90a: lesson 13's wgmma, TMA and setmaxnreg compile as on the GPU (sm_90 traps)


def text_sections(cubin):
    """{section name: bytes} of the ELF file's .text.* sections: each function's machine code."""
    (header_offset,) = struct.unpack_from("<Q", cubin, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, header_offset + i * entry_size) for i in range(count)]
    names_offset = headers[names_index][4]

    def name(offset):
        start = names_offset + offset
        return cubin[start:cubin.index(b"\0", start)].decode()

    return {name(h[0]): cubin[h[4]:h[4] + h[5]] for h in headers if name(h[0]).startswith(".text.")}


def machine_code(nvcc, path, text, folder):
    """The .text sections of `text` compiled as if it were the file `path` (relative to the
    course), or None with nvcc's messages when it does not compile."""
    source = os.path.join(folder, os.path.basename(path))
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    lesson = path.split("/")[1]
    includes = [os.path.dirname(os.path.join(ROOT, path)), os.path.join(ROOT, "lessons", lesson),
                os.path.join(ROOT, "common", "include")]
    cubin, messages, _ = nvcc_output(nvcc, "cubin", ARCH, source, includes, folder)
    return (None, messages[-400:]) if cubin is None else (text_sections(cubin), "")


def claims(planted):
    """{solution file: [report row]} of the survivors whose reason rests on the machine code, and
    of the rows whose keys are in `planted`."""
    found = {}
    for lesson in sorted(os.listdir(os.path.join(ROOT, "solutions"))):
        report = mutate.read_report(lesson)
        for row in report.rows if report else []:
            if (row["outcome"] == mutate.SURVIVED and CLAIM in row["reason"]) or mutate.row_key(row) in planted:
                found.setdefault(row["file"], []).append(row)
    return found


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    nvcc, planted = sys.argv[1], set(sys.argv[2:])
    found = claims(planted)
    missing = planted - {mutate.row_key(row) for rows in found.values() for row in rows}
    if missing:
        print(f"error: no report row with the key {sorted(missing)[0]!r}")
        return 2
    failed = checked = 0
    with tempfile.TemporaryDirectory(prefix="machine-code-") as folder:
        for path, rows in found.items():
            mutants, lines = mutate.file_mutants(path)
            by_key = {mutant.key: mutant for mutant in mutants}
            solved, messages = machine_code(nvcc, path, "\n".join(lines), folder)
            if solved is None:
                print(f"FAILED: {path}: the solution does not compile: {messages}")
                return 1
            for row in rows:
                mutant = by_key.get(mutate.row_key(row))
                where = f"{path}:{row['line']} {row['operator']}"
                if mutant is None:
                    print(f"FAILED: {where}: no such mutant of the file (run mutate.py verify)")
                    failed += 1
                    continue
                code, messages = machine_code(nvcc, path, "\n".join(mutant.apply(lines)), folder)
                checked += 1
                if code != solved:
                    print(f"FAILED: {where}: its reason says it makes {CLAIM}, but "
                          + (f"it does not compile: {messages}" if code is None else
                             "its machine code differs: give it another reason"))
                    failed += 1
    if failed:
        return 1
    print(f"OK: {checked} mutants compile to {CLAIM}, as their reasons say (sm_{ARCH}, -O3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
